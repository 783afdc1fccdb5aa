//! What a seat or a spectator may see, and the reverse: a full state
//! sampled from a view. A view is the public half, the sizes of everything
//! hidden, and the viewer's own secrets: its hand, its objectives (kept and
//! on offer), the cards it discarded face down since the last reshuffle,
//! the face-down contacts it decoded, and the X pile once it has entered
//! Sector X. The options of the pending decision are shown to its decider
//! only. `Game::from_view` redraws everything else at random, keeping every
//! fact of the view, including that a hidden objective of the "achieved"
//! kind is not met yet (it would have been revealed).

use crate::config::GameConfig;
use crate::content::{Content, Pile, When};
use crate::decision::Decision;
use crate::rng::GameRng;
use crate::state::*;
use serde::{Deserialize, Serialize};

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A commander.
    Seat(Seat),
    /// Anyone watching (sees what every commander sees).
    Spectator,
}

/// Sizes of the hidden parts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counts {
    /// Exploration deck.
    pub deck: u8,
    /// Face-down discards, per seat.
    pub discarded: Vec<u8>,
    /// Hands, per seat.
    pub hands: Vec<u8>,
    /// Unrevealed objectives, per seat.
    pub objectives: Vec<u8>,
    /// Objectives on offer, per seat.
    pub offers: Vec<u8>,
    /// The objective pile.
    pub objective_pile: u8,
    /// The A and B piles.
    pub piles: [u8; 2],
    /// The X pile.
    pub pile_x: u8,
    /// The Imperator deck.
    pub imperator_deck: u8,
}

/// A commander's own secrets.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Private {
    /// Its hand.
    pub hand: Vec<u8>,
    /// Its unrevealed objectives.
    pub objectives: Vec<u8>,
    /// Objectives on offer to it.
    pub offer: Vec<u8>,
    /// Cards it discarded face down (since the last reshuffle).
    pub discarded: Vec<u8>,
    /// The face-down A and B contacts, where it decoded them.
    pub contacts: [Option<u8>; 2],
    /// The X pile, once it has entered Sector X.
    pub pile_x: Option<Vec<u8>>,
}

/// The visible game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// The configuration, seed 0 (the seed would reveal every hidden card).
    pub config: GameConfig,
    /// Everything public.
    pub public: Public,
    /// Sizes of the hidden parts.
    pub counts: Counts,
    /// The viewer's own secrets (seats only).
    pub mine: Option<Private>,
    /// The pending decision with its options, for its decider only.
    pub decision: Option<Decision>,
}

impl Game {
    /// The view of a seat or a spectator.
    pub fn view(&self, viewer: Viewer) -> View {
        let n = self.players();
        let per_seat = |f: &dyn Fn(usize) -> usize| (0..n).map(|i| f(i) as u8).collect::<Vec<u8>>();
        let counts = Counts {
            deck: self.hid.deck.len() as u8,
            discarded: per_seat(&|i| self.hid.discard_down.iter().filter(|d| usize::from(d.1) == i).count()),
            hands: per_seat(&|i| self.hid.hands[i].len()),
            objectives: per_seat(&|i| self.hid.objectives[i].len()),
            offers: per_seat(&|i| self.hid.offers[i].len()),
            objective_pile: self.hid.objective_pile.len() as u8,
            piles: [self.hid.piles[0].len() as u8, self.hid.piles[1].len() as u8],
            pile_x: self.hid.pile_x.len() as u8,
            imperator_deck: self.hid.imperator_deck.len() as u8,
        };
        let seat = match viewer {
            Viewer::Seat(s) if usize::from(s) < n => Some(s),
            _ => None,
        };
        let mine = seat.map(|s| {
            let i = usize::from(s);
            let decoded = |slot: usize| {
                if self.pb.contact_seen[slot].contains(&s) { self.hid.contacts[slot] } else { None }
            };
            Private {
                hand: self.hid.hands[i].clone(),
                objectives: self.hid.objectives[i].clone(),
                offer: self.hid.offers[i].clone(),
                discarded: self.hid.discard_down.iter().filter(|d| d.1 == s).map(|d| d.0).collect(),
                contacts: [decoded(0), decoded(1)],
                pile_x: self.pb.x_seen_by.contains(&s).then(|| self.hid.pile_x.clone()),
            }
        });
        let decision = match (seat, self.pb.pending.seat()) {
            (Some(s), Some(d)) if s == d => Some(self.decision()),
            _ => None,
        };
        View {
            viewer,
            config: GameConfig { seed: 0, ..self.config.clone() },
            public: self.pb.clone(),
            counts,
            mine,
            decision,
        }
    }

    /// A full state consistent with `view`: the public half and the
    /// viewer's secrets as seen, everything else drawn with `seed`.
    pub fn from_view(view: &View, seed: u64) -> Game {
        let c = Content::get();
        let mut rng = GameRng::new(seed);
        let n = view.public.ships.len();
        let k = &view.counts;
        let empty = Private {
            hand: Vec::new(),
            objectives: Vec::new(),
            offer: Vec::new(),
            discarded: Vec::new(),
            contacts: [None, None],
            pile_x: None,
        };
        let mine = view.mine.as_ref().unwrap_or(&empty);
        let me = match view.viewer {
            Viewer::Seat(s) if view.mine.is_some() => Some(s),
            _ => None,
        };
        let pb = view.public.clone();
        let mut hid = Hidden {
            hands: vec![Vec::new(); n],
            objectives: vec![Vec::new(); n],
            offers: vec![Vec::new(); n],
            ..Hidden::default()
        };

        // Exploration cards: what the viewer cannot place is shuffled into
        // the other hands, the others' face-down discards and the deck.
        let mut known: Vec<u8> = pb.discard_up.clone();
        known.extend(&mine.hand);
        known.extend(&mine.discarded);
        let mut pool = unknown(c.exploration.len() as u8, &known);
        rng.shuffle(&mut pool);
        for seat in 0..n {
            if Some(seat as Seat) == me {
                hid.hands[seat] = mine.hand.clone();
                hid.discard_down.extend(mine.discarded.iter().map(|&d| (d, seat as Seat)));
            } else {
                hid.hands[seat] = take(&mut pool, k.hands[seat]);
                hid.discard_down.extend(take(&mut pool, k.discarded[seat]).into_iter().map(|d| (d, seat as Seat)));
            }
        }
        hid.deck = pool;

        // Extrasolar cards.
        let mut known: Vec<u8> = pb.contact_a1.into_iter().collect();
        known.extend(pb.planets.iter().flatten().map(|p| p.card));
        for s in &pb.ships {
            known.extend(&s.trophies);
            known.extend(&s.x_cards);
        }
        known.extend(mine.contacts.iter().flatten());
        if let Some(x) = &mine.pile_x {
            known.extend(x);
        }
        let of_pile = |p: Pile| -> Vec<u8> {
            let mut v: Vec<u8> = c.pile(p).into_iter().filter(|i| !known.contains(i)).collect();
            v.sort_unstable();
            v
        };
        for (slot, pile) in [(0, Pile::A), (1, Pile::B)] {
            let mut pool = of_pile(pile);
            rng.shuffle(&mut pool);
            hid.contacts[slot] = match (pb.contact_down[slot], mine.contacts[slot]) {
                (false, _) => None,
                (true, Some(card)) => Some(card),
                (true, None) => pool.pop(),
            };
            hid.piles[slot] = pool;
        }
        hid.pile_x = mine.pile_x.clone().unwrap_or_else(|| of_pile(Pile::X));

        // Imperator deck: every card not face up.
        let mut known: Vec<u8> = pb.imperator.discard.clone();
        known.extend(pb.imperator.card);
        hid.imperator_deck = unknown(c.imperator.len() as u8, &known);
        rng.shuffle(&mut hid.imperator_deck);

        let mut g = Game { config: GameConfig { seed, ..view.config.clone() }, pb, hid };

        // Objectives: hidden "achieved" ones must not be met already.
        let mut known: Vec<u8> = mine.objectives.clone();
        known.extend(&mine.offer);
        for s in &g.pb.ships {
            known.extend(&s.revealed);
        }
        let base = unknown(c.objectives.len() as u8, &known);
        let mut attempt = 0u32;
        loop {
            let mut pool = base.clone();
            rng.shuffle(&mut pool);
            let mut ok = true;
            for seat in 0..n {
                if Some(seat as Seat) == me {
                    g.hid.objectives[seat] = mine.objectives.clone();
                    g.hid.offers[seat] = mine.offer.clone();
                    continue;
                }
                let mut held = Vec::new();
                for _ in 0..k.objectives[seat] {
                    let fits = |o: &u8| {
                        let def = &c.objectives[usize::from(*o)];
                        def.when == When::End || !g.objective_met(seat as Seat, def)
                    };
                    match pool.iter().position(fits) {
                        Some(i) => held.push(pool.remove(i)),
                        None => {
                            ok = false;
                            held.extend(pool.pop());
                        }
                    }
                }
                g.hid.objectives[seat] = held;
                g.hid.offers[seat] = take(&mut pool, k.offers[seat]);
            }
            g.hid.objective_pile = pool;
            attempt += 1;
            // End objectives always fit, and the content holds enough of
            // them for every hidden slot, so a retry is all but never needed.
            if ok || attempt >= 20 {
                break;
            }
        }
        g.hid.rng = rng;
        g
    }
}

/// The ids `0..total` not in `known`, ascending.
fn unknown(total: u8, known: &[u8]) -> Vec<u8> {
    (0..total).filter(|i| !known.contains(i)).collect()
}

/// Takes `n` items off the end of `pool`.
fn take(pool: &mut Vec<u8>, n: u8) -> Vec<u8> {
    let at = pool.len().saturating_sub(usize::from(n));
    pool.split_off(at)
}
