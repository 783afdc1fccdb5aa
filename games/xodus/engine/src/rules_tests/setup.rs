//! Setup (rulebook pp. 4-5) and variants and difficulty (p. 19).

use super::*;
use crate::content::{SignalTier, SystemKind};

#[test]
fn p04_setup_four_ships_every_step() {
    let g = game4();
    let c = Content::get();
    // Corruption mat: marker at the start, three face-down Avatars.
    assert_eq!(g.pb.corruption.position, 0);
    assert_eq!(g.pb.corruption.face_down.len(), 3);
    assert_eq!(g.hid.mat_avatars.len(), 3);
    // Four Signals face down, one per Key.
    assert_eq!(g.pb.signals.len(), 4);
    assert!(g.pb.signals.iter().all(|s| s.card.is_none()));
    // Enemy deck: 4 level-1 cards; reserve ordered with level 1 on top.
    assert_eq!(g.pb.deck_levels, [4, 0, 0, 0]);
    assert_eq!(g.pb.reserve_levels, [0, 4, 4, 4]);
    let levels: Vec<u8> = g.hid.enemy_reserve.iter().map(|&e| c.enemies[e as usize].level).collect();
    assert!(levels.windows(2).all(|w| w[0] >= w[1]), "level 4 at the bottom, lower levels on top");
    // System stack: 6 piles of 5, Main Rift in the bottom pile, a red tile in each other.
    assert_eq!(g.pb.piles.len(), 6);
    assert_eq!(g.hid.stack.len(), 30);
    for (p, pile) in g.hid.stack.chunks(5).enumerate() {
        let kinds: Vec<SystemKind> = pile.iter().map(|&t| c.tiles[t as usize].kind).collect();
        if p == 0 {
            assert!(kinds.contains(&SystemKind::MainRift));
            assert!(!kinds.contains(&SystemKind::Corrupt));
        } else {
            assert_eq!(kinds.iter().filter(|&&k| k == SystemKind::Corrupt).count(), 1);
        }
    }
    // The last red tile is the Starting System, at the centre.
    assert_eq!(g.pb.tiles.len(), 1);
    assert_eq!(c.tiles[g.pb.tiles[0].tile as usize].kind, SystemKind::Corrupt);
    // Ships: full hull, one free energy, one scrap, level 1, on the start.
    for s in &g.pb.ships {
        assert_eq!(s.health, c.ship(s.kind).hull);
        assert_eq!((s.energy_total, s.scraps, s.level, s.hex), (1, 1, 1, Hex::ORIGIN));
    }
}

#[test]
fn p19_three_ship_variant_uses_other_mat_side_and_five_piles() {
    let g = Game::new(GameConfig {
        ships: vec![ShipKind::Warship, ShipKind::Explorer, ShipKind::ProtoShip],
        difficulty: Difficulty::Casual,
        allies: vec![AllyKind::Smuggler, AllyKind::Mercenary],
        seed: 3,
        nightmare: Some(false),
        legacy_reinforcements: Some(false),
        rules_revision: Some(crate::RULES_REVISION),
    })
    .unwrap();
    let c = Content::get();
    assert_eq!(g.pb.piles.len(), 5);
    assert_eq!(g.hid.stack.len(), 25);
    assert_eq!(g.pb.signals.len(), 3, "three Keys");
    assert_eq!(g.pb.corruption.face_down.len(), 2, "one Avatar fewer");
    assert_eq!(g.pb.removed_tiles.len(), 5);
    assert!(g.hid.stack.iter().all(|&t| !c.tiles[t as usize].three_player_removed));
}

#[test]
fn p19_difficulty_signal_mixes_without_the_optional_marker() {
    let c = Content::get();
    for seed in 0..30 {
        for d in Difficulty::ALL {
            let mut cfg = GameConfig::random(seed, 4, d);
            cfg.difficulty = d;
            let g = Game::new(cfg).unwrap();
            let tiers: Vec<SignalTier> = g.hid.signal_cards.iter().map(|&s| c.signals[s as usize].tier).collect();
            let n = |t| tiers.iter().filter(|&&x| x == t).count();
            match d {
                Difficulty::Casual => assert!(n(SignalTier::Lethal) == 0 && n(SignalTier::Perilous) <= 2),
                Difficulty::Hardened => assert!(tiers.iter().all(|&t| n(t) <= 2)),
                Difficulty::Heroic => assert!(n(SignalTier::Hazardous) == 0 && n(SignalTier::Perilous) <= 2),
            }
            assert_eq!(g.pb.corruption.movement_permanent, 0, "no level carries the marker by itself");
        }
    }
}

#[test]
fn setup_refuses_bad_configs() {
    let mut cfg = GameConfig::random(1, 4, Difficulty::Casual);
    cfg.ships.truncate(2);
    assert!(Game::new(cfg.clone()).is_err());
    cfg.ships = vec![ShipKind::Warship, ShipKind::Warship, ShipKind::Explorer];
    assert!(Game::new(cfg.clone()).is_err());
    cfg.ships = vec![ShipKind::Warship, ShipKind::PirateShip, ShipKind::Explorer];
    cfg.allies = vec![AllyKind::Mercenary];
    assert!(Game::new(cfg).is_err());
}

#[test]
fn content_errors_name_the_file_and_the_entry() {
    let mut texts = crate::content::FILES.map(|(_, t)| t);
    let broken = texts[3].replace(
        "level = 4\nhealth = 8\nshields = 2\nability = { kind = \"swarm\"",
        "level = 3\nhealth = 8\nshields = 2\nability = { kind = \"swarm\"",
    );
    texts[3] = &broken;
    let e = Content::load(texts).unwrap_err().to_string();
    assert!(e.contains("enemies.toml") && e.contains("level"), "{e}");
    let mut texts = crate::content::FILES.map(|(_, t)| t);
    let broken = texts[0].replace("lanes = \"101101\"", "lanes = \"10x101\"");
    texts[0] = &broken;
    let e = Content::load(texts).unwrap_err().to_string();
    assert!(e.contains("tiles.toml") && e.contains("A02"), "{e}");
}

/// FAQ, Alliés: the game's two Allies are chosen at setup. The Ally deck
/// holds exactly the two of the configuration; the other two are set aside
/// (only the Trapped Ally exploration brings one, FAQ); a configuration
/// without two different Allies is refused.
#[test]
fn faq_allies_the_two_allies_are_chosen_at_setup() {
    let g = game4();
    let mut deck = g.hid.ally_deck.clone();
    deck.sort();
    let mut chosen = g.config.allies.clone();
    chosen.sort();
    assert_eq!(deck, chosen, "the Ally deck is the two chosen");
    let mut spare = g.hid.spare_allies.clone();
    spare.extend(deck);
    spare.sort();
    assert_eq!(spare, AllyKind::ALL.to_vec(), "the other two are set aside");
    let mut cfg = g.config.clone();
    cfg.allies = vec![AllyKind::Smuggler, AllyKind::Smuggler];
    assert!(Game::new(cfg.clone()).is_err(), "two different Allies");
    cfg.allies = vec![AllyKind::Smuggler, AllyKind::Mercenary, AllyKind::Cartographer];
    assert!(Game::new(cfg).is_err(), "exactly two");
}
