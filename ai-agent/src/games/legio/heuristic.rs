//! The VII Legio heuristic: each option of the seat is applied to a few
//! determinizations of its view (a payment it starts is finished with the
//! cards least worth keeping), valued by `eval::utility` for the seat
//! alone, averaged, and nudged by priors that carry what a one-step
//! look-ahead cannot see: declaring the end only when the seat would
//! win, inviting a commander only when the landing needs its squads or
//! experience, which cards are worth keeping. `greedy` is the same
//! one-step choice on one full game, the search's playout policy.

use super::eval::{experience_for, lead_if_ended, utility};
use super::{LegioPolicy, my_options};
use crate::budget::Budget;
use crate::rng::{Rng, mix};
use legio_engine::content::{Content, Risk};
use legio_engine::{Choice, ChoiceOption, Game, Pending, Seat, View};

/// Determinizations the heuristic averages over.
pub const SAMPLES: usize = 4;

/// The heuristic policy.
pub struct Heuristic {
    seed: u64,
    calls: u64,
}

impl Heuristic {
    /// A heuristic with its own seed (for its determinizations).
    pub fn new(seed: u64) -> Heuristic {
        Heuristic { seed, calls: 0 }
    }
}

impl LegioPolicy for Heuristic {
    fn choose(&mut self, view: &View, _budget: &Budget) -> Option<String> {
        let (me, opts) = my_options(view)?;
        self.calls += 1;
        let seed = mix(&[self.seed, self.calls, view.public.seq]);
        let ranked = rank(view, me, opts, SAMPLES, seed);
        ranked.first().map(|&(i, _)| opts[i].id.clone())
    }

    fn name(&self) -> &'static str {
        "heuristic"
    }
}

/// The seat's options ranked best first: (index into `opts`, mean value
/// over `samples` determinizations plus the prior).
pub fn rank(view: &View, me: Seat, opts: &[ChoiceOption], samples: usize, seed: u64) -> Vec<(usize, f64)> {
    if opts.len() == 1 {
        return vec![(0, 0.0)];
    }
    let mut sum = vec![0.0f64; opts.len()];
    let mut priors = vec![0.0f64; opts.len()];
    for k in 0..samples.max(1) {
        let base = Game::from_view(view, mix(&[seed, k as u64]));
        for (i, o) in opts.iter().enumerate() {
            if k == 0 {
                // Priors read only the public board and the seat's own ship.
                priors[i] = prior(&base, me, &o.choice);
            }
            sum[i] += value_of(&base, me, &o.id);
        }
    }
    let mut rng = Rng::new(seed);
    let mut ranked: Vec<(usize, f64, u64)> =
        sum.iter().enumerate().map(|(i, s)| (i, s / samples.max(1) as f64 + priors[i], rng.next_u64())).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    ranked.into_iter().map(|(i, v, _)| (i, v)).collect()
}

/// The value to `me` of playing `id` on `g` (its payment finished).
fn value_of(g: &Game, me: Seat, id: &str) -> f64 {
    let mut next = g.clone();
    if next.apply(me, id).is_err() {
        return f64::NEG_INFINITY;
    }
    finish_payment(&mut next, me);
    utility(&next, me)
}

/// Pays a payment `me` owes with the cards least worth keeping.
pub fn finish_payment(g: &mut Game, me: Seat) {
    for _ in 0..16 {
        let Pending::Pay { seat, .. } = g.public().pending else { return };
        if seat != me {
            return;
        }
        let ship = &g.public().ships[usize::from(me)];
        let Some(&card) = g.hand(me).iter().min_by(|&&a, &&b| keep(ship, a).total_cmp(&keep(ship, b))) else {
            return;
        };
        if g.apply_choice(me, &Choice::Pay(card)).is_err() {
            return;
        }
    }
}

/// How much a card in hand is worth keeping (to explore with it).
pub fn keep(ship: &legio_engine::Ship, card: u8) -> f64 {
    let Some(def) = Content::get().exploration.get(usize::from(card)) else { return 0.0 };
    let xp = def.xp.map_or(0.0, |x| 0.5 * f64::from(x.amount));
    let risk = match def.risk {
        Risk::Signal => 0.3,
        Risk::Discovery => 0.8,
        Risk::OzOre { pc, px } if ship.px >= 3 => 0.3 * f64::from(pc) + 1.4 * f64::from(px),
        Risk::OzOre { .. } => -1.0,
        Risk::XenoShip { lasers, pc, px } if ship.tracks.lasers >= lasers => {
            0.3 * f64::from(pc) + 1.4 * f64::from(px) - 0.3
        }
        Risk::XenoShip { .. } => -0.6,
        Risk::Discard { cards } => -0.3 * f64::from(cards),
        Risk::Drift => -0.5,
        Risk::Hazard => -0.7,
    };
    xp + risk
}

/// What the one-step look-ahead cannot see, in utility units.
pub fn prior(g: &Game, me: Seat, choice: &Choice) -> f64 {
    let pb = g.public();
    let ship = &pb.ships[usize::from(me)];
    match *choice {
        Choice::DeclareEnd => match lead_if_ended(g, me) {
            Some(lead) if lead >= 3 => 0.5,
            _ => -0.5,
        },
        Choice::Pay(card) => -0.01 * keep(ship, card),
        Choice::Invite(_) => {
            let c = Content::get();
            let Some(l) = &pb.landing else { return 0.0 };
            let Some(p) = pb.planets[usize::from(l.planet)] else { return 0.0 };
            let card = &c.extrasolar[usize::from(p.card)];
            let own_squads = ship.tracks.squads
                + pb.imperator
                    .card
                    .filter(|_| ship.imperator_calls < g.config().imperator_calls())
                    .map_or(0, |i| c.imperator[usize::from(i)].squads);
            let invited: u8 = l.invited.iter().map(|&s| pb.ships[usize::from(s)].tracks.squads).sum();
            let skill = card.domains.iter().map(|&d| experience_for(ship, d)).max().unwrap_or(0);
            if own_squads + invited < card.squads {
                0.3
            } else if skill < card.experience {
                0.1
            } else {
                -0.05
            }
        }
        Choice::Abort => -0.05,
        Choice::Explore(card) => 0.01 * keep(ship, card),
        _ => 0.0,
    }
}

/// The one-step choice on a full game for whoever decides it (each seat
/// for itself): the search's playout policy. `None` once the game is over.
pub fn greedy(g: &Game, rng: &mut Rng) -> Option<(Seat, String)> {
    let d = g.decision();
    let seat = d.seat?;
    if d.options.len() == 1 {
        return Some((seat, d.options[0].id.clone()));
    }
    if let Pending::Pay { .. } = g.public().pending {
        let ship = &g.public().ships[usize::from(seat)];
        let best = d.options.iter().min_by(|a, b| {
            let k = |o: &ChoiceOption| if let Choice::Pay(c) = o.choice { keep(ship, c) } else { 0.0 };
            k(a).total_cmp(&k(b))
        })?;
        return Some((seat, best.id.clone()));
    }
    let mut best: Option<(f64, u64, usize)> = None;
    for (i, o) in d.options.iter().enumerate() {
        let v = value_of(g, seat, &o.id) + prior(g, seat, &o.choice);
        let tie = rng.next_u64();
        if best.is_none_or(|(bv, bt, _)| v > bv || (v == bv && tie < bt)) {
            best = Some((v, tie, i));
        }
    }
    best.map(|(_, _, i)| (seat, d.options[i].id.clone()))
}
