//! Advice for a VII Legio seat (AskHint): its options ranked by the
//! heuristic's look-ahead over hands and decks drawn from the seat's own
//! view (as many samples as the think budget allows), the best three with
//! their values and a line why. Only the view is read, never another
//! seat's secrets: two worlds behind one view get the same hint.

use super::heuristic::rank;
use super::my_options;
use crate::budget::Budget;
use legio_engine::View;
use std::time::Instant;
use tabletop::pb;

/// Samples drawn at most.
const MAX_SAMPLES: usize = 32;

/// The best three options of the seat whose view is `view`, best first.
pub fn hint(view: &View, budget: &Budget, seed: u64) -> Vec<pb::HintOption> {
    let Some((me, opts)) = my_options(view) else { return Vec::new() };
    // A first small ranking times one sample; the rest of the budget
    // decides how many the answer uses.
    let start = Instant::now();
    let mut samples = 4usize;
    let mut ranked = rank(view, me, opts, samples, seed);
    if let Some(ms) = budget.think_ms {
        let per = start.elapsed().as_secs_f64() * 1000.0 / samples as f64;
        let more = ((ms as f64 * 0.8) / per.max(0.01)) as usize;
        if more > samples {
            samples = more.min(MAX_SAMPLES);
            ranked = rank(view, me, opts, samples, seed);
        }
    } else if let Some(n) = budget.iterations {
        samples = (n as usize).clamp(1, MAX_SAMPLES);
        ranked = rank(view, me, opts, samples, seed);
    }
    ranked
        .iter()
        .take(3)
        .enumerate()
        .map(|(k, &(i, value))| {
            let lead = match (k, ranked.get(1)) {
                (_, None) => "the only option".to_string(),
                (0, Some(second)) if value - second.1 < 0.005 => "as good as the next best".to_string(),
                (0, Some(second)) => format!("{:+.2} over the next best", value - second.1),
                _ if ranked[0].1 - value < 0.005 => "as good as the best".to_string(),
                _ => format!("{:.2} behind the best", ranked[0].1 - value),
            };
            pb::HintOption {
                option_id: opts[i].id.clone(),
                label: opts[i].label.clone(),
                estimate: value,
                reason: format!("{lead}, over {samples} draws of what you cannot see"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use legio_engine::{Game, GameConfig, Viewer};

    /// A hint reads the seat's view alone: a second world drawn behind the
    /// same view (other hands, objectives, decks) gets the same hint.
    #[test]
    fn two_worlds_behind_one_view_get_the_same_hint() {
        let budget = Budget::new(Some(6), None);
        let mut checked = 0;
        for seed in 0..6u64 {
            let mut g = Game::new(GameConfig::new(3, seed)).expect("game");
            for step in 0..200u64 {
                let d = g.decision();
                let Some(seat) = d.seat else { break };
                if d.options.is_empty() || g.outcome().is_some() {
                    break;
                }
                if step % 25 == 0 && d.options.len() > 1 {
                    let view = g.view(Viewer::Seat(seat));
                    let other = Game::from_view(&view, seed ^ 0xfeed);
                    assert_eq!(other.view(Viewer::Seat(seat)), view, "the same view");
                    let (a, b) = (hint(&view, &budget, 11), hint(&other.view(Viewer::Seat(seat)), &budget, 11));
                    assert_eq!(a, b, "seed {seed} step {step}");
                    assert!(!a.is_empty() && a.len() <= 3);
                    checked += 1;
                }
                let pick = &d.options[usize::try_from(step.wrapping_mul(7919) % d.options.len() as u64).unwrap_or(0)];
                g.apply(seat, &pick.id.clone()).expect("legal");
            }
        }
        assert!(checked > 5, "enough decisions checked: {checked}");
    }
}
