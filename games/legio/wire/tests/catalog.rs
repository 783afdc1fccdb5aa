//! The catalog names every content item: one entry per Exploration card,
//! Extrasolar card (A, B and X), sector (S1 to S5 and Sector X), expert,
//! Secret Objective, ship board side, Imperator card, damage-table face,
//! technology and planet token, indexed as states, events and options use
//! them, with a name, a rules text in English and the data as JSON.

use legio_engine::content::Content;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn the_catalog_names_every_content_item() {
    let c = Content::get();
    let entries = legio_wire::catalog::entries();
    let mut by: BTreeMap<&str, Vec<&tabletop::pb::CatalogEntry>> = BTreeMap::new();
    for e in &entries {
        by.entry(e.category.as_str()).or_default().push(e);
    }
    let count = |k: &str| by.get(k).map_or(0, Vec::len);
    let expected = [
        ("exploration", c.exploration.len()),
        ("extrasolar", c.extrasolar.len()),
        ("sector", c.nebula.sectors.len() + 1),
        ("expert", 3),
        ("objective", c.objectives.len()),
        ("ship", 2),
        ("imperator", c.imperator.len()),
        ("damage", 10),
        ("tech", 2),
        ("planet", 5),
    ];
    for (k, n) in expected {
        assert_eq!(count(k), n, "category {k}");
    }
    assert_eq!(by.len(), expected.len(), "no other category: {:?}", by.keys());
    for (k, list) in &by {
        let ids: BTreeSet<&str> = list.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids.len(), list.len(), "{k}: ids are unique");
        for (i, e) in list.iter().enumerate() {
            assert_eq!(e.index as usize, i, "{k}: entries in index order");
            assert!(!e.name.is_empty() && !e.name.contains('_'), "{k} {}: a name", e.id);
            assert!(e.text.ends_with('.') && !e.text.contains('_'), "{k} {}: {:?}", e.id, e.text);
            serde_json::from_str::<serde_json::Value>(&e.details_json).expect("details are JSON");
        }
    }
    let named = |k: &str, i: usize| by[k][i];
    for (i, d) in c.exploration.iter().enumerate() {
        assert_eq!((named("exploration", i).id.as_str(), named("exploration", i).name.as_str()), (&*d.id, &*d.name));
    }
    for (i, d) in c.extrasolar.iter().enumerate() {
        let e = named("extrasolar", i);
        assert_eq!((e.id.as_str(), e.name.as_str()), (&*d.id, &*d.name));
        if d.gift.is_none() {
            assert!(e.text.contains(&format!("success shares {} PC", d.pc)), "{}", e.text);
        }
    }
    for (i, d) in c.objectives.iter().enumerate() {
        let e = named("objective", i);
        assert_eq!((e.id.as_str(), e.name.as_str()), (&*d.id, &*d.name));
        assert!(e.text.contains(&format!("Worth {} PC", d.pc)), "{}", e.text);
    }
    for (i, d) in c.imperator.iter().enumerate() {
        let e = named("imperator", i);
        assert_eq!(e.id, d.id);
        assert!(e.text.contains(&format!("scores {} PC", d.pc)), "{}", e.text);
    }
    assert_eq!(named("ship", 0).name, c.sides[0].name);
    assert_eq!(named("ship", 1).name, c.sides[1].name);
    assert_eq!(named("sector", 5).name, "Sector X");
    // The 7-8 band of the damage table is the rulebook's: the decoder.
    assert!(named("damage", 6).text.contains("decoder"), "{}", named("damage", 6).text);
}
