//! Self-play: whole games on the engine with no server, every seat played
//! by its own instance of one policy, each from its own seat's view (the
//! true game is only the referee). Games run on `jobs` worker threads that
//! pull game numbers from a shared counter; results are put back in game
//! order, so the figures do not depend on scheduling.

use crate::budget::Budget;
use crate::games::xodus::calls::{Calls, destination, line_from};
use crate::games::xodus::eval::evaluate_game;
use crate::games::xodus::policy::{PolicyKind, options_for};
use crate::games::xodus::results::GameResult;
use crate::games::xodus::value::{Position, position};
use crate::rng::mix;
use std::time::Instant;
use tabletop::xodus_pb::{XodusSignal, XodusSignalKind};
use xodus_engine::content::Content;
use xodus_engine::{Difficulty, Game, GameConfig, Seat, Viewer};

/// Hard cap on decisions per game (a stalled game counts as a loss).
pub const MAX_DECISIONS: u64 = 5_000;

/// Picks logged when a game hits the cap, to show the loop it was in.
const STALL_TAIL: usize = 40;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Policy for every seat.
    pub policy: PolicyKind,
    /// Number of games.
    pub games: usize,
    /// Ships per game (3 or 4).
    pub ships: usize,
    /// Difficulty.
    pub difficulty: Difficulty,
    /// The permanent +1 Avatar movement marker (rulebook p. 19).
    pub nightmare: bool,
    /// Base seed: game `i` uses config seed `seed + i`.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Thinking budget per decision.
    pub budget: Budget,
    /// Seat 0 plays as a teammate who calls where it heads (as a human
    /// would, with HEADING_TO signals), and the other captains heed its
    /// calls (`calls.rs`).
    pub calls: bool,
}

/// Why a game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// The engine refused the configuration.
    #[error("invalid game configuration: {0}")]
    Config(#[from] xodus_engine::ConfigError),
}

/// Plays game number `index` of `cfg` to its end.
pub fn play_game(cfg: &SelfplayConfig, index: usize) -> Result<GameResult, SelfplayError> {
    play_game_capped(cfg, index, MAX_DECISIONS)
}

/// Plays game number `index` of `cfg` to its end or to `cap` decisions,
/// whichever comes first; a game cut by the cap is a "stalled" loss and
/// its last picks are logged.
fn play_game_capped(cfg: &SelfplayConfig, index: usize, cap: u64) -> Result<GameResult, SelfplayError> {
    let game_seed = cfg.seed.wrapping_add(index as u64);
    let mut config = GameConfig::random(game_seed, cfg.ships, cfg.difficulty);
    config.nightmare = Some(cfg.nightmare);
    let mut game = Game::new(config)?;
    let seats = game.seat_count();
    let mut policies: Vec<_> = (0..seats).map(|s| cfg.policy.build(mix(&[game_seed, s as u64, 0xa1]))).collect();
    let mut heeded: Vec<Calls> = vec![Calls::default(); seats];
    let mut called: Option<xodus_engine::Hex> = None;
    let mut think_ms = Vec::new();
    let mut decisions = 0u64;
    let mut round_starts = Vec::new();
    let mut round = game.public().round;
    let mut recent = std::collections::VecDeque::with_capacity(STALL_TAIL);
    while game.outcome().is_none() && decisions < cap {
        if game.public().round != round {
            round = game.public().round;
            if let Position::Open(x) = position(game.public()) {
                round_starts.push((x, evaluate_game(&game)));
            }
        }
        let decision = game.decision();
        let Some(&seat) = decision.deciders.first() else { break };
        let mut view = game.view(Viewer::Seat(seat));
        if cfg.calls && seat != 0 {
            let calls = &mut heeded[usize::from(seat)];
            calls.settle(&view);
            calls.restrict(&mut view, seat);
        }
        let start = Instant::now();
        let picked = policies[usize::from(seat)]
            .choose(&view, seat, &cfg.budget)
            .filter(|id| view.decision.options.iter().any(|o| &o.id == id && o.seats.contains(&seat)));
        think_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        decisions += 1;
        let id = match picked {
            Some(id) => id,
            None => match options_for(&view, seat).first() {
                Some(o) => o.id.clone(),
                None => break,
            },
        };
        if recent.len() == STALL_TAIL {
            recent.pop_front();
        }
        // The caller says where it heads when that changes.
        if cfg.calls
            && seat == 0
            && let Some(to) = view.decision.options.iter().find(|o| o.id == id).and_then(destination)
            && called != Some(to)
            && game.public().tiles.iter().any(|t| t.hex == to)
        {
            called = Some(to);
            let signal = XodusSignal {
                kind: XodusSignalKind::HeadingTo as i32,
                system: Some(xodus_wire::enums::hex(to)),
                target: 0,
            };
            let line = line_from(0, &signal);
            for (s, calls) in heeded.iter_mut().enumerate().skip(1) {
                calls.hear(s as Seat, &line);
            }
        }
        let label = decision.options.iter().find(|o| o.id == id).map_or("", |o| o.label.as_str());
        recent.push_back(format!("r{round} seat {seat}: {id} ({label})"));
        if let Err(e) = game.apply(seat, &id) {
            tracing::warn!(game = index, %e, "policy picked a refused option; taking the first legal one");
            let Some(o) = options_for(&view, seat).first().map(|o| o.id.clone()) else { break };
            if game.apply(seat, &o).is_err() {
                break;
            }
        }
    }
    let pb = game.public();
    let keys = pb.signals.iter().filter(|s| s.solved).count() as u32;
    let keys_on_rift = pb.tiles.iter().map(|t| t.keys_activated.len() as u32).sum();
    let c = xodus_engine::content::Content::get();
    let signals =
        pb.signals.iter().filter_map(|s| Some((c.signals.get(usize::from(s.card?))?.id.clone(), s.solved))).collect();
    // A game cut by the decision cap counts as a "stalled" loss.
    let (won, cause, rounds) = match game.outcome() {
        Some(o) => (o.won, o.cause, o.round),
        None => {
            let tail = Vec::from(recent).join("\n  ");
            tracing::warn!(game_seed, decisions, round = pb.round, "game stalled; its last picks:\n  {tail}");
            (false, "stalled".into(), pb.round)
        }
    };
    Ok(GameResult {
        seed: game_seed,
        won,
        cause,
        rounds,
        keys,
        keys_on_rift,
        decisions,
        think_ms,
        signals,
        round_starts,
    })
}

/// Plays all games of `cfg` on `cfg.jobs` threads; `progress` is called
/// with each game's result as it finishes (from any worker, in any order).
pub fn run(cfg: &SelfplayConfig, progress: &(dyn Fn(&GameResult) + Sync)) -> Result<Vec<GameResult>, SelfplayError> {
    let done = |r: &Result<GameResult, SelfplayError>| {
        if let Ok(result) = r {
            progress(result);
        }
    };
    crate::runner::run_games(cfg.games, cfg.jobs, &|i| play_game(cfg, i), &done)
}

/// Plays one game and writes every decision, the option taken and the
/// ships' state to `out` (debugging aid for policies).
pub fn trace_game(
    policy: PolicyKind,
    ships: usize,
    difficulty: Difficulty,
    nightmare: bool,
    seed: u64,
    budget: &Budget,
    out: &mut dyn std::io::Write,
) -> Result<(), TraceError> {
    let mut config = GameConfig::random(seed, ships, difficulty);
    config.nightmare = Some(nightmare);
    let mut game = Game::new(config).map_err(SelfplayError::from)?;
    let mut policies: Vec<_> = (0..game.seat_count()).map(|s| policy.build(mix(&[seed, s as u64, 0xa1]))).collect();
    let mut n = 0u64;
    while game.outcome().is_none() && n < MAX_DECISIONS {
        let d = game.decision();
        let Some(&seat) = d.deciders.first() else { break };
        let view = game.view(Viewer::Seat(seat));
        let Some(id) = policies[usize::from(seat)].choose(&view, seat, budget) else { break };
        let label = d.options.iter().find(|o| o.id == id).map(|o| o.label.clone()).unwrap_or_default();
        let pb = game.public();
        let ships: Vec<String> = pb
            .ships
            .iter()
            .map(|s| {
                format!(
                    "{}:h{}e{}s{}k{}@{},{}{}",
                    s.seat,
                    s.health,
                    s.energy_total,
                    s.scraps,
                    s.keys.len(),
                    s.hex.q,
                    s.hex.r,
                    if s.defeated { "X" } else { "" }
                )
            })
            .collect();
        writeln!(
            out,
            "r{} c{} [{}] {} seat {seat}: {id} ({label}) of {}",
            pb.round,
            pb.corruption.position,
            ships.join(" "),
            d.kind.as_str(),
            d.options.len()
        )?;
        let events = game.apply(seat, &id).map_err(|e| TraceError::Refused(e.to_string()))?;
        for e in events {
            writeln!(out, "    {e:?}")?;
        }
        n += 1;
    }
    write_summary(game.public(), crate::games::xodus::eval::SignalMix::of(game.config().difficulty), out)?;
    writeln!(out, "outcome: {:?}", game.outcome())?;
    Ok(())
}

/// The end of a trace: what the System stack still holds, the evaluation
/// term by term, and where each Key stands: the first things to read when
/// a game is lost.
fn write_summary(
    pb: &xodus_engine::Public,
    mix: crate::games::xodus::eval::SignalMix,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let piles: Vec<String> =
        pb.piles.iter().map(|p| format!("{}{}", p.remaining, if p.bottom { "b" } else { "" })).collect();
    writeln!(out, "summary: {} systems revealed, piles left [{}]", pb.tiles.len(), piles.join(" "))?;
    let terms: Vec<String> =
        crate::games::xodus::eval::terms(pb, mix).iter().map(|(name, v)| format!("{name} {v:.1}")).collect();
    writeln!(out, "  evaluation: {}", terms.join(", "))?;
    for slot in &pb.signals {
        let tile = pb.tiles.iter().find(|t| t.key_marker == Some(slot.key)).map(|t| t.hex);
        let carrier = pb.ships.iter().find(|s| s.keys.contains(&slot.key)).map(|s| s.seat);
        let sealed = pb.tiles.iter().any(|t| t.keys_activated.contains(&slot.key));
        let card = slot.card.and_then(|i| Content::get().signals.get(usize::from(i))).map(|c| c.id.as_str());
        writeln!(
            out,
            "  key {}: system {:?}, card {:?}, progress {}, solved {}, carried by {:?}, on the Rift {}",
            slot.key, tile, card, slot.progress, slot.solved, carrier, sealed
        )?;
    }
    Ok(())
}

/// Why a trace stopped.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Setting the game up failed.
    #[error(transparent)]
    Selfplay(#[from] SelfplayError),
    /// The engine refused the policy's pick.
    #[error("the engine refused the pick: {0}")]
    Refused(String),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(policy: PolicyKind, games: usize, jobs: usize) -> SelfplayConfig {
        SelfplayConfig {
            policy,
            games,
            ships: 4,
            difficulty: Difficulty::Casual,
            nightmare: false,
            seed: 11,
            jobs,
            budget: Budget::new(Some(8), None),
            calls: false,
        }
    }

    #[test]
    fn a_game_cut_by_the_decision_cap_is_a_stalled_loss() {
        let r = play_game_capped(&cfg(PolicyKind::Random, 1, 1), 0, 12).expect("plays");
        assert_eq!((r.won, r.cause.as_str(), r.decisions), (false, "stalled", 12));
    }

    #[test]
    fn random_games_finish_and_are_reproducible() {
        let a = run(&cfg(PolicyKind::Random, 4, 2), &|_| {}).expect("plays");
        let b = run(&cfg(PolicyKind::Random, 4, 1), &|_| {}).expect("plays");
        assert_eq!(a.len(), 4);
        let strip =
            |v: &[GameResult]| v.iter().map(|r| (r.won, r.cause.clone(), r.rounds, r.decisions)).collect::<Vec<_>>();
        assert_eq!(strip(&a), strip(&b), "same seed, same games, whatever the job count");
        assert!(a.iter().all(|r| r.cause != "stalled"));
    }

    #[test]
    fn every_finished_game_is_reported_as_it_ends() {
        let seen = std::sync::Mutex::new(Vec::new());
        let all =
            run(&cfg(PolicyKind::Random, 3, 2), &|r| seen.lock().expect("not poisoned").push(r.seed)).expect("plays");
        let mut seen = seen.into_inner().expect("not poisoned");
        seen.sort_unstable();
        assert_eq!(seen, vec![11, 12, 13], "one report a game, by its seed");
        assert_eq!(all.iter().map(|r| r.seed).collect::<Vec<_>>(), seen, "results in game order");
    }
}
