//! What a seat or a spectator may see, and the reverse: a full state
//! sampled from a view. X-ODUS is cooperative with no private hands, so
//! every seat sees the same public state; the stack, deck orders, face-down
//! Avatar tokens and Signal cards, and the random generator stay hidden.
//! `Game::from_view` fills the hidden half with a random arrangement that
//! agrees with everything public (a determinization for the AI's search).

use crate::config::GameConfig;
use crate::content::{Content, SignalTier, SystemKind};
use crate::decision::Decision;
use crate::rng::GameRng;
use crate::state::*;
use serde::{Deserialize, Serialize};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A captain.
    Seat(Seat),
    /// Anyone watching.
    Spectator,
}

/// The visible game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// The configuration (ships, difficulty, Allies). Its seed is always
    /// 0: whoever knows the seed can compute every hidden card and roll.
    pub config: GameConfig,
    /// Round number.
    pub round: u32,
    /// Phase.
    pub phase: Phase,
    /// Everything public.
    pub public: Public,
    /// Tiles left in the System stack.
    pub stack_remaining: u8,
    /// Cards in the Enemy deck.
    pub enemy_deck_size: u8,
    /// Cards in the Enemy reserve.
    pub enemy_reserve_size: u8,
    /// Cards in the Damaged deck.
    pub damaged_deck_size: u8,
    /// Cards in the Ship Module deck.
    pub module_deck_size: u8,
    /// Cards in the Precursor Ship Module deck.
    pub precursor_deck_size: u8,
    /// The pending decision.
    pub decision: Decision,
}

impl Game {
    /// The view of a seat or a spectator.
    pub fn view(&self, viewer: Viewer) -> View {
        View {
            viewer,
            config: GameConfig { seed: 0, ..self.config.clone() },
            round: self.pb.round,
            phase: self.pb.phase,
            public: self.pb.clone(),
            stack_remaining: self.hid.stack.len() as u8,
            enemy_deck_size: self.hid.enemy_deck.len() as u8,
            enemy_reserve_size: self.hid.enemy_reserve.len() as u8,
            damaged_deck_size: self.hid.damaged_deck.len() as u8,
            module_deck_size: self.hid.module_deck.len() as u8,
            precursor_deck_size: self.hid.precursor_deck.len() as u8,
            decision: self.decision(),
        }
    }

    /// A full state consistent with `view`: the public half as seen, the
    /// hidden half sampled with `seed`.
    pub fn from_view(view: &View, seed: u64) -> Game {
        let c = Content::get();
        let pb = view.public.clone();
        let mut rng = GameRng::new(seed);
        let four = view.config.ships.len() == 4;
        // Tiles on the board, and one drawn and waiting for its orientation.
        let on_board: Vec<u8> = pb
            .tiles
            .iter()
            .map(|t| t.tile)
            .chain(pb.waiting_steps().filter_map(|p| match p {
                crate::decision::Pending::Orientation { tile, .. } => Some(*tile),
                _ => None,
            }))
            .collect();
        let in_game = |i: usize| four || !c.tiles[i].three_player_removed;
        let free = |k: fn(SystemKind) -> bool| -> Vec<u8> {
            (0..c.tiles.len())
                .filter(|&i| in_game(i) && k(c.tiles[i].kind) && !on_board.contains(&(i as u8)))
                .map(|i| i as u8)
                .collect()
        };
        let mut colored = free(|k| matches!(k, SystemKind::Allied | SystemKind::Enemy));
        let mut reds = free(|k| k == SystemKind::Corrupt);
        let rift_free = !on_board.contains(&c.main_rift());
        rng.shuffle(&mut colored);
        rng.shuffle(&mut reds);
        let mut stack = Vec::new();
        for p in &pb.piles {
            let mut pile = Vec::new();
            let mut n = p.remaining;
            if p.special_left && n > 0 {
                if p.bottom && rift_free {
                    pile.push(c.main_rift());
                    n -= 1;
                } else if let Some(r) = reds.pop() {
                    pile.push(r);
                    n -= 1;
                }
            }
            for _ in 0..n {
                if let Some(t) = colored.pop() {
                    pile.push(t);
                }
            }
            rng.shuffle(&mut pile);
            stack.extend(pile);
        }

        // Enemies: whatever is not seen, split by the public level counts.
        let seen: Vec<u8> = pb.enemy_discard.iter().copied().chain(pb.board_enemies.iter().map(|e| e.card)).collect();
        let mut by_level: [Vec<u8>; 4] = Default::default();
        for i in 0..c.enemies.len() as u8 {
            if !seen.contains(&i) {
                by_level[(c.enemies[i as usize].level - 1) as usize].push(i);
            }
        }
        let mut reserve = Vec::new();
        let mut deck = Vec::new();
        for lvl in (0..4).rev() {
            let v = &mut by_level[lvl];
            rng.shuffle(v);
            for _ in 0..pb.reserve_levels[lvl] {
                if let Some(e) = v.pop() {
                    reserve.push(e);
                }
            }
            for _ in 0..pb.deck_levels[lvl] {
                if let Some(e) = v.pop() {
                    deck.push(e);
                }
            }
        }
        rng.shuffle(&mut deck);

        // Face-down Avatars.
        let mut avatars: Vec<u8> =
            (0..c.avatars.len() as u8).filter(|i| !pb.avatars.iter().any(|a| a.card == *i)).collect();
        rng.shuffle(&mut avatars);
        let mat_avatars: Vec<(u8, u8)> = pb.corruption.face_down.iter().copied().zip(avatars).collect();

        // Face-down Signals, within the difficulty's mix.
        let caps = |t: SignalTier| view.config.difficulty.signal_pool(t);
        let revealed: Vec<u8> = pb.signals.iter().filter_map(|s| s.card).collect();
        let mut candidates: Vec<u8> = (0..c.signals.len() as u8).filter(|i| !revealed.contains(i)).collect();
        rng.shuffle(&mut candidates);
        let mut used: Vec<u8> = revealed.clone();
        let mut signal_cards = Vec::new();
        for slot in &pb.signals {
            if let Some(card) = slot.card {
                signal_cards.push(card);
                continue;
            }
            let pick = candidates.iter().position(|&i| {
                let t = c.signals[i as usize].tier;
                used.iter().filter(|&&u| c.signals[u as usize].tier == t).count() < caps(t)
            });
            let card = pick.map(|p| candidates.remove(p)).unwrap_or(0);
            used.push(card);
            signal_cards.push(card);
        }

        // Damaged cards not on a ship nor discarded.
        let held: Vec<u8> =
            pb.ships.iter().flat_map(|s| s.damaged.iter().copied()).chain(pb.damaged_discard.iter().copied()).collect();
        let mut damaged_deck: Vec<u8> = (0..c.damaged.len() as u8).filter(|i| !held.contains(i)).collect();
        rng.shuffle(&mut damaged_deck);

        let mut exploration_deck: Vec<u8> =
            (0..c.explorations.len() as u8).filter(|i| !pb.exploration_discard.contains(i)).collect();
        rng.shuffle(&mut exploration_deck);
        for p in pb.waiting_steps() {
            if let crate::decision::Pending::Exploration { card, .. } = p {
                exploration_deck.retain(|x| x != card);
            }
        }

        // Modules: whatever is not seen on a ship, on offer or discarded.
        let seen_modules: Vec<u8> = pb
            .ships
            .iter()
            .flat_map(|s| s.modules.iter().copied())
            .chain(pb.allies.iter().flat_map(|a| a.offer.iter().copied()))
            .chain(pb.module_discard.iter().copied())
            .chain(pb.waiting_steps().filter_map(|p| match p {
                crate::decision::Pending::GiveModule { card, .. } => Some(*card),
                _ => None,
            }))
            .collect();
        let mut module_deck: Vec<u8> = (0..c.modules.len() as u8)
            .filter(|m| !c.modules[*m as usize].precursor && !seen_modules.contains(m))
            .collect();
        rng.shuffle(&mut module_deck);
        let mut precursor_deck: Vec<u8> = (0..c.modules.len() as u8)
            .filter(|m| c.modules[*m as usize].precursor && !seen_modules.contains(m))
            .collect();
        rng.shuffle(&mut precursor_deck);
        // Allies: the chosen ones not met yet form the deck.
        let met: Vec<crate::config::AllyKind> = pb.allies.iter().map(|a| a.kind).collect();
        let mut ally_deck: Vec<_> = view.config.allies.iter().copied().filter(|a| !met.contains(a)).collect();
        rng.shuffle(&mut ally_deck);
        let mut spare_allies: Vec<_> = crate::config::AllyKind::ALL
            .into_iter()
            .filter(|a| !view.config.allies.contains(a) && !met.contains(a))
            .collect();
        rng.shuffle(&mut spare_allies);

        let mut g = Game {
            config: view.config.clone(),
            pb,
            hid: Hidden {
                rng,
                stack,
                enemy_deck: deck,
                enemy_reserve: reserve,
                mat_avatars,
                signal_cards,
                damaged_deck,
                exploration_deck,
                module_deck,
                precursor_deck,
                ally_deck,
                spare_allies,
            },
            board: BoardIndex::default(),
        };
        g.reindex_board();
        g
    }
}
