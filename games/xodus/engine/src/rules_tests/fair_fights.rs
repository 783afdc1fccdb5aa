//! Calibration of the authored combat content (dice faces, Enemy and
//! Avatar cards) against what the rulebook says fights should feel like.
//! The printed card faces are not in the documents, so these tests pin the
//! intent the text does state:
//! - Setup, "Enemy level" (p. 3): a fair fight is a level-N Enemy against a
//!   fleet of N ships;
//! - Avatar Combat, "Dimensional Escape" (p. 16): defeating an Avatar is a
//!   tactic a full fleet can use, and Avatars have more health and shields
//!   than any other Enemy.
//!
//! The figures are exact expectations over the dice faces (no sampling):
//! expected hits and misses of an Offense roll of the average ship, the
//! attacks a fleet needs to wear an Enemy down through its shields, and the
//! retaliation each ship takes meanwhile.

use super::*;
use crate::content::Face;

/// Expected hits and misses of one Offense roll (both dice), averaged over
/// the six ships.
fn average_ship_roll() -> (f64, f64) {
    let c = Content::get();
    let mut hits = 0.0;
    let mut misses = 0.0;
    for ship in &c.ships {
        for color in ship.dice {
            let faces = c.die(color);
            hits += faces.iter().filter(|f| **f == Face::Hit).count() as f64 / 6.0;
            misses += faces.iter().filter(|f| **f == Face::Miss).count() as f64 / 6.0;
        }
    }
    let n = c.ships.len() as f64;
    (hits / n, misses / n)
}

/// Hull each ship of an `n`-ship fleet is expected to lose wearing down
/// `health` through `shields` with Offense rolls.
fn hull_lost_per_ship(n: usize, health: u8, shields: u8) -> f64 {
    let (hits, misses) = average_ship_roll();
    let net = n as f64 * hits - f64::from(shields);
    if net <= 0.05 {
        return f64::INFINITY;
    }
    f64::from(health) / net * misses
}

/// Mean hull lost per ship over the Enemies of `level`, by an `n`-ship fleet.
fn level_cost(level: u8, n: usize) -> f64 {
    let c = Content::get();
    let of_level: Vec<_> = c.enemies.iter().filter(|e| e.level == level).collect();
    of_level.iter().map(|e| hull_lost_per_ship(n, e.health, e.shields)).sum::<f64>() / of_level.len() as f64
}

fn smallest_hull() -> f64 {
    f64::from(Content::get().ships.iter().map(|s| s.hull).min().unwrap_or(0))
}

#[test]
fn p3_enemy_level_a_level_n_enemy_is_a_fair_fight_for_a_fleet_of_n_ships() {
    // Fair: each ship comes out with most of its hull (at most 40% of the
    // smallest hull lost on average).
    for level in 1..=4u8 {
        let cost = level_cost(level, usize::from(level));
        assert!(
            cost <= 0.4 * smallest_hull(),
            "a level-{level} Enemy costs each of {level} ships {cost:.2} hull: not a fair fight"
        );
    }
}

#[test]
fn p3_enemy_level_one_ship_short_of_the_level_is_an_unfair_fight() {
    // The rule of thumb means something: one ship fewer than the level
    // costs at least twice as much hull per ship.
    for level in 2..=4u8 {
        let fair = level_cost(level, usize::from(level));
        let short = level_cost(level, usize::from(level - 1));
        assert!(short >= 2.0 * fair, "level {level}: {short:.2} with one ship short against {fair:.2}");
    }
}

#[test]
fn p16_dimensional_escape_a_full_fleet_can_defeat_any_avatar() {
    let c = Content::get();
    for a in &c.avatars {
        let cost = hull_lost_per_ship(4, a.health, a.shields);
        assert!(cost <= 0.7 * smallest_hull(), "{}: a fleet of four loses {cost:.2} hull per ship", a.id);
        // ... but never a lone ship or a pair: Avatars are the strongest foes.
        assert!(hull_lost_per_ship(2, a.health, a.shields) > smallest_hull(), "{} falls to two ships", a.id);
    }
}

#[test]
fn p16_avatars_have_more_health_and_shields_than_any_enemy() {
    let c = Content::get();
    let max_health = c.enemies.iter().map(|e| e.health).max().unwrap_or(0);
    let mean_shields = c.enemies.iter().map(|e| f64::from(e.shields)).sum::<f64>() / c.enemies.len() as f64;
    for a in &c.avatars {
        assert!(a.health > max_health, "{}", a.id);
        assert!(f64::from(a.shields) > mean_shields, "{}", a.id);
    }
}
