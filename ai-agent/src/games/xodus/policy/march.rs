//! Marches: a captain's intention that outlasts one move ("go to the
//! Signal at this system", "take the Keys to the Main Rift"). The heuristic
//! and the paired search only ever compare single moves, each scored by
//! how much nearer it brings the evaluation's own task assignment, so a
//! captain never sets out for a Signal whose crew the assignment gives to
//! someone else, and a Key waits for a second ship that never comes. The
//! paired search can add marches to its candidates: in a march's playout
//! the deciding captain spends this turn's Actions only on moves that
//! bring its ship nearer the target (or, once there, that keep it there),
//! then everyone plays on as usual. A march that wins the comparison is
//! played by its first step: the heuristic's best move among those that
//! keep to it.
//!
//! A crew march is the same intention for every captain at once, held for
//! this round and the next: the crew gathers at a Signal that wants a
//! fleet (a guardian, a Skill Roll beyond two dice, repairs for several
//! ships), and, since only captains who have not played yet may be
//! invited, the fleet forms and tries it the round after. A lone march
//! never shows that: the teammates it would need go their own ways in
//! its playout.

use crate::games::xodus::board::Board;
use xodus_engine::{Choice, DecisionKind, Game, Hex, Public, Seat};

use super::heuristic::{complete_move, group_work_ahead, guardian_ahead};
use super::pickable::Pickable;

/// Marches compared per decision: the nearest targets.
pub const MAX_MARCHES: usize = 3;

/// One captain's intention (or the crew's): reach `target` and stay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct March {
    /// The captain who decides (and marches).
    pub seat: Seat,
    /// The system to reach.
    pub target: Hex,
    /// The round the march is for (a lone march's playout follows it this
    /// round only).
    pub round: u32,
    /// Whether every captain marches, this round and the next, for as
    /// long as the target's Signal is open.
    pub crew: bool,
}

impl March {
    /// Whether `seat`'s choices in `round` on `pb` keep to this march.
    pub fn binds(&self, pb: &Public, seat: Seat, round: u32) -> bool {
        if self.crew {
            (round == self.round || round == self.round.saturating_add(1))
                && (open_signal_at(pb, self.target) || held_after_rush(pb, self.target))
        } else {
            seat == self.seat && round == self.round
        }
    }

    /// The name the search's trace gives it.
    pub fn label(&self) -> String {
        let kind = if self.crew { "crew" } else { "march" };
        format!("{kind}:{},{}", self.target.q, self.target.r)
    }
}

/// Whether `hex` holds the marker of an unsolved Signal.
fn open_signal_at(pb: &Public, hex: Hex) -> bool {
    pb.tiles
        .iter()
        .filter(|t| t.hex == hex)
        .filter_map(|t| t.key_marker)
        .any(|k| pb.signals.iter().any(|s| s.key == k && !s.solved))
}

/// Jump distance from `seat`'s ship to `target` on `pb` (`None` when the
/// ship is lost, either system is unknown or no lane joins them).
pub fn distance(pb: &Public, seat: Seat, target: Hex) -> Option<u8> {
    let ship = pb.ships.iter().find(|s| s.seat == seat && !s.defeated)?;
    let board = Board::new(pb);
    let i = board.index(target)?;
    board.distances(ship.hex).get(i).copied().flatten()
}

/// The systems worth a march for `seat`, nearest first (at most
/// [`MAX_MARCHES`]): those of unsolved Signals, revealed or not, and the
/// Main Rift's when the ship carries Keys or an Avatar holds it after the
/// rush (the crew must beat it there, p. 12). The ship's own system counts
/// (a march to it means "stay and work here").
pub fn targets(pb: &Public, seat: Seat) -> Vec<Hex> {
    let carries_keys = pb.ships.iter().find(|s| s.seat == seat && !s.defeated).is_some_and(|s| !s.keys.is_empty());
    nearest_reachable(pb, seat, MAX_MARCHES, |board, i| {
        let open_signal = board.tile(i).key_marker.is_some_and(|k| pb.signals.iter().any(|s| s.key == k && !s.solved));
        open_signal || (board.is_main_rift(i) && (carries_keys || held_after_rush(pb, board.tile(i).hex)))
    })
}

/// Whether every Key is on the Main Rift at `hex` and an Avatar holds it.
fn held_after_rush(pb: &Public, hex: Hex) -> bool {
    pb.corruption.rift_rush && pb.avatars.iter().any(|a| a.place == xodus_engine::AvatarPlace::Board { hex })
}

/// The revealed, unsolved Signals that want a fleet (a guardian, a trial
/// beyond two dice, repairs for several ships) and that `seat`'s ship can
/// reach, nearest first, at most `max`: the targets of crew marches.
pub fn crew_targets(pb: &Public, seat: Seat, max: usize) -> Vec<Hex> {
    nearest_reachable(pb, seat, max, |board, i| {
        let hex = board.tile(i).hex;
        guardian_ahead(pb, hex) || group_work_ahead(pb, hex) || (board.is_main_rift(i) && held_after_rush(pb, hex))
    })
}

/// The systems that `seat`'s ship can reach and that pass `wanted` (asked
/// with the board and the system's tile index), nearest first and then by
/// coordinates, at most `max`; empty when the ship is lost.
fn nearest_reachable(pb: &Public, seat: Seat, max: usize, wanted: impl Fn(&Board, usize) -> bool) -> Vec<Hex> {
    let Some(ship) = pb.ships.iter().find(|s| s.seat == seat && !s.defeated) else { return Vec::new() };
    let board = Board::new(pb);
    let dist = board.distances(ship.hex);
    let mut found: Vec<(u8, Hex)> = (0..board.len())
        .filter(|&i| wanted(&board, i))
        .filter_map(|i| dist.get(i).copied().flatten().map(|d| (d, board.tile(i).hex)))
        .collect();
    found.sort_by_key(|f| (f.0, f.1.q, f.1.r));
    found.into_iter().take(max).map(|f| f.1).collect()
}

/// Which of `opts` keep `seat` to a march for `target` on the
/// determinized `game`: a move that brings the ship strictly nearer the
/// target, or, once there, any option after which the ship is still
/// there. Each option is applied to a copy and its move finished as the
/// look-ahead finishes it. All false when the decision is not `seat`'s
/// Action or the ship is lost.
pub fn keeps_to<O: Pickable>(game: &Game, seat: Seat, target: Hex, opts: &[&O]) -> Vec<bool> {
    let mut keep = vec![false; opts.len()];
    let legal = game.legal();
    if legal.kind != DecisionKind::Action || !legal.moves.iter().any(|m| m.seats.contains(seat)) {
        return keep;
    }
    let Some(before) = distance(game.public(), seat, target) else { return keep };
    for (o, k) in opts.iter().zip(keep.iter_mut()) {
        // At the target, staying means not moving: a Rush that ends where
        // it began spends two Actions for nothing.
        if before == 0 && matches!(o.choice(), Choice::Jump { .. } | Choice::BlindJump { .. } | Choice::Rush) {
            continue;
        }
        let mut g = game.clone();
        if !o.play(&mut g, seat) {
            continue;
        }
        complete_move(&mut g);
        let after = distance(g.public(), seat, target);
        *k = match after {
            Some(a) if before == 0 => a == 0,
            Some(a) => a < before,
            None => false,
        };
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xodus::policy::tests::sample_views;

    #[test]
    fn a_march_keeps_only_moves_that_bring_the_ship_nearer() {
        let mut checked = 0;
        for (view, seat) in sample_views(41, 24) {
            let game = Game::from_view(&view, 3);
            let d = game.decision();
            if d.kind != DecisionKind::Action {
                continue;
            }
            let opts: Vec<&xodus_engine::ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&seat)).collect();
            for target in targets(game.public(), seat) {
                let Some(before) = distance(game.public(), seat, target) else { continue };
                for (o, kept) in opts.iter().zip(keeps_to(&game, seat, target, &opts)) {
                    let mut g = game.clone();
                    if g.apply(seat, &o.id).is_err() {
                        assert!(!kept, "{} was refused but kept", o.id);
                        continue;
                    }
                    complete_move(&mut g);
                    let after = distance(g.public(), seat, target);
                    let nearer = after.is_some_and(|a| if before == 0 { a == 0 } else { a < before });
                    assert_eq!(kept, nearer, "{} from {before} to {after:?}", o.id);
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "only {checked} options checked");
    }

    /// Views of a three-ship Casual game played by the heuristic (Signals
    /// get revealed, ships spread out), one every few decisions.
    fn heuristic_views(seed: u64, n: usize) -> Vec<(xodus_engine::View, Seat)> {
        use crate::budget::Budget;
        use crate::games::xodus::policy::PolicyKind;
        use xodus_engine::{Difficulty, GameConfig, Viewer};
        let mut g = Game::new(GameConfig::random(seed, 3, Difficulty::Casual)).expect("game");
        let mut policy = PolicyKind::Heuristic.build(seed);
        let budget = Budget::new(Some(1), None);
        let mut out = Vec::new();
        let mut step = 0;
        while g.outcome().is_none() && out.len() < n && step < 3000 {
            let d = g.decision();
            let Some(&seat) = d.deciders.first() else { break };
            let view = g.view(Viewer::Seat(seat));
            if step % 5 == 0 && d.kind == DecisionKind::Action {
                out.push((view.clone(), seat));
            }
            let id = policy.choose(&view, seat, &budget).expect("a decision");
            g.apply(seat, &id).expect("offered option");
            step += 1;
        }
        out
    }

    #[test]
    fn away_from_its_target_a_march_keeps_moves_and_nothing_else_and_there_it_stays() {
        use xodus_engine::Choice;
        let moves = |c: &Choice| matches!(c, Choice::Jump { .. } | Choice::BlindJump { .. } | Choice::Rush);
        let (mut away, mut there) = (0, 0);
        for (view, seat) in heuristic_views(7, 40) {
            let game = Game::from_view(&view, 3);
            let d = game.decision();
            let opts: Vec<&xodus_engine::ChoiceOption> = d.options.iter().filter(|o| o.seats.contains(&seat)).collect();
            for target in targets(game.public(), seat) {
                let keep = keeps_to(&game, seat, target, &opts);
                let at_target = distance(game.public(), seat, target) == Some(0);
                for (o, kept) in opts.iter().zip(&keep) {
                    if at_target && moves(&o.choice) {
                        assert!(!kept, "{} leaves the target but was kept", o.id);
                    }
                    // A probe can keep to it too: the system it reveals may
                    // open a shorter way.
                    if !at_target && *kept {
                        let opens = matches!(o.choice, Choice::Probe { .. });
                        assert!(moves(&o.choice) || opens, "{} is neither a move nor a probe but was kept", o.id);
                    }
                    if at_target && matches!(o.choice, Choice::EndTurn) {
                        assert!(kept, "ending the turn at the target keeps to the march");
                    }
                }
                if at_target {
                    there += 1;
                } else if keep.contains(&true) {
                    away += 1;
                }
            }
        }
        assert!(away >= 3 && there >= 1, "too few cases: {away} away, {there} at the target");
    }

    #[test]
    fn march_targets_are_open_signals_or_the_rift_for_a_carrier_nearest_first() {
        let mut seen = 0;
        for (view, seat) in heuristic_views(43, 30) {
            let pb = &view.public;
            let board = Board::new(pb);
            let found = targets(pb, seat);
            assert!(found.len() <= MAX_MARCHES);
            let dists: Vec<u8> = found.iter().filter_map(|&h| distance(pb, seat, h)).collect();
            assert_eq!(dists.len(), found.len(), "every target is reachable");
            assert!(dists.windows(2).all(|w| w[0] <= w[1]), "nearest first: {dists:?}");
            for h in &found {
                let Some(i) = board.index(*h) else { panic!("target {h:?} is not on the board") };
                let tile = board.tile(i);
                let signal = tile.key_marker.is_some_and(|k| pb.signals.iter().any(|s| s.key == k && !s.solved));
                let carrier = pb.ships.iter().any(|s| s.seat == seat && !s.keys.is_empty());
                let held = held_after_rush(pb, *h);
                assert!(signal || (board.is_main_rift(i) && (carrier || held)), "{h:?} is neither");
                seen += 1;
            }
        }
        assert!(seen > 5, "only {seen} targets seen");
    }

    #[test]
    fn a_rift_an_avatar_holds_after_the_rush_is_every_captains_target() {
        // Rulebook p. 12: once every Key is on the Main Rift, it is sealed
        // only when no Avatar holds it, so the whole crew, Keys or not,
        // has business there (p. 16: beating the Avatar that holds it).
        let (view, seat) = heuristic_views(43, 10).pop().expect("a view");
        let mut pb = view.public.clone();
        let hex = pb.ships.iter().find(|s| s.seat == seat).expect("the ship").hex;
        let tile = pb.tiles.iter_mut().find(|t| t.hex == hex).expect("its system");
        tile.tile = xodus_engine::content::Content::get().main_rift();
        tile.key_marker = None;
        tile.keys_activated = pb.signals.iter().map(|s| s.key).collect();
        for s in &mut pb.signals {
            s.solved = true;
        }
        for s in &mut pb.ships {
            s.keys.clear();
        }
        assert!(!targets(&pb, seat).contains(&hex), "before the rush the Rift wants only carriers");
        pb.corruption.rift_rush = true;
        assert!(!targets(&pb, seat).contains(&hex), "a clear Rift is sealed without anyone");
        pb.avatars.push(xodus_engine::Avatar { card: 0, place: xodus_engine::AvatarPlace::Board { hex }, damage: 0 });
        assert_eq!(targets(&pb, seat).first(), Some(&hex), "the held Rift, nearest first");
        assert_eq!(crew_targets(&pb, seat, 1), vec![hex], "a crew march goes there");
        let crew = March { seat, target: hex, round: view.round, crew: true };
        let other = (seat + 1) % pb.ships.len() as Seat;
        assert!(crew.binds(&pb, other, view.round + 1), "it binds the crew while the Rift is held");
        pb.avatars.pop();
        assert!(!crew.binds(&pb, other, view.round), "and not once it is clear");
    }

    #[test]
    fn crew_targets_are_the_nearest_revealed_signals_that_want_a_fleet() {
        let mut seen = 0;
        for (view, seat) in heuristic_views(43, 40) {
            let pb = &view.public;
            let board = Board::new(pb);
            let all = crew_targets(pb, seat, usize::MAX);
            let held_rift = |h: Hex| board.index(h).is_some_and(|i| board.is_main_rift(i)) && held_after_rush(pb, h);
            let wanting: Vec<Hex> = (0..board.len())
                .map(|i| board.tile(i).hex)
                .filter(|&h| guardian_ahead(pb, h) || group_work_ahead(pb, h) || held_rift(h))
                .filter(|&h| distance(pb, seat, h).is_some())
                .collect();
            assert_eq!(all.len(), wanting.len(), "every reachable Signal that wants a fleet, and nothing else");
            let dists: Vec<u8> = all.iter().filter_map(|&h| distance(pb, seat, h)).collect();
            assert!(dists.windows(2).all(|w| w[0] <= w[1]), "nearest first: {dists:?}");
            assert_eq!(crew_targets(pb, seat, 1), all.iter().copied().take(1).collect::<Vec<_>>());
            seen += all.len();
        }
        assert!(seen > 3, "only {seen} crew targets seen");
    }

    #[test]
    fn a_crew_march_binds_every_captain_for_two_rounds_while_its_signal_is_open() {
        let mut checked = 0;
        for (view, seat) in heuristic_views(43, 40) {
            let pb = &view.public;
            let Some(&target) = crew_targets(pb, seat, 1).first() else { continue };
            let r = view.round;
            let crew = March { seat, target, round: r, crew: true };
            let lone = March { crew: false, ..crew.clone() };
            for other in pb.ships.iter().map(|s| s.seat) {
                assert!(
                    crew.binds(pb, other, r) && crew.binds(pb, other, r + 1),
                    "captain {other}, rounds {r} and next"
                );
                assert!(!crew.binds(pb, other, r + 2), "not two rounds on");
                assert_eq!(lone.binds(pb, other, r), other == seat, "a lone march binds its captain alone");
                assert!(!lone.binds(pb, other, r + 1), "a lone march lasts its round");
            }
            // Once its Signal is solved, a crew march is over.
            let mut solved = pb.clone();
            let key = solved.tiles.iter().find(|t| t.hex == target).and_then(|t| t.key_marker).expect("a Signal");
            solved.signals.iter_mut().filter(|s| s.key == key).for_each(|s| s.solved = true);
            assert!(!crew.binds(&solved, seat, r), "the Signal is solved");
            checked += 1;
        }
        assert!(checked > 2, "only {checked} crew marches checked");
    }
}
