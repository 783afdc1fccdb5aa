//! The policy for any game: a uniformly random pick among the options of
//! the wire decision that the seat may take. It needs no game's types, so
//! the agent's seat loop plays any game the server hosts with it, and the
//! game-specific policies (heuristic, search) take over where the game is
//! one they know.

use xodus::pb;

/// A random option of `decision` for `seat`, drawn from `draw` (any
/// 64-bit value, e.g. a hash of the game, seat and seq).
pub fn pick(decision: &pb::Decision, seat: u32, draw: u64) -> Option<String> {
    let mine: Vec<&pb::ChoiceOption> = decision.options.iter().filter(|o| o.seats.contains(&seat)).collect();
    if mine.is_empty() {
        return None;
    }
    let i = usize::try_from(draw % mine.len() as u64).unwrap_or(0);
    Some(mine[i].id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(id: &str, seats: &[u32]) -> pb::ChoiceOption {
        pb::ChoiceOption { id: id.into(), seats: seats.to_vec(), ..Default::default() }
    }

    #[test]
    fn picks_only_the_seats_own_options_and_each_of_them() {
        let d = pb::Decision {
            options: vec![option("a", &[0]), option("b", &[1]), option("c", &[1])],
            ..Default::default()
        };
        let picks: std::collections::BTreeSet<String> = (0..20).filter_map(|n| pick(&d, 1, n)).collect();
        assert_eq!(picks, ["b", "c"].iter().map(|s| s.to_string()).collect());
        assert_eq!(pick(&d, 2, 0), None);
    }
}
