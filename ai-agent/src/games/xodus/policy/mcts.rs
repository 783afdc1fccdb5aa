//! The `mcts` policy: determinized (information-set) Monte Carlo search
//! over the engine, from one seat's view.
//!
//! By default it is a paired search. Each sample is a full game consistent
//! with the view (`Game::from_view`: the hidden stack, decks, face-down
//! tokens and dice are guessed afresh, never read). On every sample the
//! heuristic's three best moves, and up to three marches (`march.rs`: this
//! turn spent heading for a Signal, or for the Main Rift with Keys), are
//! played on by heuristic playouts to the end of the next round and
//! scored by the evaluation (which prices face-down Signals from the
//! game's difficulty pool, `eval::SignalMix`), with the same playout dice
//! for all of them. Crew marches (every captain bound for one Signal that
//! wants a fleet, for two rounds) can be added behind `mcts_crew=N`.
//! The heuristic's favourite stands unless a candidate beats it on the
//! paired differences by a margin and a standard error; a winning march
//! is played by its first step.
//!
//! Behind `XODUS_AI_TUNE=mcts_paired=0` is the tree search it grew from:
//! UCB1 over option ids shared by all samples (edges count how often they
//! were available, as in ISMCTS), one expansion per iteration, short
//! heuristic playouts. The game is cooperative: every seat maximizes the
//! team's value. Both split their work over threads and are deterministic
//! for a seed and an iteration budget (the tree search also for a thread
//! count: each thread grows its own tree from its own seed).

use super::guard::LoopGuard;
use super::heuristic::{
    Plan, argmax, commits_plan, complete_move_within, drop_idle_strains, greedy_pick, mid_move, score_deep_with_plans,
    seal_seed,
};
use super::march::{March, crew_targets, keeps_to, targets};
use super::pickable::Pickable;
use super::{Policy, options_for};
use crate::budget::Budget;
use crate::games::xodus::eval::evaluate_game;
use crate::games::xodus::tune;
use crate::games::xodus::value::ValueModel;
use crate::rng::{Rng, mix};
use std::time::Instant;
use xodus_engine::{ChoiceOption, DecisionKind, Game, Seat, View, Viewer};

/// Playout length in policy decisions before the evaluation cuts it.
const PLAYOUT_DECISIONS: usize = 10;
/// Exploration constant of UCB1 (rewards are evaluations / 10).
const EXPLORATION: f64 = 0.6;
/// How much better (in evaluation / 10) a searched option must look to
/// override the heuristic's favourite.
const MARGIN: f64 = 0.08;
/// Root options kept for the search.
const ROOT_WIDTH: usize = 4;
/// Determinizations the root ranking averages over (as the heuristic does).
const ROOT_SAMPLES: u64 = 4;
/// Candidates the paired search plays out (the heuristic's best first).
const PAIRED_WIDTH: f64 = 3.0;
/// Standard errors of the paired mean difference a candidate must beat
/// the favourite by (besides `MARGIN`).
const PAIRED_Z: f64 = 1.0;
/// Round ends the paired search's playouts run to: the end of the next
/// round, so that a move's consequences past this round's Corruption
/// phase (an Avatar's hunt, a teammate who arrives next round) count.
const HORIZON: f64 = 2.0;
/// Crew marches compared per decision (the nearest Signals that want a
/// fleet). Off by default: at Heroic, 30 games with one crew march won as
/// often as without (2/30 both, rules revision 1), and each
/// candidate costs playouts.
const CREW_MARCHES: f64 = 0.0;
/// Iterations when the budget gives neither limit.
const DEFAULT_ITERATIONS: u32 = 64;

/// One option out of a node.
struct Edge {
    id: String,
    seat: Seat,
    visits: u32,
    available: u32,
    total: f64,
    total_sq: f64,
    child: Option<usize>,
}

/// A decision point of the tree (shared by all samples that reach it by
/// the same option ids).
#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

/// Root statistics of one option after search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat {
    /// Option id.
    pub id: String,
    /// Iterations through it.
    pub visits: u32,
    /// Sum of rewards.
    pub total: f64,
    /// Sum of squared rewards (for the spread of the mean).
    pub total_sq: f64,
}

/// Determinized MCTS.
pub struct MctsPolicy {
    rng: Rng,
    threads: usize,
    guard: LoopGuard,
    plan: Option<Plan>,
}

impl MctsPolicy {
    /// A single-threaded search policy seeded with `seed`.
    pub fn new(seed: u64) -> MctsPolicy {
        MctsPolicy { rng: Rng::new(seed), threads: 1, guard: LoopGuard::default(), plan: None }
    }

    /// Uses `threads` threads per decision (root parallelization).
    pub fn with_threads(mut self, threads: usize) -> MctsPolicy {
        self.threads = threads.max(1);
        self
    }
}

/// The options a search node offers: the root seat's own at the root,
/// every seat's deeper down (teammates are simulated too).
fn node_options(game_options: &[ChoiceOption], root_seat: Option<Seat>) -> Vec<&ChoiceOption> {
    game_options.iter().filter(|o| root_seat.is_none_or(|s| o.seats.contains(&s))).collect()
}

/// Plays on from `g` with the heuristic for `PLAYOUT_DECISIONS`
/// decisions, then evaluates (the tree search's playout).
fn playout(g: &mut Game, rng: &mut Rng) -> f64 {
    play_on(g, rng, u32::MAX, PLAYOUT_DECISIONS, None, None).unwrap_or_else(|| evaluate_game(g) / 10.0)
}

/// Plays on from `g` with the heuristic (one-step greedy for whichever
/// seat decides, sub-choices by the default continuation) until the game
/// ends, round `round_limit` begins or `max_decisions` fresh decisions
/// are taken, then evaluates. `None` if `deadline` passed first. With a
/// `march`, its captain's Actions in its round keep to it whenever some
/// option does.
fn play_on(
    g: &mut Game,
    rng: &mut Rng,
    round_limit: u32,
    max_decisions: usize,
    deadline: Option<Instant>,
    march: Option<&March>,
) -> Option<f64> {
    let mut decisions = 0;
    let fresh = tune::weight("playout_fresh", 0.0) > 0.0;
    // The engine's fast path: options as values, no labels or ids.
    while g.outcome().is_none() && g.public().round < round_limit && decisions < max_decisions {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let legal = g.legal();
        if mid_move(legal.kind) {
            let before = g.public().seq;
            complete_move_within(g, round_limit);
            if g.public().seq == before {
                break;
            }
            continue;
        }
        // The decider: the lowest seat any option names (the labelled
        // decision's first decider).
        let Some(seat) = legal.moves.iter().flat_map(|m| m.seats.as_slice().iter().copied()).min() else { break };
        let mut opts = options_for_decision(&legal.moves, seat);
        if let Some(m) = march.filter(|m| opts.len() > 1 && m.binds(g.public(), seat, g.public().round)) {
            let keep = keeps_to(g, seat, m.target, &opts);
            if keep.contains(&true) {
                opts = opts.into_iter().zip(keep).filter(|(_, k)| *k).map(|(o, _)| o).collect();
            }
        }
        if opts.is_empty() {
            break;
        }
        let i = if opts.len() == 1 { 0 } else { playout_pick(g, seat, &opts, rng, fresh) };
        let choice = opts[i].choice.clone();
        if g.apply_move(seat, &choice).is_err() {
            break;
        }
        decisions += 1;
    }
    Some(evaluate_game(g) / 10.0)
}

/// A playout's pick for `seat` among `opts`: the heuristic's one-step
/// greedy choice. With `fresh`, the options are scored on a new sample of
/// the decider's view, not on `g`: on `g` itself every option would meet
/// the dice and draws this playout is about to meet, so the pick would
/// take a Skill Roll or an attack only when it is bound to succeed, and
/// the playout would be as lucky as it likes.
fn playout_pick<O: Pickable>(g: &Game, seat: Seat, opts: &[&O], rng: &mut Rng, fresh: bool) -> usize {
    if fresh {
        let scoring = Game::from_view(&g.view(Viewer::Seat(seat)), rng.next_u64());
        greedy_pick(&scoring, seat, opts, rng)
    } else {
        greedy_pick(g, seat, opts, rng)
    }
}

fn options_for_decision<O: Pickable>(options: &[O], seat: Seat) -> Vec<&O> {
    options.iter().filter(|o| o.seats().contains(&seat)).collect()
}

/// The determinizations the root ranking and a march's first step are
/// scored on (the same ones, so a march's step is ranked as the
/// heuristic ranks the moves).
fn root_samples(view: &View, seed: u64) -> Vec<Game> {
    (0..ROOT_SAMPLES).map(|k| Game::from_view(view, mix(&[seed, 0x0007, k]))).collect()
}

/// The root candidates: the seat's options ranked by the heuristic's
/// one-step score on one determinization, best `ROOT_WIDTH` kept. A small
/// budget is spent on the moves worth comparing, not spread over all.
/// Each comes with the follow-up Action its score counted on, if any.
fn root_candidates(
    view: &View,
    seat: Seat,
    seed: u64,
    width: usize,
    banned: &dyn Fn(&str) -> bool,
) -> Vec<(String, Option<String>)> {
    let mut opts = options_for(view, seat);
    if opts.iter().any(|o| !banned(&o.id)) {
        opts.retain(|o| !banned(&o.id));
    }
    // Ranked like the heuristic policy ranks them: averaged over several
    // determinizations, so the search's default is the heuristic's pick.
    let games = root_samples(view, seed);
    let (mut scores, plans) = score_deep_with_plans(&games, seat, &opts);
    drop_idle_strains(&opts, &plans, &mut scores);
    super::endgame::rescore_seals(view, seat, &opts, &mut scores, seal_seed(view, seat));
    let mut ranked: Vec<(f64, &str, Option<String>)> =
        scores.into_iter().zip(opts.iter().map(|o| o.id.as_str())).zip(plans).map(|((s, id), p)| (s, id, p)).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Dropped options stay out unless nothing else is left.
    if ranked.iter().any(|r| r.0 > f64::NEG_INFINITY) {
        ranked.retain(|r| r.0 > f64::NEG_INFINITY);
    }
    ranked.into_iter().take(width).map(|(_, id, plan)| (id.to_string(), plan)).collect()
}

/// Grows one tree for `iterations` (or until `deadline`) and returns the
/// root statistics. Below the root the tree only grows along the
/// heuristic's pick in each sample (other options appear when samples
/// disagree), so the search refines the heuristic's line instead of
/// spending a small budget on random moves.
fn search(
    view: &View,
    seat: Seat,
    iterations: u32,
    deadline: Option<Instant>,
    seed: u64,
    roots: &[String],
) -> Vec<RootStat> {
    let mut rng = Rng::new(seed);
    let mut nodes: Vec<Node> = vec![Node::default()];
    for it in 0..iterations {
        if it > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut g = Game::from_view(view, mix(&[seed, u64::from(it)]));
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0usize;
        let mut depth = 0usize;
        let reward = loop {
            if g.outcome().is_some() {
                break evaluate_game(&g) / 10.0;
            }
            let d = g.decision();
            let mut opts = node_options(&d.options, (depth == 0).then_some(seat));
            if depth == 0 {
                opts.retain(|o| roots.contains(&o.id));
            } else if opts.len() > 1 && !mid_move(d.kind) {
                // Only the heuristic's pick for the seat that decides here.
                let decider = opts[0].seats.first().copied().unwrap_or(seat);
                let mine: Vec<&ChoiceOption> = opts.iter().copied().filter(|o| o.seats.contains(&decider)).collect();
                let i = greedy_pick(&g, decider, &mine, &mut rng);
                opts = vec![mine[i]];
            } else if mid_move(d.kind) {
                opts.truncate(1);
            }
            if opts.is_empty() {
                break evaluate_game(&g) / 10.0;
            }
            // Availability and expansion of the options legal in this sample.
            let mut legal = Vec::with_capacity(opts.len());
            for o in &opts {
                let e = match nodes[node].edges.iter().position(|e| e.id == o.id) {
                    Some(e) => e,
                    None => {
                        nodes[node].edges.push(Edge {
                            id: o.id.clone(),
                            seat: o.seats.first().copied().unwrap_or(seat),
                            visits: 0,
                            available: 0,
                            total: 0.0,
                            total_sq: 0.0,
                            child: None,
                        });
                        nodes[node].edges.len() - 1
                    }
                };
                nodes[node].edges[e].available += 1;
                legal.push(e);
            }
            let unvisited: Vec<usize> = legal.iter().copied().filter(|&e| nodes[node].edges[e].visits == 0).collect();
            if !unvisited.is_empty() {
                // Expand one new option, then play out from it.
                let e = unvisited[rng.below(unvisited.len())];
                let (id, s) = (nodes[node].edges[e].id.clone(), nodes[node].edges[e].seat);
                path.push((node, e));
                if g.apply(s, &id).is_err() {
                    break evaluate_game(&g) / 10.0;
                }
                break playout(&mut g, &mut rng);
            }
            let scores: Vec<f64> = legal
                .iter()
                .map(|&e| {
                    let ed = &nodes[node].edges[e];
                    let n = f64::from(ed.visits);
                    ed.total / n + EXPLORATION * (f64::from(ed.available.max(1)).ln() / n).sqrt()
                })
                .collect();
            let e = legal[argmax(&scores, &mut rng)];
            let (id, s) = (nodes[node].edges[e].id.clone(), nodes[node].edges[e].seat);
            path.push((node, e));
            if g.apply(s, &id).is_err() {
                break evaluate_game(&g) / 10.0;
            }
            node = match nodes[node].edges[e].child {
                Some(c) => c,
                None => {
                    nodes.push(Node::default());
                    let c = nodes.len() - 1;
                    nodes[node].edges[e].child = Some(c);
                    c
                }
            };
            depth += 1;
        };
        for &(n, e) in &path {
            let ed = &mut nodes[n].edges[e];
            ed.visits += 1;
            ed.total += reward;
            ed.total_sq += reward * reward;
        }
    }
    nodes[0]
        .edges
        .iter()
        .map(|e| RootStat { id: e.id.clone(), visits: e.visits, total: e.total, total_sq: e.total_sq })
        .collect()
}

/// Decisions a round-long playout may take before it is cut (a round of
/// four captains takes a few dozen).
const ROUND_PLAYOUT_CAP: usize = 400;

/// One paired search: the decision it is run for and its candidates.
pub struct Paired<'a> {
    /// The deciding seat's view.
    pub view: &'a View,
    /// The deciding seat.
    pub seat: Seat,
    /// Candidate option ids, the favourite first.
    pub roots: &'a [String],
    /// Seed of the samples and playouts.
    pub seed: u64,
    /// Round ends a playout runs to (1: the end of this round).
    pub horizon: u32,
    /// Scores a playout's end by the learned chance of a win instead of
    /// the hand-set evaluation (`value.rs`).
    pub value: Option<&'a ValueModel>,
    /// Marches compared after the candidate options (their columns follow
    /// the options'); a march's playout starts at the decision itself.
    pub marches: &'a [March],
}

impl Paired<'_> {
    /// The rewards of one sample: every candidate played from the same
    /// determinization with the same playout generator (common random
    /// numbers), so that the candidates' differences are not drowned by
    /// the spread between samples. `None` if the deadline cut it.
    fn sample(&self, sample: u64, deadline: Option<Instant>) -> Option<Vec<f64>> {
        let base = Game::from_view(self.view, mix(&[self.seed, sample, 0x9a1d]));
        // The end is counted from the decision, not from each candidate's
        // state: an end of turn that closes the round must not buy itself
        // a round more of playout than the other candidates.
        let end = self.view.round.saturating_add(self.horizon);
        let options = self.roots.iter().map(|id| (Some(id), None));
        let marches = self.marches.iter().map(|m| (None, Some(m)));
        options
            .chain(marches)
            .map(|(id, march)| {
                let mut g = base.clone();
                if let Some(id) = id
                    && g.apply(self.seat, id).is_err()
                {
                    return Some(f64::NEG_INFINITY);
                }
                let mut rng = Rng::new(mix(&[self.seed, sample, 0x7a11]));
                let reward = play_on(&mut g, &mut rng, end, ROUND_PLAYOUT_CAP, deadline, march)?;
                Some(self.value.map_or(reward, |m| m.value(g.public())))
            })
            .collect()
    }

    /// Plays `samples` determinizations, each candidate on every one of
    /// them, on `threads` threads. Returns the rewards by sample (rows)
    /// and candidate (columns); a sample cut by the deadline is left out
    /// whole (with none left, the caller plays the favourite, so a short
    /// `--think-ms` is kept even when one round-long playout would
    /// overrun it). The result depends on the seed and the sample count,
    /// not on the thread count.
    pub fn run(&self, samples: u32, deadline: Option<Instant>, threads: usize) -> Vec<Vec<f64>> {
        let threads = threads.max(1);
        let run = |t: usize| -> Vec<(u64, Vec<f64>)> {
            let mut out = Vec::new();
            for j in (t as u64..u64::from(samples)).step_by(threads) {
                // Checked here too, not only inside the playouts: when
                // every candidate ends the game at once (the last decision
                // of a game), a sample plays no move and never meets the
                // deadline, and a time-limited search asked for unbounded
                // samples would go on (and grow) forever.
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                match self.sample(j, deadline) {
                    Some(row) => out.push((j, row)),
                    None => break,
                }
            }
            out
        };
        let mut rows: Vec<(u64, Vec<f64>)> = if threads == 1 {
            run(0)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || run(t))).collect();
                handles.into_iter().filter_map(|h| h.join().ok()).flatten().collect()
            })
        };
        rows.sort_by_key(|r| r.0);
        rows.into_iter().map(|r| r.1).collect()
    }
}

/// The candidate a paired search picks: the favourite (column 0) unless
/// another beats it on the paired differences by `margin` and by `z`
/// standard errors of the mean difference.
pub fn paired_pick(rows: &[Vec<f64>], margin: f64, z: f64) -> usize {
    let Some(width) = rows.first().map(Vec::len) else { return 0 };
    let mut best = (0usize, 0.0f64);
    for c in 1..width {
        let diffs: Vec<f64> = rows.iter().map(|r| r[c] - r[0]).filter(|d| d.is_finite()).collect();
        if diffs.len() < 2 || diffs.len() < rows.len() {
            continue;
        }
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0);
        let se = (var / n).sqrt();
        if mean > margin && mean > z * se && mean > best.1 {
            best = (c, mean);
        }
    }
    best.0
}

/// Playouts a budget allows: its iterations, else unbounded under a time
/// limit, else the default.
fn playouts(budget: &Budget) -> u32 {
    match (budget.iterations, budget.think_ms) {
        (Some(i), _) => i,
        (None, Some(_)) => u32::MAX,
        (None, None) => DEFAULT_ITERATIONS,
    }
}

/// Runs the search on `threads` threads and sums the root statistics.
pub fn search_parallel(
    view: &View,
    seat: Seat,
    budget: &Budget,
    seed: u64,
    threads: usize,
    roots: &[String],
) -> Vec<RootStat> {
    let start = Instant::now();
    let deadline = budget.deadline(start);
    let total = playouts(budget);
    let threads = threads.max(1);
    let per = total.div_ceil(threads as u32).max(1);
    let results: Vec<Vec<RootStat>> = if threads == 1 {
        vec![search(view, seat, per, deadline, seed, roots)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| scope.spawn(move || search(view, seat, per, deadline, mix(&[seed, t as u64]), roots)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        })
    };
    let mut merged: Vec<RootStat> = Vec::new();
    for r in results {
        for s in r {
            match merged.iter_mut().find(|m| m.id == s.id) {
                Some(m) => {
                    m.visits += s.visits;
                    m.total += s.total;
                    m.total_sq += s.total_sq;
                }
                None => merged.push(s),
            }
        }
    }
    merged
}

/// The marches the paired search compares for `seat` at an Action
/// decision: one per target of [`super::march::targets`], then up to
/// `crew` crew marches ([`super::march::crew_targets`]).
fn march_candidates(view: &View, seat: Seat, crew: usize) -> Vec<March> {
    if view.decision.kind != DecisionKind::Action {
        return Vec::new();
    }
    let round = view.round;
    let lone = targets(&view.public, seat).into_iter().map(|target| March { seat, target, round, crew: false });
    let fleet =
        crew_targets(&view.public, seat, crew).into_iter().map(|target| March { seat, target, round, crew: true });
    lone.chain(fleet).collect()
}

/// The first step of a march that won the comparison: the heuristic's
/// best option (over the root samples) among those that keep to it on the
/// first sample, with the follow-up Action its score counted on. `None`
/// when no option keeps to it.
fn march_step(
    view: &View,
    march: &March,
    seed: u64,
    banned: &dyn Fn(&str) -> bool,
) -> Option<(String, Option<String>)> {
    let seat = march.seat;
    let opts: Vec<&ChoiceOption> = options_for(view, seat).into_iter().filter(|o| !banned(&o.id)).collect();
    let games = root_samples(view, seed);
    let keep = keeps_to(games.first()?, seat, march.target, &opts);
    let kept: Vec<&ChoiceOption> = opts.iter().zip(&keep).filter(|(_, k)| **k).map(|(o, _)| *o).collect();
    let (scores, plans) = score_deep_with_plans(&games, seat, &kept);
    let best =
        (0..kept.len()).filter(|&i| scores[i] > f64::NEG_INFINITY).max_by(|&a, &b| scores[a].total_cmp(&scores[b]))?;
    Some((kept[best].id.clone(), plans[best].clone()))
}

impl Policy for MctsPolicy {
    fn choose(&mut self, view: &View, seat: Seat, budget: &Budget) -> Option<String> {
        let start = Instant::now();
        let opts = options_for(view, seat);
        match opts.len() {
            0 => return None,
            1 => return Some(opts[0].id.clone()),
            _ => {}
        }
        // A follow-up committed to (after a strain or a jump) is played
        // as planned, exactly as the heuristic does.
        if let Some(i) = self.plan.take().and_then(|p| p.due(view, seat, &opts)) {
            self.guard.record_pick(view, seat, opts[i]);
            return Some(opts[i].id.clone());
        }
        let seed = self.rng.next_u64();
        let guard = &self.guard;
        let paired = tune::weight("mcts_paired", 1.0) > 0.0;
        let width = if paired { tune::weight("mcts_width", PAIRED_WIDTH).max(2.0) as usize } else { ROOT_WIDTH };
        let candidates = root_candidates(view, seat, seed, width, &|id| guard.refuses(view, seat, id));
        let roots: Vec<String> = candidates.iter().map(|c| c.0.clone()).collect();
        let crew = tune::weight("mcts_crew", CREW_MARCHES).max(0.0) as usize;
        let marches: Vec<March> = if paired && tune::weight("mcts_march", 1.0) > 0.0 {
            march_candidates(view, seat, crew)
        } else {
            Vec::new()
        };
        // A time limit covers the whole decision: the ranking above is
        // spent, and a winning march's first step costs about as much.
        let budget = &budget.after(start.elapsed());
        if paired && (roots.len() > 1 || !marches.is_empty()) {
            let pick = self.paired_choice(view, seat, budget, seed, &roots, &marches);
            let chosen = match pick.checked_sub(roots.len()).and_then(|m| marches.get(m)) {
                Some(m) => march_step(view, m, seed, &|id| guard.refuses(view, seat, id)),
                None => roots.get(pick).map(|id| (id.clone(), None)),
            };
            let Some((id, follow)) = chosen.or_else(|| roots.first().map(|id| (id.clone(), None))) else {
                return Some(opts[0].id.clone());
            };
            let planned = candidates.iter().find(|c| c.0 == id).and_then(|c| c.1.clone()).or(follow);
            return Some(self.commit(view, seat, &opts, &[(id.clone(), planned)], id));
        }
        let stats = search_parallel(view, seat, budget, seed, self.threads, &roots);
        // The heuristic's favourite stands unless the search finds a
        // clearly better option (by a margin and two standard errors):
        // sampling noise alone never overrides it
        // (and free back-and-forth moves, such as gifts inside a Trade,
        // cannot loop).
        let mean = |s: &RootStat| s.total / f64::from(s.visits.max(1));
        // Squared standard error of an option's mean reward.
        let spread = |s: &RootStat| {
            let n = f64::from(s.visits.max(1));
            ((s.total_sq / n - mean(s) * mean(s)).max(0.0)) / n
        };
        let favourite = roots.first().cloned();
        let fav = favourite.as_ref().and_then(|f| stats.iter().find(|s| &s.id == f));
        let challenger = stats.iter().filter(|s| s.visits > 0).max_by(|a, b| mean(a).total_cmp(&mean(b)));
        let best = match (fav, challenger) {
            (Some(f), Some(c)) if mean(c) > mean(f) + MARGIN + 2.0 * (spread(c) + spread(f)).sqrt() => Some(c),
            (Some(f), _) => Some(f),
            (None, c) => c,
        };
        if tracing::enabled!(tracing::Level::TRACE) {
            let ranked: Vec<(u32, f64, &str)> =
                stats.iter().map(|s| (s.visits, s.total / f64::from(s.visits.max(1)), s.id.as_str())).collect();
            tracing::trace!(?ranked, "mcts root");
        }
        let id = match best {
            Some(b) if opts.iter().any(|o| o.id == b.id) => b.id.clone(),
            _ => opts[0].id.clone(),
        };
        Some(self.commit(view, seat, &opts, &candidates, id))
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}

impl MctsPolicy {
    /// The paired search's pick among `roots` (the heuristic's favourite
    /// first).
    /// Returns the winning column: an index into `roots`, or
    /// `roots.len() + m` for march `m`.
    fn paired_choice(
        &self,
        view: &View,
        seat: Seat,
        budget: &Budget,
        seed: u64,
        roots: &[String],
        marches: &[March],
    ) -> usize {
        let start = Instant::now();
        let total = playouts(budget);
        let samples = (total / roots.len() as u32).max(2);
        let horizon = tune::weight("mcts_horizon", HORIZON).max(1.0) as u32;
        let value = if tune::weight("mcts_value", 0.0) > 0.0 { ValueModel::embedded() } else { None };
        // Chances of a win are compared on the standard error alone: a
        // fixed margin in Actions means nothing on that scale.
        let margin = tune::weight("mcts_margin", if value.is_some() { 0.0 } else { MARGIN });
        let rows = Paired { view, seat, roots, seed, horizon, value, marches }.run(
            samples,
            budget.deadline(start),
            self.threads,
        );
        let pick = paired_pick(&rows, margin, tune::weight("mcts_z", PAIRED_Z));
        if tracing::enabled!(tracing::Level::TRACE) {
            let n = rows.len().max(1) as f64;
            let names: Vec<String> = roots.iter().cloned().chain(marches.iter().map(March::label)).collect();
            let means: Vec<(f64, &str)> = (0..names.len())
                .map(|c| (rows.iter().map(|r| r.get(c).copied().unwrap_or(0.0)).sum::<f64>() / n, names[c].as_str()))
                .collect();
            tracing::trace!(?means, pick, samples = rows.len(), round = view.round, phase = ?view.public.phase, "mcts paired");
        }
        pick
    }

    /// Records the pick (follow-up plan, loop guard) and returns its id.
    fn commit(
        &mut self,
        view: &View,
        seat: Seat,
        opts: &[&ChoiceOption],
        candidates: &[(String, Option<String>)],
        id: String,
    ) -> String {
        let planned = candidates.iter().find(|c| c.0 == id).and_then(|c| c.1.clone());
        if let Some(o) = opts.iter().find(|o| o.id == id)
            && commits_plan(&o.choice)
            && let Some(next) = planned
        {
            self.plan = Some(Plan { round: view.round, seat, id: next });
        }
        match opts.iter().find(|o| o.id == id) {
            Some(o) => self.guard.record_pick(view, seat, o),
            None => self.guard.record(view.round, &id),
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::{options_for_decision, paired_pick, playout_pick};
    use crate::rng::Rng;
    use xodus_engine::Game;

    #[test]
    fn a_fresh_playout_pick_follows_the_view_not_the_sample_it_is_made_in() {
        // Two determinizations of one view hold different dice and draws;
        // a fresh pick with the same generator must not tell them apart.
        let mut compared = 0;
        for (view, seat) in crate::games::xodus::policy::tests::sample_views(31, 16) {
            let (a, b) = (Game::from_view(&view, 1), Game::from_view(&view, 2));
            let (da, db) = (a.decision(), b.decision());
            let (oa, ob) = (options_for_decision(&da.options, seat), options_for_decision(&db.options, seat));
            if oa.len() < 2 {
                continue;
            }
            let pa = playout_pick(&a, seat, &oa, &mut Rng::new(9), true);
            let pb = playout_pick(&b, seat, &ob, &mut Rng::new(9), true);
            assert_eq!(oa[pa].id, ob[pb].id, "round {}: the pick changed with the hidden sample", view.round);
            compared += 1;
        }
        assert!(compared >= 3, "only {compared} decisions with a choice");
    }

    #[test]
    fn the_favourite_stands_unless_a_candidate_beats_it_on_every_sample_by_the_margin() {
        // Candidate 2 is better by about 0.5 on every sample.
        let clear = vec![vec![1.0, 0.9, 1.5], vec![2.0, 2.1, 2.6], vec![0.5, 0.4, 0.9], vec![1.2, 1.0, 1.7]];
        assert_eq!(paired_pick(&clear, 0.08, 2.0), 2);
        // Candidate 1 is better on average but only by noise.
        let noisy = vec![vec![1.0, 3.0], vec![2.0, 0.5], vec![0.5, 1.5], vec![1.2, 0.4]];
        assert_eq!(paired_pick(&noisy, 0.08, 2.0), 0);
        // Better on every sample, but by less than the margin.
        let small = vec![vec![1.0, 1.05], vec![2.0, 2.05], vec![0.5, 0.55]];
        assert_eq!(paired_pick(&small, 0.08, 2.0), 0);
        // A candidate the sample refused never wins.
        let refused = vec![vec![1.0, f64::NEG_INFINITY], vec![2.0, 9.0]];
        assert_eq!(paired_pick(&refused, 0.08, 2.0), 0);
        assert_eq!(paired_pick(&[], 0.08, 2.0), 0);
    }
}
