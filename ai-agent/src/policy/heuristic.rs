//! The `heuristic` policy: hand-written play of X-ODUS's goals, expressed
//! as a one-step look-ahead. Each option the seat may take is applied on a
//! few determinizations of the seat's view (so dice and hidden draws are
//! sampled, never read from the true game), the resulting states are
//! scored by [`crate::eval::evaluate`], and small priors encode advice the
//! evaluation cannot see in one step (don't strain when weak, disengage
//! when about to die, prefer finishing a Rush). Generic over options: a
//! new kind of choice is scored by its effect on the state.

use super::guard::LoopGuard;
use super::{Policy, options_for};
use crate::budget::Budget;
use crate::eval::evaluate;
use crate::rng::{Rng, mix};
use xodus_engine::content::{Challenge, Content};
use xodus_engine::{AvatarPlace, Choice, ChoiceOption, DecisionKind, Game, Hex, Public, Seat, View};

/// Determinizations sampled per decision.
const SAMPLES: usize = 4;

/// One-step look-ahead with priors.
pub struct HeuristicPolicy {
    rng: Rng,
    guard: LoopGuard,
}

impl HeuristicPolicy {
    /// A heuristic policy; the seed drives its determinizations.
    pub fn new(seed: u64) -> HeuristicPolicy {
        HeuristicPolicy { rng: Rng::new(seed), guard: LoopGuard::default() }
    }
}

/// Advice the one-step evaluation cannot see, by the shape of the choice.
pub fn prior(game: &Game, option: &ChoiceOption) -> f64 {
    let pb = game.public();
    match &option.choice {
        // The Damage Roll comes at the end of the turn, out of sight of a
        // one-step look-ahead: only strain with health to spare.
        Choice::Strain { seat } => {
            let h = pb.ships.get(usize::from(*seat)).map(|s| s.health).unwrap_or(0);
            -0.3 - 0.35 * f64::from(6u8.saturating_sub(h))
        }
        // Ending the turn early throws actions away; the evaluation counts
        // them, this only breaks ties towards acting.
        Choice::EndTurn => -0.01,
        // Giving things around rarely helps in one step; let a clear gain win.
        // Gifts are free inside a Trade: demand a clear gain, or two
        // captains would hand the same scrap back and forth.
        Choice::GiveScraps { .. } | Choice::GiveModule { .. } => -0.3,
        Choice::GiveKey { .. } => -0.2,
        // Fleets share actions (the smallest count): worth it to fight,
        // a waste to explore.
        // A Signal's trial or long repairs also go faster together.
        // A guardian is beyond a lone ship: the crew gathers and assaults it
        // as a fleet, which the one-step look-ahead cannot see coming.
        Choice::Invite { .. } => {
            let hex = pb.active.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            if hex.is_some_and(|h| guardian_ahead(pb, h)) {
                GATHER
            } else if hex.is_some_and(|h| fight_ahead(pb, h) || group_work_ahead(pb, h)) {
                0.4
            } else {
                -0.5
            }
        }
        Choice::Accept => {
            let hex = option.seats.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            if hex.is_some_and(|h| guardian_ahead(pb, h)) {
                GATHER
            } else if hex.is_some_and(|h| fight_ahead(pb, h) || group_work_ahead(pb, h)) {
                0.6
            } else {
                0.0
            }
        }
        Choice::Instruction => {
            let fleet = pb.active.len();
            let hex = pb.active.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            if hex.is_some_and(|h| guardian_ahead(pb, h)) { if fleet >= 2 { GATHER } else { -GATHER } } else { 0.0 }
        }
        // A move that gains nothing should lose to ending the turn.
        Choice::Jump { .. } | Choice::Rush | Choice::BlindJump { .. } => -0.02,
        _ => 0.0,
    }
}

/// Whether a revealed Signal in `hex` wants several ships at once: a
/// trial asking for more specials than two dice can show, or repairs with
/// more than one marker left (each ship of the group removes one).
pub fn group_work_ahead(pb: &Public, hex: Hex) -> bool {
    let c = Content::get();
    pb.tiles.iter().filter(|t| t.hex == hex).filter_map(|t| t.key_marker).any(|k| {
        pb.signals.iter().any(|s| {
            s.key == k
                && !s.solved
                && s.card.and_then(|i| c.signals.get(usize::from(i))).is_some_and(|d| match d.challenge {
                    Challenge::Trial { amount, .. } => amount >= 2,
                    Challenge::Repairs { amount } => amount.saturating_sub(s.progress) >= 2,
                    _ => false,
                })
        })
    })
}

/// Bonus for gathering a fleet at a guardian (and assaulting it together).
const GATHER: f64 = 3.0;

/// Whether a revealed guardian Signal waits in `hex`.
pub fn guardian_ahead(pb: &Public, hex: Hex) -> bool {
    let c = Content::get();
    pb.tiles.iter().filter(|t| t.hex == hex).filter_map(|t| t.key_marker).any(|k| {
        pb.signals.iter().any(|s| {
            s.key == k
                && !s.solved
                && s.card
                    .and_then(|i| c.signals.get(usize::from(i)))
                    .is_some_and(|d| matches!(d.challenge, Challenge::Guardian { .. }))
        })
    })
}

/// Whether a fight is to be had in `hex`: Enemies or an Avatar there, or
/// a revealed guardian Signal still to be assaulted.
pub fn fight_ahead(pb: &Public, hex: Hex) -> bool {
    let c = Content::get();
    let enemies = pb.board_enemies.iter().any(|e| e.hex == hex);
    let avatar = pb.avatars.iter().any(|a| a.place == (AvatarPlace::Board { hex }));
    let guardian = pb.tiles.iter().filter(|t| t.hex == hex).filter_map(|t| t.key_marker).any(|k| {
        pb.signals.iter().any(|s| {
            s.key == k
                && !s.solved
                && s.card
                    .and_then(|i| c.signals.get(usize::from(i)))
                    .is_some_and(|d| matches!(d.challenge, Challenge::Guardian { .. }))
        })
    });
    enemies || avatar || guardian
}

/// Steps of default continuation after a look-ahead move.
const CONTINUATION: usize = 8;

/// Whether a decision is the middle of a multi-step move (manoeuvres,
/// orientation, rush, maintenance...) rather than a fresh choice.
pub fn mid_move(kind: DecisionKind) -> bool {
    !matches!(
        kind,
        DecisionKind::Action | DecisionKind::NextPlayer | DecisionKind::CombatCommand | DecisionKind::GameOver
    )
}

/// Finishes the multi-step move in progress with a default continuation
/// (each pending sub-choice takes its first option, which the engine lists
/// as the plain one: Offense, roll, accept...), so that e.g. an attack is
/// scored by its resolved roll, not by the half-chosen manoeuvres.
pub fn complete_move(g: &mut Game) {
    for _ in 0..CONTINUATION {
        if g.outcome().is_some() {
            return;
        }
        let d = g.decision();
        if !mid_move(d.kind) {
            return;
        }
        // A sub-decision that can be closed (Trade) is closed; otherwise
        // the first, plain option is taken.
        let Some(o) = d.options.iter().find(|o| o.id.starts_with("end_")).or_else(|| d.options.first()) else {
            return;
        };
        let Some(&seat) = o.seats.first() else { return };
        if g.apply(seat, &o.id).is_err() {
            return;
        }
    }
}

/// Scores each option on `game` (already a determinization): apply,
/// finish the move, evaluate, add the prior. Refused options score -inf.
pub fn score_on(game: &Game, seat: Seat, options: &[&ChoiceOption], out: &mut [f64]) {
    for (o, slot) in options.iter().zip(out.iter_mut()) {
        let mut g = game.clone();
        *slot += match g.apply(seat, &o.id) {
            Ok(_) => {
                complete_move(&mut g);
                evaluate(g.public()) + prior(game, o)
            }
            Err(_) => f64::NEG_INFINITY,
        };
    }
}

/// Options carried to the second step of the look-ahead.
const BEAM: usize = 5;

/// Like [`score_on`], then for the `BEAM` best options that leave the same
/// seat choosing its next Action, also tries each follow-up Action and
/// keeps the better of stopping there or going on: a jump that only pays
/// with the probe after it, or the invitation before an assault, is seen.
pub fn score_on_deep(game: &Game, seat: Seat, options: &[&ChoiceOption], out: &mut [f64]) {
    let mut first = vec![0.0; options.len()];
    let mut after: Vec<Option<Game>> = Vec::with_capacity(options.len());
    for (o, slot) in options.iter().zip(first.iter_mut()) {
        let mut g = game.clone();
        match g.apply(seat, &o.id) {
            Ok(_) => {
                complete_move(&mut g);
                *slot = evaluate(g.public()) + prior(game, o);
                after.push(Some(g));
            }
            Err(_) => {
                *slot = f64::NEG_INFINITY;
                after.push(None);
            }
        }
    }
    let mut order: Vec<usize> = (0..options.len()).collect();
    order.sort_by(|&a, &b| first[b].total_cmp(&first[a]));
    for &i in order.iter().take(BEAM) {
        let Some(g) = &after[i] else { continue };
        if g.outcome().is_some() {
            continue;
        }
        let d = g.decision();
        if d.kind != DecisionKind::Action || !d.deciders.contains(&seat) {
            continue;
        }
        let next: Vec<&ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&seat)).collect();
        let mut best = f64::NEG_INFINITY;
        for o2 in next.iter().filter(|o2| !matches!(o2.choice, Choice::EndTurn)) {
            let mut g2 = g.clone();
            if g2.apply(seat, &o2.id).is_ok() {
                complete_move(&mut g2);
                best = best.max(evaluate(g2.public()) + prior(g, o2));
            }
        }
        // The option's own prior still counts on the way.
        let pre = prior(game, options[i]);
        first[i] = first[i].max(best + pre);
    }
    for (slot, v) in out.iter_mut().zip(first) {
        *slot += v;
    }
}

/// The best option for `seat` on a determinized `game`, ties broken by
/// `rng`. Used for playouts by the search.
pub fn greedy_pick(game: &Game, seat: Seat, options: &[&ChoiceOption], rng: &mut Rng) -> usize {
    let mut scores = vec![0.0; options.len()];
    score_on(game, seat, options, &mut scores);
    argmax(&scores, rng)
}

/// Index of the largest score, ties broken at random.
pub fn argmax(scores: &[f64], rng: &mut Rng) -> usize {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] >= best - 1e-9).collect();
    ties.get(rng.below(ties.len())).copied().unwrap_or(0)
}

impl Policy for HeuristicPolicy {
    fn choose(&mut self, view: &View, seat: Seat, _budget: &Budget) -> Option<String> {
        let mut opts = options_for(view, seat);
        if opts.len() > 1 {
            opts.retain(|o| !self.guard.banned(view.round, &o.id));
        }
        let opts = if opts.is_empty() { options_for(view, seat) } else { opts };
        match opts.len() {
            0 => return None,
            1 => {
                self.guard.record(view.round, &opts[0].id);
                return Some(opts[0].id.clone());
            }
            _ => {}
        }
        let mut scores = vec![0.0; opts.len()];
        for _ in 0..SAMPLES {
            let game = Game::from_view(view, mix(&[self.rng.next_u64()]));
            score_on_deep(&game, seat, &opts, &mut scores);
        }
        let i = argmax(&scores, &mut self.rng);
        if tracing::enabled!(tracing::Level::TRACE) {
            let mut ranked: Vec<(f64, &str)> =
                scores.iter().map(|s| s / SAMPLES as f64).zip(opts.iter().map(|o| o.id.as_str())).collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            tracing::trace!(?ranked, "heuristic scores");
        }
        self.guard.record(view.round, &opts[i].id);
        Some(opts[i].id.clone())
    }

    fn name(&self) -> &'static str {
        "heuristic"
    }
}
