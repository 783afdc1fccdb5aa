//! The catalog's rules text: every entry has English text written from its
//! data, with no placeholders or Rust debug output, different entries read
//! differently, and spot checks find the numbers of the data in the words.

use std::collections::HashMap;
use tabletop::pb;
use xodus_engine::content::Content;
use xodus_wire::catalog::entries;

/// The entry of a category with this id.
fn entry(category: &str, id: &str) -> pb::CatalogEntry {
    entries()
        .into_iter()
        .find(|e| e.category == category && e.id == id)
        .unwrap_or_else(|| panic!("no {category} {id} in the catalog"))
}

/// The entry's data without what names it (id, name), as compared for
/// sameness: two cards that differ only by name play the same.
fn rules_data(e: &pb::CatalogEntry) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&e.details_json).expect("details_json");
    if let Some(o) = v.as_object_mut() {
        o.remove("id");
        o.remove("name");
    }
    format!("{}/{v}", e.category)
}

#[test]
fn every_entry_has_clean_english_text() {
    let all = entries();
    assert!(!all.is_empty());
    for e in &all {
        let t = &e.text;
        assert!(!t.trim().is_empty(), "{} {} has no text", e.category, e.id);
        assert!(t.ends_with('.'), "{} {}: {t}", e.category, e.id);
        assert!(t.chars().next().is_some_and(char::is_uppercase), "{} {}: {t}", e.category, e.id);
        for bad in ["{", "}", "Some(", "None", "::", "  ", "..", "_"] {
            assert!(!t.contains(bad), "{} {} contains {bad:?}: {t}", e.category, e.id);
        }
    }
}

#[test]
fn entries_whose_data_differ_read_differently() {
    let mut seen: HashMap<String, String> = HashMap::new();
    for e in entries() {
        let data = rules_data(&e);
        if let Some(other) = seen.insert(e.text.clone(), data.clone()) {
            assert_eq!(other, data, "two different {} entries share the text {:?}", e.category, e.text);
        }
    }
}

#[test]
fn a_module_states_its_price_and_numbers() {
    let t = entry("module", "overcharged_coils").text;
    assert!(t.contains("3 scraps"), "{t}");
    assert!(t.contains("add 2 hits"), "{t}");
    assert!(t.contains("After your attack roll, discard this card"), "{t}");
    assert!(t.contains("discard"), "{t}");
    let t = entry("module", "phase_cannon").text;
    assert!(t.starts_with("A Precursor Ship Module"), "{t}");
    assert!(t.contains("8 scraps") && t.contains("ignore 2 shields"), "{t}");
}

#[test]
fn an_enemy_and_an_avatar_state_health_shields_and_ability() {
    let c = Content::get();
    let herald = c.enemies.iter().find(|e| e.id == "herald_of_ruin").expect("Herald of Ruin");
    let t = entry("enemy", "herald_of_ruin").text;
    assert!(t.contains(&format!("level {}", herald.level)), "{t}");
    assert!(t.contains(&format!("{} health", herald.health)), "{t}");
    assert!(t.contains(&format!("{} shields", herald.shields)), "{t}");
    assert!(t.contains("Pillage") && t.contains("2 scraps"), "{t}");
    let t = entry("avatar", "warden_ouroboros").text;
    assert!(t.contains("Avatar number 4") && t.contains("11 health") && t.contains("Dismantle"), "{t}");
}

#[test]
fn cards_and_tiles_read_their_data() {
    let t = entry("signal", "corrupted_beacon").text;
    assert!(t.contains("Lethal") && t.contains("9 scraps") && t.contains("a rift opens"), "{t}");
    let t = entry("signal", "choir_vault").text;
    assert!(t.contains("4 specials") && t.contains("loses 2 health"), "{t}");
    let t = entry("exploration", "trapped_ally").text;
    assert!(t.contains("Warning") && t.contains("Rogue") && t.contains("3 specials"), "{t}");
    let t = entry("exploration", "solar_flare").text;
    assert!(t.contains("Danger") && t.contains("1 special") && t.contains("loses 2 health"), "{t}");
    let t = entry("tile", "E03").text;
    assert!(t.contains("Enemy system") && t.contains("surveillance") && t.contains("patrol of 1"), "{t}");
    let t = entry("tile", "E10").text;
    assert!(t.contains("Key 4") && t.contains("three ships"), "{t}");
    let t = entry("tile", "A03").text;
    assert!(t.contains("wormhole") && t.contains("4 hyperspace lanes"), "{t}");
}

#[test]
fn mods_allies_damaged_and_ships_read_their_data() {
    let t = entry("mod", "warship:3").text;
    assert!(t.contains("Scattered Ray") && t.contains("Focused Ray") && t.contains(" or "), "{t}");
    let t = entry("mod_effect", "focused_ray").text;
    assert!(t.contains("Warship") && t.contains("level 3") && t.contains("add 2 hits"), "{t}");
    let t = entry("ally", "mercenary").text;
    assert!(t.contains("1 Precursor Ship Module") && t.contains("3 scraps"), "{t}");
    let t = entry("damaged", "frayed_drive").text;
    assert!(t.contains("Hyperspace Rush"), "{t}");
    let t = entry("ship", "explorer").text;
    assert!(t.contains("Rogue") && t.contains("4 Actions") && t.contains("hull of 5"), "{t}");
    assert!(t.contains("blue and yellow") && t.contains("1, 3, 5, 7 and 10 XP") && t.contains("Explore"), "{t}");
}
