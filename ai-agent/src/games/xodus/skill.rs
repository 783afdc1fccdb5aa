//! Skill Roll odds (rulebook p. 11) and the crew's plan for a Signal's
//! trial: each ship of the group rolls its two dice, specials are summed,
//! each ship adds its always-on skill bonus and loses one per Damaged
//! sensors card (never below zero). A group tries a trial only when its
//! dice can pass it and it is not far worse off than the crew that could
//! gather there; the evaluation sends as many ships as fair odds need.

use crate::games::xodus::tune;
use xodus_engine::content::{Challenge, Content, DamagedEffect, Face, ModuleEffect, Trigger};
use xodus_engine::{Hex, Public, Seat, ShipKind, Source};

/// Odds a trial's group should reach before it stops calling more ships.
pub const FAIR_ODDS: f64 = 0.3;

/// A group whose odds are this many times below the gathered crew's
/// waits for the others rather than trying.
const WAIT_RATIO: f64 = 2.0;

/// Whether the trial plan is on: off by default, `XODUS_AI_TUNE=trial_plan=1`
/// turns it on. At the default budget it did not win more (Hardened, 3
/// ships, seeds 7000-7011: 4 of 12 with it, 6 without; ai-agent/NOTES.md).
pub fn plan_on() -> bool {
    tune::weight("trial_plan", 0.0) > 0.0
}

/// Whether a group never rolls a trial its dice cannot pass: on by
/// default, plan or not (`XODUS_AI_TUNE=trial_guard=0` turns it off). Such
/// a roll only costs: an Action, and whatever the card takes on a failure.
pub fn guard_on() -> bool {
    tune::weight("trial_guard", 1.0) > 0.0
}

/// Whether a trial waits in the group's system that its dice cannot pass
/// (too few dice for the specials asked, after Damaged sensors).
pub fn cannot_pass(pb: &Public, group: &[Seat]) -> bool {
    group_trial(pb, group).is_some_and(|amount| group_odds(pb, group, amount) <= 0.0)
}

/// The specials asked by the trial waiting in the system of the group's
/// first ship, if one waits there.
fn group_trial(pb: &Public, group: &[Seat]) -> Option<u8> {
    let hex = pb.ships.get(usize::from(*group.first()?))?.hex;
    trial_in(pb, hex)
}

/// The chance of each count of specials (0 to 2) a ship of `kind` rolls
/// on its two dice.
fn dice_specials(kind: ShipKind) -> Vec<f64> {
    let c = Content::get();
    let mut dist = vec![1.0];
    for color in c.ship(kind).dice {
        let p = c.die(color).iter().filter(|f| **f == Face::Special).count() as f64 / 6.0;
        let mut next = vec![0.0; dist.len() + 1];
        for (n, &q) in dist.iter().enumerate() {
            next[n] += q * (1.0 - p);
            next[n + 1] += q * p;
        }
        dist = next;
    }
    dist
}

/// A ship's always-on skill bonus and its Damaged sensors: specials it
/// adds to, and takes off, every Skill Roll it is part of (p. 11).
fn bonus_and_dull(ship: &xodus_engine::Ship) -> (usize, usize) {
    let c = Content::get();
    let powers = ship.modules.iter().map(|&m| Source::Module(m)).chain(ship.mods.iter().map(|&m| Source::Mod(m)));
    let bonus: usize = powers
        .map(|s| c.power(s))
        .filter(|p| p.trigger == Trigger::Passive)
        .map(|p| if let ModuleEffect::SkillBonus { amount } = p.effect { usize::from(amount) } else { 0 })
        .sum();
    let dull = ship.damaged.iter().filter(|&&d| c.damaged[usize::from(d)].effect == DamagedEffect::DullSensors).count();
    (bonus, dull)
}

/// The crew's edge on Skill Rolls: the most specials one afloat ship adds
/// to a group's roll beyond its dice (its skill bonus less its Damaged
/// sensors; negative when every ship's sensors are Damaged).
pub fn crew_edge(pb: &Public) -> i32 {
    pb.ships
        .iter()
        .filter(|s| !s.defeated)
        .map(|s| {
            let (bonus, dull) = bonus_and_dull(s);
            bonus as i32 - dull as i32
        })
        .max()
        .unwrap_or(0)
}

/// The chance of each count of specials one ship scores on a Skill Roll:
/// its dice, plus its always-on skill bonus, less its Damaged sensors.
fn ship_specials(pb: &Public, seat: Seat) -> Vec<f64> {
    let Some(ship) = pb.ships.get(usize::from(seat)) else { return vec![1.0] };
    let (bonus, dull) = bonus_and_dull(ship);
    let dice = dice_specials(ship.kind);
    let mut out = vec![0.0; dice.len() + bonus];
    for (n, q) in dice.into_iter().enumerate() {
        out[(n + bonus).saturating_sub(dull)] += q;
    }
    out
}

/// Chance that ships scoring by `ships` (one distribution each) show at
/// least `amount` specials in all.
fn odds(ships: impl Iterator<Item = Vec<f64>>, amount: u8) -> f64 {
    let need = usize::from(amount);
    let mut dist = vec![0.0; need + 1];
    dist[0] = 1.0;
    for ship in ships {
        let mut next = vec![0.0; need + 1];
        for (n, &q) in dist.iter().enumerate() {
            for (k, &r) in ship.iter().enumerate() {
                next[(n + k).min(need)] += q * r;
            }
        }
        dist = next;
    }
    dist[need]
}

/// Chance that the ships in `seats` pass a Skill Roll asking for `amount`
/// specials in all.
pub fn group_odds(pb: &Public, seats: &[Seat], amount: u8) -> f64 {
    odds(seats.iter().map(|&s| ship_specials(pb, s)), amount)
}

/// Chance that ships of these kinds, with no bonus or Damaged card, pass
/// a Skill Roll asking for `amount` specials.
pub fn kinds_odds(kinds: &[ShipKind], amount: u8) -> f64 {
    odds(kinds.iter().map(|&k| dice_specials(k)), amount)
}

/// The challenge of the open (unsolved, revealed) Signal guarding the
/// Key in `hex`, if any.
pub fn challenge_in(pb: &Public, hex: Hex) -> Option<&'static Challenge> {
    let c = Content::get();
    let key = pb.tiles.iter().find(|t| t.hex == hex)?.key_marker?;
    let slot = pb.signals.iter().find(|s| s.key == key && !s.solved)?;
    Some(&c.signals.get(usize::from(slot.card?))?.challenge)
}

/// The specials asked for by an open Skill Roll Signal in `hex`, if any.
pub fn trial_in(pb: &Public, hex: Hex) -> Option<u8> {
    match challenge_in(pb, hex)? {
        Challenge::Trial { amount, .. } => Some(*amount),
        _ => None,
    }
}

/// Ships free to join a trial: afloat and carrying no Key (a carrier's
/// place is on the way to the Rift).
pub(crate) fn free_ships(pb: &Public) -> impl Iterator<Item = Seat> + '_ {
    pb.ships.iter().filter(|s| !s.defeated && s.keys.is_empty()).map(|s| s.seat)
}

/// The group's odds on the trial and the odds of that group joined by
/// every free ship already in its system (one invitation away). Ships
/// still travelling are not waited for: a pair that waited for a third
/// ship one jump away sat at the Collapsing Star for six rounds while it
/// never came (Hardened, 3 ships, seed 7007); the evaluation calls them
/// instead.
pub fn odds_now_and_gathered(pb: &Public, group: &[Seat], amount: u8) -> (f64, f64) {
    let here = group.first().and_then(|&s| pb.ships.get(usize::from(s))).map(|s| s.hex);
    let mut crew: Vec<Seat> = group.to_vec();
    crew.extend(free_ships(pb).filter(|s| !group.contains(s) && pb.ships.get(usize::from(*s)).map(|x| x.hex) == here));
    (group_odds(pb, group, amount), group_odds(pb, &crew, amount))
}

/// Advice on trying the trial in the group's system now: `None` when no
/// trial waits there, else the prior to add to the Attempt option: a large
/// penalty when the group's dice cannot pass it, a gathering one when the
/// free ships in its system would at least double the odds by joining.
pub fn attempt_prior(pb: &Public, group: &[Seat], hopeless: f64, gather: f64) -> Option<f64> {
    let amount = group_trial(pb, group)?;
    let (now, gathered) = odds_now_and_gathered(pb, group, amount);
    Some(if now <= 0.0 {
        -hopeless
    } else if gathered >= tune::weight("trial_wait_ratio", WAIT_RATIO) * now {
        -tune::weight("trial_wait", gather)
    } else {
        0.0
    })
}

/// Whether adding `joiner` to `group` at a trial raises the group's odds
/// enough to be worth a gathering bonus (at least half again).
pub fn joining_helps(pb: &Public, group: &[Seat], joiner: Seat) -> Option<bool> {
    let amount = group_trial(pb, group)?;
    let now = group_odds(pb, group, amount);
    let mut with: Vec<Seat> = group.to_vec();
    if !with.contains(&joiner) {
        with.push(joiner);
    }
    Some(group_odds(pb, &with, amount) >= 1.5 * now + 0.02)
}

/// How many free ships a trial asking for `amount` specials calls: the
/// nearest ones first (`by_distance`), until their odds are fair, or all
/// of them.
pub fn ships_called(pb: &Public, by_distance: &[Seat], amount: u8) -> usize {
    let fair = tune::weight("trial_fair", FAIR_ODDS);
    for k in 1..=by_distance.len() {
        if group_odds(pb, &by_distance[..k], amount) >= fair {
            return k;
        }
    }
    by_distance.len().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig};

    fn crew(kinds: &[ShipKind]) -> Game {
        let mut config = GameConfig::random(3, kinds.len(), Difficulty::Casual);
        config.ships = kinds.to_vec();
        Game::new(config).expect("a valid crew")
    }

    #[test]
    fn two_dice_alone_never_pass_three_specials() {
        let g = crew(&[ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship]);
        let pb = g.public();
        assert_eq!(group_odds(pb, &[0], 3), 0.0);
        // Explorer: blue 2/6 and yellow 3/6 specials.
        let both = 2.0 / 6.0 * 3.0 / 6.0;
        assert!((group_odds(pb, &[0], 2) - both).abs() < 1e-12);
        let one_or_more = 1.0 - (4.0 / 6.0) * (3.0 / 6.0);
        assert!((group_odds(pb, &[0], 1) - one_or_more).abs() < 1e-12);
    }

    #[test]
    fn odds_grow_with_the_group_and_sum_to_certainty_at_zero() {
        let g = crew(&[ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship]);
        let pb = g.public();
        assert_eq!(group_odds(pb, &[0, 1], 0), 1.0);
        let two = group_odds(pb, &[0, 1], 3);
        let three = group_odds(pb, &[0, 1, 2], 3);
        assert!(two > 0.0 && three > 2.0 * two, "a third ship more than doubles the odds: {two} -> {three}");
    }

    /// The crew of `crew(kinds)` with the Signal of Key 1 revealed as
    /// `card` in the system where every ship starts.
    fn signal_at_start(kinds: &[ShipKind], card: &str) -> Public {
        let c = Content::get();
        let mut pb = crew(kinds).public().clone();
        let hex = pb.ships[0].hex;
        let index = c.signals.iter().position(|s| s.id == card).expect("the card in the content");
        let slot = pb.signals.iter_mut().find(|s| s.key == 1).expect("Key 1");
        slot.card = Some(index as u8);
        if let Some(t) = pb.tiles.iter_mut().find(|t| t.hex == hex) {
            t.key_marker = Some(1);
        }
        pb
    }

    #[test]
    fn a_trial_is_tried_by_a_group_that_can_pass_it_once_the_crew_has_gathered() {
        // Rulebook p. 11 (Skill Roll: both dice of every ship of the group,
        // specials counted) and our Collapsing Star (3 specials, 1 health
        // lost by each ship on a failure). A lone ship's two dice can never
        // show three specials (a lone Explorer rolled it five times in a
        // traced Hardened game, seed 7004); two ships pass about one time in
        // ten, three about one in three.
        let kinds = [ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship];
        let pb = signal_at_start(&kinds, "collapsing_star");
        assert_eq!(attempt_prior(&pb, &[0], 5.0, 3.0), Some(-5.0), "hopeless alone");
        assert_eq!(attempt_prior(&pb, &[0, 1], 5.0, 3.0), Some(-3.0), "wait for the third ship");
        assert_eq!(attempt_prior(&pb, &[0, 1, 2], 5.0, 3.0), Some(0.0), "the whole crew tries");
        assert_eq!(joining_helps(&pb, &[0, 1], 2), Some(true));
        // A carrier of a Key is not counted on: it is on its way to the Rift.
        let mut carrying = pb.clone();
        carrying.ships[2].keys.push(2);
        assert_eq!(attempt_prior(&carrying, &[0, 1], 5.0, 3.0), Some(0.0), "no one else to wait for");
        // Nor is a ship elsewhere: the pair tries rather than wait for it.
        let mut away = pb.clone();
        away.ships[2].hex = xodus_engine::Hex { q: away.ships[2].hex.q + 1, r: away.ships[2].hex.r };
        assert_eq!(attempt_prior(&away, &[0, 1], 5.0, 3.0), Some(0.0), "no waiting for a ship on its way");
    }

    #[test]
    fn a_captain_heading_to_a_trial_names_its_specials_and_the_odds_with_the_best_teammate() {
        // Issue #62: an AI captain says why it heads somewhere, with the
        // odds it computes. Rulebook p. 11: a Skill Roll counts the
        // specials of every ship of the group; our Collapsing Star asks 3.
        let kinds = [ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship];
        let pb = signal_at_start(&kinds, "collapsing_star");
        let mut view = crew(&kinds).view(xodus_engine::Viewer::Seat(0));
        let hex = pb.ships[0].hex;
        view.public = pb.clone();
        let text = super::super::game::key_plan(&view, 0, hex);
        let best = group_odds(&pb, &[0, 1], 3).max(group_odds(&pb, &[0, 2], 3));
        let pct = (best * 100.0).round() as u32;
        assert!(
            text.starts_with(&format!("its Key's Skill Roll needs 3 special(s): 0% alone, {pct}% with the ")),
            "{text}"
        );
        // A teammate carrying a Key is on its way to the Rift: not counted.
        view.public.ships[1].keys.push(2);
        view.public.ships[2].keys.push(3);
        assert_eq!(super::super::game::key_plan(&view, 0, hex), "its Key's Skill Roll needs 3 special(s): 0% alone");
        // Repairs are no Skill Roll.
        view.public = signal_at_start(&kinds, "broken_foundry");
        assert!(super::super::game::key_plan(&view, 0, hex).contains("repair"));
    }

    #[test]
    fn a_trial_the_dice_cannot_pass_is_flagged_whatever_the_plan() {
        // Rulebook p. 11: a Skill Roll counts the specials of both dice of
        // every ship in the group; our Collapsing Star asks for 3. Two dice
        // never show three, a Damaged sensors card takes one away (p. 15).
        let kinds = [ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship];
        let pb = signal_at_start(&kinds, "collapsing_star");
        assert!(cannot_pass(&pb, &[0]), "one ship, two dice, three specials");
        assert!(!cannot_pass(&pb, &[0, 1]), "four dice can");
        assert!(!cannot_pass(&crew(&kinds).public().clone(), &[0]), "no trial here");
        assert!(!cannot_pass(&signal_at_start(&kinds, "broken_foundry"), &[0]), "repairs are no Skill Roll");
    }

    #[test]
    fn a_skill_bonus_in_the_crew_makes_a_revealed_trial_less_work_and_damaged_sensors_more() {
        // Rulebook p. 11 (a Skill Roll counts the group's specials), our
        // Explorer's level-4 System Detector (+1 special on every Skill
        // Roll) and Damaged sensors (one special fewer, p. 15): the Vault
        // of the Choir's four specials are three for a crew with the
        // Detector, and five when every ship's sensors are Damaged.
        let c = Content::get();
        let kinds = [ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship];
        let pb = signal_at_start(&kinds, "choir_vault");
        let detector = c.mod_effects.iter().position(|m| m.id == "system_detector").expect("the mod") as u8;
        let dull = c.damaged.iter().position(|d| d.effect == DamagedEffect::DullSensors).expect("the card") as u8;
        assert_eq!(crew_edge(&pb), 0);
        let mut sharp = pb.clone();
        sharp.ships[0].mods.push(detector);
        assert_eq!(crew_edge(&sharp), 1);
        let value = |p: &Public| crate::games::xodus::eval::evaluate(p, crate::games::xodus::eval::SignalMix::ANY);
        assert!(value(&sharp) > value(&pb) + 5.0, "with the Detector {} against {}", value(&sharp), value(&pb));
        let mut blind = signal_at_start(&kinds, "collapsing_star");
        let before = value(&blind);
        for ship in &mut blind.ships {
            ship.damaged.push(dull);
        }
        assert_eq!(crew_edge(&blind), -1);
        // The trial's own price rises, beyond what the cards cost the ships.
        let cards_only = 3.0 * 1.0;
        assert!(value(&blind) < before - cards_only - 5.0, "blind {} against {}", value(&blind), before);
        // One ship with its sensors whole is enough: it joins the roll.
        let mut one_whole = blind.clone();
        one_whole.ships[2].damaged.clear();
        assert_eq!(crew_edge(&one_whole), 0);
    }

    #[test]
    fn no_advice_where_no_trial_waits() {
        let kinds = [ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship];
        let pb = signal_at_start(&kinds, "broken_foundry");
        assert_eq!(attempt_prior(&pb, &[0], 5.0, 3.0), None, "repairs are not a Skill Roll");
        assert_eq!(joining_helps(&pb, &[0], 1), None);
        let pb = crew(&kinds).public().clone();
        assert_eq!(attempt_prior(&pb, &[0], 5.0, 3.0), None, "no Signal here");
    }

    #[test]
    fn the_nearest_ships_are_called_until_the_odds_are_fair() {
        let g = crew(&[ShipKind::Explorer, ShipKind::PirateShip, ShipKind::Warship]);
        let pb = g.public();
        // Two specials: Explorer and Pirate together pass about half the time.
        assert_eq!(ships_called(pb, &[0, 1, 2], 2), 2);
        // Four specials: three ships stay below fair odds, so all are called.
        assert!(group_odds(pb, &[0, 1, 2], 4) < FAIR_ODDS);
        assert_eq!(ships_called(pb, &[0, 1, 2], 4), 3);
    }
}
