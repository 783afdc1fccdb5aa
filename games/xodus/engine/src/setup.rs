//! Setup (rulebook pp. 4-5, p. 19): the Corruption mat with face-down
//! Avatar tokens and the Signals of the chosen difficulty, the Enemy
//! reserve and starting deck, the System stack in piles with the Main Rift
//! at the bottom, the Starting System, and the ships.

use crate::config::{ConfigError, Difficulty, GameConfig};
use crate::content::{Content, SignalTier, SystemKind};
use crate::decision::Pending;
use crate::hex::{Hex, rotate_mask};
use crate::rng::GameRng;
use crate::state::*;

impl Game {
    /// Sets up a new game.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        config.validate()?;
        let c = Content::get();
        let mut rng = GameRng::new(config.seed);
        let four = config.ships.len() == 4;
        let side = if four { &c.mat_four } else { &c.mat_three };
        let key_count: u8 = if four { 4 } else { 3 };

        // Corruption mat: random Avatar tokens face down on their spaces.
        let mut avatar_cards: Vec<u8> = (0..c.avatars.len() as u8).collect();
        rng.shuffle(&mut avatar_cards);
        let mat_avatars: Vec<(u8, u8)> = side.avatar_spaces.iter().copied().zip(avatar_cards).collect();

        // Signals by difficulty (p. 19), shuffled, one per Key slot.
        let tier_cards = |t: SignalTier| -> Vec<u8> {
            (0..c.signals.len() as u8).filter(|&i| c.signals[i as usize].tier == t).collect()
        };
        let pick = |t: SignalTier, n: usize, rng: &mut GameRng| -> Vec<u8> {
            let mut v = tier_cards(t);
            rng.shuffle(&mut v);
            v.truncate(n);
            v
        };
        // The pool's counts by tier (p. 19); Heroic deals its lethal cards
        // first (the order the generator has always drawn them in).
        let order = match config.difficulty {
            Difficulty::Heroic => [SignalTier::Lethal, SignalTier::Perilous, SignalTier::Hazardous],
            _ => [SignalTier::Hazardous, SignalTier::Perilous, SignalTier::Lethal],
        };
        let mut signal_pool = Vec::new();
        for tier in order {
            let count = config.difficulty.signal_pool(tier);
            if count > 0 {
                signal_pool.extend(pick(tier, count, &mut rng));
            }
        }
        rng.shuffle(&mut signal_pool);
        signal_pool.truncate(key_count as usize);

        // Enemy reserve: each level shuffled, level 4 at the bottom; the top
        // 4 (level 1) form the deck.
        let mut reserve = Vec::new();
        for lvl in (1..=4).rev() {
            let mut v: Vec<u8> = (0..c.enemies.len() as u8).filter(|&i| c.enemies[i as usize].level == lvl).collect();
            rng.shuffle(&mut v);
            reserve.extend(v);
        }
        let mut deck = Vec::new();
        for _ in 0..4 {
            if let Some(e) = reserve.pop() {
                deck.push(e);
            }
        }
        let mut damaged_deck: Vec<u8> = (0..c.damaged.len() as u8).collect();
        rng.shuffle(&mut damaged_deck);
        let mut exploration_deck: Vec<u8> = (0..c.explorations.len() as u8).collect();
        rng.shuffle(&mut exploration_deck);
        let mut module_deck: Vec<u8> =
            (0..c.modules.len() as u8).filter(|&m| !c.modules[m as usize].precursor).collect();
        rng.shuffle(&mut module_deck);
        let mut precursor_deck: Vec<u8> =
            (0..c.modules.len() as u8).filter(|&m| c.modules[m as usize].precursor).collect();
        rng.shuffle(&mut precursor_deck);
        let mut ally_deck = config.allies.clone();
        rng.shuffle(&mut ally_deck);
        let mut spare_allies: Vec<_> =
            crate::config::AllyKind::ALL.into_iter().filter(|a| !config.allies.contains(a)).collect();
        rng.shuffle(&mut spare_allies);

        // System stack.
        let in_game = |i: usize| four || !c.tiles[i].three_player_removed;
        let removed_tiles: Vec<u8> = (0..c.tiles.len()).filter(|&i| !in_game(i)).map(|i| i as u8).collect();
        let mut colored: Vec<u8> = (0..c.tiles.len())
            .filter(|&i| in_game(i) && matches!(c.tiles[i].kind, SystemKind::Allied | SystemKind::Enemy))
            .map(|i| i as u8)
            .collect();
        let mut reds: Vec<u8> = (0..c.tiles.len())
            .filter(|&i| in_game(i) && c.tiles[i].kind == SystemKind::Corrupt)
            .map(|i| i as u8)
            .collect();
        rng.shuffle(&mut colored);
        rng.shuffle(&mut reds);
        let pile_count = if four { 6 } else { 5 };
        let per_pile = colored.len() / pile_count;
        let mut stack = Vec::new();
        let mut piles = Vec::new();
        for p in 0..pile_count {
            let mut pile: Vec<u8> = colored[p * per_pile..(p + 1) * per_pile].to_vec();
            if p == 0 {
                pile.push(c.main_rift());
            } else if let Some(r) = reds.pop() {
                pile.push(r);
            }
            rng.shuffle(&mut pile);
            piles.push(Pile { remaining: pile.len() as u8, special_left: true, bottom: p == 0 });
            stack.extend(pile);
        }
        let start = reds.pop().unwrap_or(0);
        let start_def = &c.tiles[start as usize];

        let ships = config
            .ships
            .iter()
            .enumerate()
            .map(|(i, &kind)| {
                let def = c.ship(kind);
                Ship {
                    seat: i as Seat,
                    kind,
                    hex: Hex::ORIGIN,
                    health: def.hull,
                    max_health: def.hull,
                    energy_total: 1,
                    energy_used: 0,
                    scraps: 1,
                    xp: 0,
                    level: 1,
                    damaged: Vec::new(),
                    keys: Vec::new(),
                    actions_left: 0,
                    strained: false,
                    turn_started: false,
                    played: false,
                    scavenged: false,
                    disengaged: false,
                    hidden: false,
                    engaged: false,
                    defeated: false,
                    fleet: None,
                    modules: Vec::new(),
                    mods: c.mod_choices(kind, 1),
                    powers_used: Vec::new(),
                    cloaked: false,
                    rush_shield: false,
                    strain_recoveries: 0,
                    relayed: false,
                    energy_lost: 0,
                }
            })
            .collect();

        let pb = Public {
            round: 1,
            phase: Phase::Action,
            seq: 0,
            tiles: vec![PlacedTile {
                tile: start,
                hex: Hex::ORIGIN,
                rotation: 0,
                lanes: rotate_mask(start_def.lane_mask(), 0),
                exploration_marker: false,
                key_marker: None,
                pacified: None,
                rift_created: false,
                rift_disabled: false,
                keys_activated: Vec::new(),
            }],
            removed_tiles,
            piles,
            ships,
            corruption: Corruption {
                position: 0,
                rise: side.rise,
                face_down: side.avatar_spaces.clone(),
                red_boxes: if config.legacy_reinforcements() { side.legacy_reinforcements.clone() } else { Vec::new() },
                movement_this_turn: 0,
                movement_markers: 0,
                movement_permanent: i8::from(config.nightmare()),
                rift_rush: false,
                retreats_this_round: Vec::new(),
                retreats_waiting: Vec::new(),
            },
            avatars: Vec::new(),
            board_enemies: Vec::new(),
            enemy_discard: Vec::new(),
            deck_levels: [deck.len() as u8, 0, 0, 0],
            reserve_levels: [0, 4, 4, 4],
            signals: (1..=key_count).map(|key| SignalSlot { key, card: None, progress: 0, solved: false }).collect(),
            damaged_discard: Vec::new(),
            exploration_supply: 20,
            pacify_supply: 6,
            active: Vec::new(),
            fight: None,
            next_fleet: 0,
            pending: Pending::NextPlayer,
            exploration_discard: Vec::new(),
            allies: Vec::new(),
            module_discard: Vec::new(),
            queued: Vec::new(),
            exploration_xp: Vec::new(),
            resume: None,
            end_turn_requested: false,
            outcome: None,
        };
        let hid = Hidden {
            rng,
            stack,
            enemy_deck: deck,
            enemy_reserve: reserve,
            mat_avatars,
            signal_cards: signal_pool,
            damaged_deck,
            exploration_deck,
            module_deck,
            precursor_deck,
            ally_deck,
            spare_allies,
        };
        let mut g = Game { config, pb, hid, board: BoardIndex::default() };
        g.reindex_board();
        g.recount_levels();
        Ok(g)
    }

    /// Recomputes the public per-level counts of the Enemy deck and reserve.
    pub(crate) fn recount_levels(&mut self) {
        let c = self.content();
        let mut d = [0u8; 4];
        for &e in &self.hid.enemy_deck {
            d[(c.enemies[e as usize].level - 1) as usize] += 1;
        }
        let mut r = [0u8; 4];
        for &e in &self.hid.enemy_reserve {
            r[(c.enemies[e as usize].level - 1) as usize] += 1;
        }
        self.pb.deck_levels = d;
        self.pb.reserve_levels = r;
    }
}
