//! Advice for an X-ODUS seat (AskHint): its options scored by the
//! heuristic's two-step look-ahead averaged over futures drawn from the
//! seat's own view (as many as the think budget allows), the best three
//! with their scores and a line why. Only the view is read: two worlds
//! behind one view get the same hint.

use super::calls::{destination, place};
use super::policy::heuristic::score_deep_with_plans;
use super::policy::options_for;
use crate::budget::Budget;
use crate::rng::mix;
use std::time::Instant;
use tabletop::pb;
use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{Choice, ChoiceOption, Game, Seat, View};

/// Futures drawn at most.
const MAX_SAMPLES: usize = 64;
/// Futures drawn per round of scoring.
const BATCH: usize = 4;

/// Why an option is worth taking, in the players' words.
/// `lead` says how it compares with the others.
fn reason(view: &View, seat: Seat, o: &ChoiceOption, lead: &str, samples: usize) -> String {
    let ship = view.public.ships.iter().find(|s| s.seat == seat);
    if let Some(to) = destination(o) {
        let tile = view.public.tiles.iter().find(|t| t.hex == to);
        let why = match tile {
            None => "reveals a new system".to_string(),
            Some(t) if Content::get().tiles[usize::from(t.tile)].kind == SystemKind::MainRift => {
                "towards the Main Rift".to_string()
            }
            Some(t) if t.key_marker.is_some() => super::game::key_plan(view, seat, to),
            Some(t) if t.exploration_marker => "to explore it".to_string(),
            Some(_) => "on the way".to_string(),
        };
        return format!("{}: {why} ({lead}, {samples} futures)", place(to, view));
    }
    if matches!(o.choice, Choice::Explore) && ship.is_some_and(|s| !s.keys.is_empty()) {
        return format!("explore here with your Keys ({lead}, {samples} futures)");
    }
    format!("{lead}, over {samples} futures drawn from what you see")
}

/// The best three options of `seat` on `view`, best first.
pub fn hint(view: &View, seat: Seat, budget: &Budget, seed: u64) -> Vec<pb::HintOption> {
    let start = Instant::now();
    let opts = options_for(view, seat);
    if opts.is_empty() {
        return Vec::new();
    }
    let mut sum = vec![0.0f64; opts.len()];
    let mut samples = 0;
    let limit = budget.iterations.map_or(MAX_SAMPLES, |n| (n as usize).clamp(BATCH, MAX_SAMPLES));
    let deadline = budget.deadline(start);
    while samples < limit {
        let games: Vec<Game> =
            (samples..samples + BATCH).map(|k| Game::from_view(view, mix(&[seed, 0x4869, k as u64]))).collect();
        let (scores, _) = score_deep_with_plans(&games, seat, &opts);
        for (s, v) in sum.iter_mut().zip(&scores) {
            *s += v * BATCH as f64;
        }
        samples += BATCH;
        // Another round only while it fits in the budget.
        let per_round = start.elapsed() / (samples / BATCH) as u32;
        if deadline.is_some_and(|d| Instant::now() + per_round >= d) {
            break;
        }
    }
    let mut ranked: Vec<(usize, f64)> = sum.iter().enumerate().map(|(i, s)| (i, s / samples as f64)).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked
        .iter()
        .take(3)
        .enumerate()
        .map(|(k, &(i, score))| {
            let o = opts[i];
            let lead = match (k, ranked.get(1)) {
                (_, None) => "the only option".to_string(),
                (0, Some(second)) if score - second.1 < 0.005 => "as good as the next best".to_string(),
                (0, Some(second)) => format!("{:+.2} over the next best", score - second.1),
                _ if ranked[0].1 - score < 0.005 => "as good as the best".to_string(),
                _ => format!("{:.2} behind the best", ranked[0].1 - score),
            };
            pb::HintOption {
                option_id: o.id.clone(),
                label: o.label.clone(),
                estimate: score,
                reason: reason(view, seat, o, &lead, samples),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, GameConfig, Viewer};

    /// A hint reads the seat's view alone: a second world drawn behind the
    /// same view (other decks, tiles, rolls) gets the same hint.
    #[test]
    fn two_worlds_behind_one_view_get_the_same_hint() {
        let budget = Budget::new(Some(4), None);
        let mut checked = 0;
        for seed in 0..3u64 {
            let mut g = Game::new(GameConfig::random(seed, 3, Difficulty::Casual)).expect("game");
            for step in 0..120u64 {
                let d = g.decision();
                let Some(&seat) = d.deciders.first() else { break };
                if g.outcome().is_some() {
                    break;
                }
                let view = g.view(Viewer::Seat(seat));
                if step % 20 == 0 && options_for(&view, seat).len() > 1 {
                    let other = Game::from_view(&view, seed ^ 0xfeed);
                    let again = other.view(Viewer::Seat(seat));
                    let (a, b) = (hint(&view, seat, &budget, 5), hint(&again, seat, &budget, 5));
                    assert_eq!(a, b, "seed {seed} step {step}");
                    assert!(!a.is_empty() && a.len() <= 3);
                    checked += 1;
                }
                let mine = options_for(&view, seat);
                let pick = mine[usize::try_from(step.wrapping_mul(7919) % mine.len() as u64).unwrap_or(0)].id.clone();
                g.apply(seat, &pick).expect("legal");
            }
        }
        assert!(checked > 3, "enough decisions checked: {checked}");
    }
}
