//! The `heuristic` policy: hand-written play of X-ODUS's goals, expressed
//! as a one-step look-ahead. Each option the seat may take is applied on a
//! few determinizations of the seat's view (so dice and hidden draws are
//! sampled, never read from the true game), the resulting states are
//! scored by [`crate::games::xodus::eval::evaluate`], and small priors encode advice the
//! evaluation cannot see in one step (don't strain when weak, disengage
//! when about to die, prefer finishing a Rush). Generic over options: a
//! new kind of choice is scored by its effect on the state.

use super::guard::LoopGuard;
use super::pickable::Pickable;
use super::{Policy, options_for};
use crate::budget::Budget;
use crate::games::xodus::eval::{STRAIN_OWED, SignalMix, evaluate, evaluate_game, fight_hopeless};
use crate::games::xodus::skill;
use crate::games::xodus::tune;
use crate::rng::{Rng, mix};
use xodus_engine::content::{Challenge, Content};
use xodus_engine::{AvatarPlace, Choice, ChoiceOption, DecisionKind, Game, Hex, Move, Pending, Public, Seat, View};

/// Determinizations sampled per decision.
const SAMPLES: usize = 4;

/// Determinizations per decision, unless a sweep overrides it.
fn samples() -> usize {
    crate::games::xodus::tune::weight("samples", SAMPLES as f64).round().max(1.0) as usize
}

/// One-step look-ahead with priors.
pub struct HeuristicPolicy {
    rng: Rng,
    guard: LoopGuard,
    plan: Option<Plan>,
}

/// A follow-up Action the policy committed to when it chose a step that
/// only pays with it (straining, a jump) and reveals nothing new: taken
/// next without re-deciding, so fresh samples cannot turn the plan into
/// a strain paid for nothing or a jump back.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    pub(crate) round: u32,
    pub(crate) seat: Seat,
    pub(crate) id: String,
}

impl Plan {
    /// The planned option, if this plan is for `seat` now and still offered.
    pub(crate) fn due(&self, view: &View, seat: Seat, opts: &[&ChoiceOption]) -> Option<usize> {
        if self.round != view.round || self.seat != seat {
            return None;
        }
        opts.iter().position(|o| o.id == self.id)
    }
}

/// Whether a step reveals nothing, so its follow-up plan stays sound.
pub(crate) fn commits_plan(choice: &Choice) -> bool {
    matches!(choice, Choice::Strain { .. } | Choice::Jump { .. })
}

impl HeuristicPolicy {
    /// A heuristic policy; the seed drives its determinizations.
    pub fn new(seed: u64) -> HeuristicPolicy {
        HeuristicPolicy { rng: Rng::new(seed), guard: LoopGuard::default(), plan: None }
    }
}

/// Advice the one-step evaluation cannot see, by the shape of the choice.
pub fn prior<O: Pickable + ?Sized>(game: &Game, option: &O) -> f64 {
    let pb = game.public();
    match option.choice() {
        // The Damage Roll comes at the end of the turn, out of sight of a
        // one-step look-ahead: only strain with health to spare.
        // An extra Action is worth as much at the end of the turn as at its
        // start, and only then is it known to be needed: straining with
        // Actions still in hand risks paying the roll for nothing.
        Choice::Strain { seat } => {
            let ship = pb.ships.get(usize::from(*seat));
            let h = ship.map(|s| s.health).unwrap_or(0);
            let early = ship.is_some_and(|s| s.actions_left > 0);
            -0.3 - 0.35 * f64::from(6u8.saturating_sub(h)) - if early { STRAIN_EARLY } else { 0.0 }
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
        Choice::Invite { seat } => {
            let hex = pb.active.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            let helps_trial = || skill::plan_on() && skill::joining_helps(pb, &pb.active, *seat) == Some(true);
            if hex.is_some_and(|h| guardian_ahead(pb, h)) || helps_trial() {
                gather()
            } else if hex.is_some_and(|h| trial_ahead(pb, h)) {
                tune::weight("trial_gather", 0.4)
            } else if hex.is_some_and(|h| fight_ahead(pb, h) || group_work_ahead(pb, h)) {
                0.4
            } else {
                -0.5
            }
        }
        Choice::Accept => {
            let joiner = option.seats().first().copied();
            let hex = joiner.and_then(|s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            let helps_trial =
                || skill::plan_on() && joiner.is_some_and(|j| skill::joining_helps(pb, &pb.active, j) == Some(true));
            if hex.is_some_and(|h| guardian_ahead(pb, h)) || helps_trial() {
                gather()
            } else if hex.is_some_and(|h| trial_ahead(pb, h)) {
                tune::weight("trial_gather", 0.6)
            } else if hex.is_some_and(|h| fight_ahead(pb, h) || group_work_ahead(pb, h)) {
                0.6
            } else {
                0.0
            }
        }
        // A trial the group's dice cannot pass is never rolled (the roll
        // only costs; a lone Explorer rolled for three specials five times
        // in a traced Hardened game).
        Choice::Instruction if skill::guard_on() && skill::cannot_pass(pb, &pb.active) => {
            -tune::weight("hopeless", HOPELESS)
        }
        // The trial plan (off by default): a Skill Roll Signal is tried only
        // by a group whose dice can pass it, after inviting the free ships in
        // its system when they would at least double its odds.
        Choice::Instruction if skill::plan_on() && skill::attempt_prior(pb, &pb.active, 0.0, 0.0).is_some() => {
            skill::attempt_prior(pb, &pb.active, tune::weight("hopeless", HOPELESS), gather()).unwrap_or(0.0)
        }
        Choice::Instruction => {
            let fleet = pb.active.len();
            let hex = pb.active.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
            if hex.is_some_and(|h| guardian_ahead(pb, h)) {
                if fleet >= 2 { gather() } else { -gather() }
            } else if fleet == 1 && hex.is_some_and(|h| trial_ahead(pb, h)) {
                // A lone try at a Skill Roll Signal (experiment, off by
                // default: `XODUS_AI_TUNE=lone_trial=1`).
                -tune::weight("lone_trial", 0.0)
            } else {
                0.0
            }
        }
        // A hopeless fight is left, not fought on: its value already
        // assumes the group can give ground later at today's price, so
        // each further attack looked free while it cost hull (a lone ship
        // attacked a 12-health Avatar behind 2 shields seven times, then
        // hid with 1 health left and was destroyed, seed 1051).
        Choice::Attack { .. } if fight_hopeless(pb) => -tune::weight("hopeless", HOPELESS),
        // A move that gains nothing should lose to ending the turn.
        Choice::Jump { .. } | Choice::Rush | Choice::BlindJump { .. } => -0.02,
        _ => 0.0,
    }
}

/// Whether `hex` holds the marker of a revealed, unsolved Signal whose
/// challenge (and progress on it) passes `test`.
fn open_signal_here(pb: &Public, hex: Hex, test: impl Fn(&Challenge, u8) -> bool) -> bool {
    let c = Content::get();
    pb.tiles.iter().filter(|t| t.hex == hex).filter_map(|t| t.key_marker).any(|k| {
        pb.signals.iter().any(|s| {
            s.key == k
                && !s.solved
                && s.card.and_then(|i| c.signals.get(usize::from(i))).is_some_and(|d| test(&d.challenge, s.progress))
        })
    })
}

/// Whether a revealed Signal in `hex` wants several ships at once: a
/// trial asking for more specials than two dice can show, or repairs with
/// more than one marker left (each ship of the group removes one).
pub fn group_work_ahead(pb: &Public, hex: Hex) -> bool {
    open_signal_here(pb, hex, |challenge, progress| match challenge {
        Challenge::Trial { amount, .. } => *amount >= 2,
        Challenge::Repairs { amount } => amount.saturating_sub(progress) >= 2,
        _ => false,
    })
}

/// Penalty for attacking on in a fight the evaluation calls hopeless.
const HOPELESS: f64 = 5.0;

/// Penalty for straining while Actions are still in hand.
const STRAIN_EARLY: f64 = 5.0;

/// Bonus for gathering a fleet at a guardian (and assaulting it together).
const GATHER: f64 = 3.0;

fn gather() -> f64 {
    crate::games::xodus::tune::weight("gather", GATHER)
}

/// Whether a revealed Signal in `hex` is a Skill Roll asking for more
/// specials than one ship's two dice show with fair odds.
pub fn trial_ahead(pb: &Public, hex: Hex) -> bool {
    open_signal_here(pb, hex, |challenge, _| matches!(challenge, Challenge::Trial { amount, .. } if *amount >= 2))
}

/// Whether a revealed guardian Signal waits in `hex`.
pub fn guardian_ahead(pb: &Public, hex: Hex) -> bool {
    open_signal_here(pb, hex, |challenge, _| matches!(challenge, Challenge::Guardian { .. }))
}

/// Whether a fight is to be had in `hex`: Enemies or an Avatar there, or
/// a revealed guardian Signal still to be assaulted.
pub fn fight_ahead(pb: &Public, hex: Hex) -> bool {
    let enemies = pb.board_enemies.iter().any(|e| e.hex == hex);
    let avatar = pb.avatars.iter().any(|a| a.place == (AvatarPlace::Board { hex }));
    enemies || avatar || guardian_ahead(pb, hex)
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
    complete_move_within(g, u32::MAX);
}

/// [`complete_move`], stopping as soon as the round reaches `round_limit`
/// (so that a playout cut at a round's end stops at the same point of the
/// timeline whatever move led there).
pub fn complete_move_within(g: &mut Game, round_limit: u32) {
    for _ in 0..CONTINUATION {
        if g.outcome().is_some() || g.public().round >= round_limit {
            return;
        }
        // The pending step says when the move is over; listing its options
        // (every Action of the group) would only be thrown away.
        if matches!(g.public().pending, Pending::Action | Pending::NextPlayer | Pending::CombatCommand | Pending::Over)
        {
            return;
        }
        let legal = g.legal();
        if !mid_move(legal.kind) {
            return;
        }
        if legal.kind == DecisionKind::RushStep && tune::weight("rush_best", 1.0) > 0.0 {
            if !finish_rush(g) {
                return;
            }
            continue;
        }
        if legal.kind == DecisionKind::Orientation && tune::weight("orient_best", 0.0) > 0.0 {
            if !best_single(g, &legal.moves) {
                return;
            }
            continue;
        }
        // A sub-decision that can be closed (Trade) is closed; otherwise
        // the first, plain option is taken.
        let closes = |m: &&Move| matches!(m.choice, Choice::EndTurn | Choice::EndTrade);
        let Some(m) = legal.moves.iter().find(closes).or_else(|| legal.moves.first()) else {
            return;
        };
        let Some(seat) = m.seats.first() else { return };
        if !m.play(g, seat) {
            return;
        }
    }
}

/// Finishes a Hyperspace Rush in progress along its best path: every
/// system the remaining jumps can end in is tried once (paths to the same
/// system after the same number of jumps leave the same state, since a
/// Rush enters nothing on the way) and the one the evaluation prefers is
/// played. Taking the first listed jump each time, as other sub-choices
/// do, would rush in an arbitrary direction and make a Rush (three jumps
/// for two Actions, past Enemy systems without Detection Rolls, p. 7)
/// look worse than a plain jump. The end is scored before its Detection
/// Roll, so the choice cannot lean on a sample's dice. Returns false if
/// no step could be applied.
fn finish_rush(g: &mut Game) -> bool {
    let mut frontier: Vec<(Game, Vec<(Seat, Choice)>)> = vec![(g.clone(), Vec::new())];
    for _ in 0..3 {
        let mut next: Vec<(Game, Vec<(Seat, Choice)>)> = Vec::new();
        let mut seen: Vec<Choice> = Vec::new();
        for (x, path) in frontier {
            let legal = x.legal();
            if legal.kind != DecisionKind::RushStep {
                next.push((x, path));
                continue;
            }
            for m in &legal.moves {
                let Some(seat) = m.seats.first() else { continue };
                if seen.contains(&m.choice) {
                    continue;
                }
                seen.push(m.choice.clone());
                let mut y = x.clone();
                if m.play(&mut y, seat) {
                    let mut p = path.clone();
                    p.push((seat, m.choice.clone()));
                    next.push((y, p));
                }
            }
        }
        frontier = next;
    }
    let best = frontier
        .into_iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(x, p)| (evaluate_game(&x), p))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let Some((_, path)) = best else { return false };
    path.iter().all(|(seat, choice)| g.apply_move(*seat, choice).is_ok())
}

/// Applies the option of a one-step sub-choice the evaluation prefers.
fn best_single(g: &mut Game, options: &[Move]) -> bool {
    let best = options
        .iter()
        .filter_map(|o| {
            let seat = o.seats.first()?;
            let mut x = g.clone();
            o.play(&mut x, seat).then_some(())?;
            Some((evaluate_game(&x), x))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, x)) => {
            *g = x;
            true
        }
        None => false,
    }
}

/// Scores each option on `game` (already a determinization): apply,
/// finish the move, evaluate, add the prior. Refused options score -inf.
pub fn score_on<O: Pickable>(game: &Game, seat: Seat, options: &[&O], out: &mut [f64]) {
    for (o, slot) in options.iter().zip(out.iter_mut()) {
        let mut g = game.clone();
        *slot += if o.play(&mut g, seat) {
            complete_move(&mut g);
            value_after(game, &g, *o) + prior(game, *o)
        } else {
            f64::NEG_INFINITY
        };
    }
}

/// The value of the state `option` leaves, as the look-ahead scores it.
/// An end of turn that closes the round makes the engine run the
/// Corruption and End phases at once (p. 17-18), so its state would be
/// scored after one sampled roll of the Avatar die and with every
/// captain's Actions refilled, while every other option of the same
/// decision is scored before those phases. The two do not compare: the
/// last captain of a round ended turns with three Actions unused because
/// a refilled round scored better than a Scavenge (seed 5005, round 12).
/// Such an end of turn is scored on the state it leaves just before those
/// phases (the group done, its Actions gone, a strain's Damage Roll still
/// owed), unless it won the game. `XODUS_AI_TUNE=end_settle=0` turns this
/// off.
pub fn value_after<O: Pickable + ?Sized>(before: &Game, after: &Game, option: &O) -> f64 {
    let (b, a) = (before.public(), after.public());
    let mix = SignalMix::of(before.config().difficulty);
    let closes_round = a.round != b.round || a.outcome.as_ref().is_some_and(|o| !o.won);
    if !matches!(option.choice(), Choice::EndTurn) || !closes_round || tune::weight("end_settle", 1.0) <= 0.0 {
        return evaluate(a, mix);
    }
    let mut done = b.clone();
    let mut owed = 0.0;
    for &s in &b.active {
        if let Some(ship) = done.ships.get_mut(usize::from(s)) {
            if ship.strained && !ship.played {
                owed += STRAIN_OWED;
            }
            ship.played = true;
            ship.actions_left = 0;
        }
    }
    evaluate(&done, mix) - owed
}

/// Options carried to the second step of the look-ahead.
const BEAM: usize = 5;

/// Scores `options` over several determinizations of the same view: each
/// option's value is its evaluation averaged over the samples, and for
/// the `BEAM` best options that leave the same seat choosing its next
/// Action, also the best follow-up Action (a jump that only pays with the
/// probe after it, the invitation before an assault). The follow-up is
/// chosen by its value *averaged over the samples*, never per sample: a
/// sample has already drawn the next tile, card and dice, and taking the
/// best follow-up in each one would credit a move with luck the captain
/// cannot count on (straining "to explore" because one sample's card was
/// good, then ending the turn). Also returns, for each option, the
/// follow-up Action that earned its score when the score came from the
/// two-step line.
pub fn score_deep_with_plans(games: &[Game], seat: Seat, options: &[&ChoiceOption]) -> (Vec<f64>, Vec<Option<String>>) {
    let n = games.len().max(1) as f64;
    let mut plans: Vec<Option<String>> = vec![None; options.len()];
    let mut first = vec![0.0; options.len()];
    let mut after: Vec<Vec<Option<Game>>> = vec![Vec::with_capacity(games.len()); options.len()];
    for game in games {
        for (i, o) in options.iter().enumerate() {
            let mut g = game.clone();
            match g.apply(seat, &o.id) {
                Ok(_) => {
                    complete_move(&mut g);
                    first[i] += (value_after(game, &g, o) + prior(game, o)) / n;
                    after[i].push(Some(g));
                }
                Err(_) => {
                    first[i] = f64::NEG_INFINITY;
                    after[i].push(None);
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..options.len()).collect();
    order.sort_by(|&a, &b| first[b].total_cmp(&first[a]));
    for &i in order.iter().take(BEAM) {
        // Follow-ups by option id: the sum of their values, and the sum of
        // the stopping values of the samples where they are not open.
        let samples: Vec<&Game> = after[i].iter().flatten().collect();
        let stops: Vec<f64> = samples.iter().map(|g| evaluate_game(g)).collect();
        let stop_total: f64 = stops.iter().sum();
        let mut follow: Vec<(String, f64, f64)> = Vec::new();
        for (j, g) in samples.iter().enumerate() {
            if g.outcome().is_some() {
                continue;
            }
            let d = g.decision();
            if d.kind != DecisionKind::Action || !d.deciders.contains(&seat) {
                continue;
            }
            for o2 in d.options.iter().filter(|o2| o2.seats.contains(&seat) && !matches!(o2.choice, Choice::EndTurn)) {
                let mut g2: Game = (*g).clone();
                if g2.apply(seat, &o2.id).is_ok() {
                    complete_move(&mut g2);
                    let v = evaluate_game(&g2) + prior(g, o2);
                    match follow.iter_mut().find(|f| f.0 == o2.id) {
                        Some(f) => {
                            f.1 += v;
                            f.2 += stops[j];
                        }
                        None => follow.push((o2.id.clone(), v, stops[j])),
                    }
                }
            }
        }
        // A follow-up is one plan for every sample (where it is not open,
        // that sample stops); its value is the mean over all samples.
        let m = samples.len().max(1) as f64;
        let best = follow
            .iter()
            .map(|f| ((f.1 + stop_total - f.2) / m, &f.0))
            .fold((f64::NEG_INFINITY, None), |acc, (v, id)| if v > acc.0 { (v, Some(id)) } else { acc });
        // The option's own prior still counts on the way.
        let pre = prior(&games[0], options[i]);
        if best.0 + pre > first[i] {
            first[i] = best.0 + pre;
            plans[i] = best.1.cloned();
        }
    }
    (first, plans)
}

/// Straining pays only through the Action it buys: a strain that scores
/// well without a follow-up is an artefact of the evaluation (a captain
/// still "to play" looks safer from Avatars) and would end in a wasted
/// Damage Roll, so it is dropped.
pub(crate) fn drop_idle_strains(opts: &[&ChoiceOption], plans: &[Option<String>], scores: &mut [f64]) {
    for ((o, plan), score) in opts.iter().zip(plans).zip(scores.iter_mut()) {
        if matches!(o.choice, Choice::Strain { .. }) && plan.is_none() {
            *score = f64::NEG_INFINITY;
        }
    }
}

/// The best option for `seat` on a determinized `game`, ties broken by
/// `rng`. Used for playouts by the search.
pub fn greedy_pick<O: Pickable>(game: &Game, seat: Seat, options: &[&O], rng: &mut Rng) -> usize {
    let mut scores = vec![0.0; options.len()];
    score_on(game, seat, options, &mut scores);
    argmax(&scores, rng)
}

/// Seed of the rush samples for a seat's decision: drawn from the view,
/// not from the policy's generator, so that scoring a seal leaves every
/// other decision's samples as they were.
pub(crate) fn seal_seed(view: &View, seat: Seat) -> u64 {
    mix(&[u64::from(view.round), u64::from(seat), 0x5ea1])
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
            opts.retain(|o| !self.guard.refuses(view, seat, &o.id));
        }
        let opts = if opts.is_empty() { options_for(view, seat) } else { opts };
        match opts.len() {
            0 => return None,
            1 => {
                self.guard.record_pick(view, seat, opts[0]);
                return Some(opts[0].id.clone());
            }
            _ => {}
        }
        if let Some(i) = self.plan.take().and_then(|p| p.due(view, seat, &opts)) {
            self.guard.record_pick(view, seat, opts[i]);
            return Some(opts[i].id.clone());
        }
        let games: Vec<Game> = (0..samples()).map(|_| Game::from_view(view, mix(&[self.rng.next_u64()]))).collect();
        let (mut scores, plans) = score_deep_with_plans(&games, seat, &opts);
        drop_idle_strains(&opts, &plans, &mut scores);
        super::endgame::rescore_seals(view, seat, &opts, &mut scores, seal_seed(view, seat));
        let i = argmax(&scores, &mut self.rng);
        if commits_plan(&opts[i].choice)
            && let Some(id) = plans[i].clone()
        {
            self.plan = Some(Plan { round: view.round, seat, id });
        }
        if tracing::enabled!(tracing::Level::TRACE) {
            let mut ranked: Vec<(f64, &str)> = scores.iter().copied().zip(opts.iter().map(|o| o.id.as_str())).collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
            tracing::trace!(?ranked, "heuristic scores");
            // Why: the evaluation's terms after the best options and after
            // ending the turn, on the first sample (one step, no follow-up).
            let mut shown: Vec<&ChoiceOption> =
                ranked.iter().take(3).filter_map(|(_, id)| opts.iter().copied().find(|o| o.id == *id)).collect();
            shown.extend(opts.iter().copied().filter(|o| o.choice == Choice::EndTurn));
            for o in shown {
                let mut g = games[0].clone();
                if g.apply(seat, &o.id).is_ok() {
                    complete_move(&mut g);
                    let terms: Vec<String> = crate::games::xodus::eval::terms(
                        g.public(),
                        crate::games::xodus::eval::SignalMix::of(g.config().difficulty),
                    )
                    .iter()
                    .map(|(n, v)| format!("{n} {v:.2}"))
                    .collect();
                    tracing::trace!(option = %o.id, terms = %terms.join(", "), "heuristic terms");
                }
            }
        }
        self.guard.record_pick(view, seat, opts[i]);
        Some(opts[i].id.clone())
    }

    fn name(&self) -> &'static str {
        "heuristic"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, GameConfig, Viewer};

    /// Plays the first `rounds` rounds of a game with one heuristic policy
    /// per seat and returns every (seat, choice) taken.
    fn play(seed: u64, rounds: u32) -> Vec<(Seat, Choice)> {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
        let mut crew: Vec<HeuristicPolicy> = (0..4).map(|s| HeuristicPolicy::new(seed * 10 + s)).collect();
        let mut taken = Vec::new();
        while g.outcome().is_none() && g.view(Viewer::Spectator).round <= rounds {
            let seat = g.decision().deciders[0];
            let view = g.view(Viewer::Seat(seat));
            let id = crew[usize::from(seat)].choose(&view, seat, &Budget::default()).expect("a decision");
            let choice = options_for(&view, seat).iter().find(|o| o.id == id).expect("offered").choice.clone();
            g.apply(seat, &id).expect("legal");
            taken.push((seat, choice));
        }
        taken
    }

    #[test]
    fn a_strain_is_followed_by_the_action_it_was_for_never_by_an_idle_end_of_turn() {
        // Rulebook p. 7 (Strain): +1 Action for a Damage Roll at the end of
        // the turn. Before the look-ahead averaged its follow-ups, about a
        // strain in four was followed by ending the turn (20 games traced).
        let mut strains = 0;
        for seed in [3, 8] {
            let taken = play(seed, 5);
            for pair in taken.windows(2) {
                if let [(s1, Choice::Strain { .. }), (s2, next)] = pair {
                    strains += 1;
                    assert!(
                        !(s1 == s2 && matches!(next, Choice::EndTurn)),
                        "seed {seed}: captain {s1} strained, then ended the turn"
                    );
                }
            }
        }
        assert!(strains > 0, "no strain met: the test saw nothing");
    }

    /// Every way to finish the Rush in progress, by brute force (no
    /// merging of paths): the evaluation where each one ends.
    fn all_rush_ends(g: &Game, out: &mut Vec<f64>) {
        let d = g.decision();
        if d.kind != DecisionKind::RushStep {
            out.push(evaluate_game(g));
            return;
        }
        for o in &d.options {
            let mut x = g.clone();
            if x.apply(o.seats[0], &o.id).is_ok() {
                all_rush_ends(&x, out);
            }
        }
    }

    #[test]
    fn a_rush_is_scored_along_its_best_path_not_the_first_listed() {
        // Rulebook p. 7 (Hyperspace Rush: three jumps for two Actions, no
        // Detection Rolls on the way; FAQ: exactly three jumps). The default
        // continuation used to take the first listed jump each time, so a
        // Rush was scored as a trip in an arbitrary direction and the crew
        // never rushed (0 Rushes in 4 traced games).
        let mut rng = Rng::new(7);
        let mut checked = 0;
        let mut first_was_worse = 0;
        'seeds: for seed in 1..40u64 {
            let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
            for _ in 0..400 {
                if g.outcome().is_some() {
                    break;
                }
                let d = g.decision();
                let Some(&seat) = d.deciders.first() else { break };
                if d.kind == DecisionKind::Action && d.options.iter().any(|o| o.id == "rush") {
                    let mut rushing = g.clone();
                    rushing.apply(seat, "rush").expect("rush offered");
                    let mut ends = Vec::new();
                    all_rush_ends(&rushing, &mut ends);
                    let best = ends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let mut finished = rushing.clone();
                    assert!(finish_rush(&mut finished), "seed {seed}: the Rush could not be finished");
                    assert_ne!(finished.decision().kind, DecisionKind::RushStep, "three jumps made");
                    assert!((evaluate_game(&finished) - best).abs() < 1e-9, "seed {seed}: not the best end");
                    let mut first = rushing.clone();
                    while first.decision().kind == DecisionKind::RushStep {
                        let o = first.decision().options[0].clone();
                        first.apply(o.seats[0], &o.id).expect("listed");
                    }
                    if evaluate_game(&first) < best - 1e-9 {
                        first_was_worse += 1;
                    }
                    checked += 1;
                    if checked >= 12 {
                        break 'seeds;
                    }
                }
                let i = rng.below(d.options.len());
                let o = d.options[i].clone();
                if g.apply(o.seats[0], &o.id).is_err() {
                    break;
                }
            }
        }
        assert!(checked >= 5, "only {checked} Rushes met: the test saw too little");
        assert!(first_was_worse > 0, "the first listed path was never worse: the test shows nothing");
    }

    #[test]
    fn an_end_of_turn_that_closes_the_round_is_scored_before_the_corruption_phase() {
        // Rulebook p. 6 and p. 17: the round's last turn ends, then the
        // Corruption phase runs. The look-ahead scores every other option
        // before that phase, so ending the last turn must be scored there
        // too: the captain's Actions thrown away, nothing refilled yet.
        // Scored on the state the engine returns (after the phase: one
        // sampled Avatar move, every captain's Actions refilled), it did not
        // compare with the other options, and the last captain of a round
        // ended turns with Actions unused.
        let (mut checked, mut differs) = (0, 0);
        // Seed 5005 is the traced game where the last captain of round 12
        // ended its turn with three Actions unused.
        for seed in [5005u64] {
            let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
            let mut crew: Vec<HeuristicPolicy> = (0..4).map(|s| HeuristicPolicy::new(mix(&[seed, s, 0xa1]))).collect();
            while g.outcome().is_none() {
                let d = g.decision();
                let seat = d.deciders[0];
                let last = g.public().ships.iter().filter(|s| !s.defeated && !s.played).count() == 1;
                let left = g.public().ships[usize::from(seat)].actions_left;
                let end = d.options.iter().find(|o| matches!(o.choice, Choice::EndTurn));
                if let (DecisionKind::Action, true, Some(end)) = (d.kind, last && left > 0, end) {
                    let mut after = g.clone();
                    after.apply(seat, &end.id).expect("end the turn");
                    let idle = evaluate_game(&g) - 0.5 * f64::from(left);
                    let scored = value_after(&g, &after, end);
                    assert!(scored <= idle + 1e-9, "seed {seed}: {left} Actions thrown away scored {scored} > {idle}");
                    differs += usize::from((evaluate_game(&after) - scored).abs() > 1e-6);
                    checked += 1;
                }
                let view = g.view(Viewer::Seat(seat));
                let id = crew[usize::from(seat)].choose(&view, seat, &Budget::default()).expect("a decision");
                g.apply(seat, &id).expect("legal");
            }
        }
        assert!(checked >= 10, "only {checked} round-closing ends of turn met");
        assert!(differs > 0, "the state after the phase never scored differently: the test shows nothing");
    }

    #[test]
    fn the_pending_steps_that_end_a_move_are_the_decisions_that_do() {
        // complete_move_within stops on these pending steps without listing
        // their options: each must be a decision `mid_move` says ends a move.
        let mut met = 0;
        for seed in 0..4 {
            let mut g = Game::new(GameConfig::random(seed, 3, Difficulty::Casual)).expect("game");
            for step in 0..400usize {
                let legal = g.legal();
                let ends = matches!(
                    g.public().pending,
                    Pending::Action | Pending::NextPlayer | Pending::CombatCommand | Pending::Over
                );
                if ends {
                    assert!(!mid_move(legal.kind), "seed {seed}, step {step}: {:?}", legal.kind);
                    met += 1;
                }
                let Some(m) = legal.moves.get((step * 5 + seed as usize) % legal.moves.len().max(1)) else { break };
                let Some(seat) = m.seats.first() else { break };
                assert!(m.play(&mut g, seat), "a listed move plays");
            }
        }
        assert!(met > 100, "only {met} move-ending steps met");
    }

    #[test]
    fn a_trial_the_group_cannot_pass_is_never_rolled() {
        // Rulebook p. 11 (a Skill Roll: both dice of each ship of the
        // group) and our Collapsing Star (3 specials; each ship loses 1
        // health on a failure). A lone ship's two dice never show three
        // specials, so its try only costs; with a second ship it can pass.
        let c = xodus_engine::content::Content::get();
        let g = Game::new(GameConfig::random(16, 3, Difficulty::Hardened)).expect("game");
        let mut view = g.view(Viewer::Spectator);
        let hex = view.public.ships[0].hex;
        let card = c.signals.iter().position(|s| s.id == "collapsing_star").expect("the card") as u8;
        let key = view.public.signals[0].key;
        view.public.signals[0].card = Some(card);
        if let Some(t) = view.public.tiles.iter_mut().find(|t| t.hex == hex) {
            t.key_marker = Some(key);
        }
        let roll = ChoiceOption {
            id: "instruction".into(),
            seats: vec![0],
            label: String::new(),
            choice: Choice::Instruction,
        };
        let mut alone = view.clone();
        alone.public.active = vec![0];
        assert!(prior(&Game::from_view(&alone, 1), &roll) <= -HOPELESS + 1e-9, "a lone ship never rolls it");
        let mut pair = view;
        pair.public.active = vec![0, 1];
        assert!(prior(&Game::from_view(&pair, 1), &roll) > -HOPELESS + 1e-9, "a pair may");
    }

    /// A game whose public state is `start`'s, with captain 0 alone in a
    /// fight against Avatar card `card` in its own system.
    fn lone_ship_against_an_avatar(card: u8, damage: u8) -> Game {
        let g = Game::new(GameConfig::random(16, 4, Difficulty::Casual)).expect("game");
        let mut view = g.view(Viewer::Spectator);
        let hex = view.public.ships[0].hex;
        view.public.avatars.push(xodus_engine::Avatar { card, place: AvatarPlace::Board { hex }, damage });
        view.public.fight = Some(crate::games::xodus::eval::tests::lone_fight(hex));
        Game::from_view(&view, 1)
    }

    fn attack_avatar(i: u8) -> ChoiceOption {
        ChoiceOption {
            id: format!("attack:avatar:{i}"),
            seats: vec![0],
            label: String::new(),
            choice: Choice::Attack { target: xodus_engine::Target::Avatar(i) },
        }
    }

    #[test]
    fn a_hopeless_fight_is_left_not_fought_on() {
        // Rulebook p. 14 (Disengaging: "when a situation becomes desperate")
        // and p. 16 (an Avatar has more health and shields than any Enemy).
        // A lone ship against a fresh Avatar cannot wear it down; before
        // this prior, each attack looked free (leaving later was priced as
        // leaving now) and a ship attacked seven times, then hid with 1
        // health and was destroyed (seed 1051).
        let c = xodus_engine::content::Content::get();
        let strongest =
            (0..c.avatars.len()).max_by_key(|&i| (c.avatars[i].shields, c.avatars[i].health)).expect("avatars");
        let fresh = lone_ship_against_an_avatar(strongest as u8, 0);
        let i = (fresh.public().avatars.len() - 1) as u8;
        assert!(crate::games::xodus::eval::fight_hopeless(fresh.public()), "a lone ship against a fresh Avatar");
        assert!(prior(&fresh, &attack_avatar(i)) <= -HOPELESS + 1e-9);
        // One hit from its end, the same Avatar is worth one more attack.
        let nearly = lone_ship_against_an_avatar(strongest as u8, c.avatars[strongest].health - 1);
        assert!(!crate::games::xodus::eval::fight_hopeless(nearly.public()));
        assert_eq!(prior(&nearly, &attack_avatar(i)), 0.0);
    }

    #[test]
    fn scores_are_means_over_the_samples_not_sums() {
        // Four copies of one sample score exactly like that sample: values
        // and follow-ups are means, so more samples never inflate a line.
        let mut g = Game::new(GameConfig::random(11, 4, Difficulty::Casual)).expect("game");
        let seat = g.decision().deciders[0];
        let start = g.decision().options[0].id.clone();
        g.apply(seat, &start).expect("start the turn");
        let seat = g.decision().deciders[0];
        let view = g.view(Viewer::Seat(seat));
        let opts = options_for(&view, seat);
        let one = vec![Game::from_view(&view, 5)];
        let four = vec![one[0].clone(), one[0].clone(), one[0].clone(), one[0].clone()];
        let (a, _) = score_deep_with_plans(&one, seat, &opts);
        let (b, _) = score_deep_with_plans(&four, seat, &opts);
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 1e-6, "{x} against {y}");
        }
    }
}
