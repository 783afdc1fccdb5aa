//! X-ODUS's content as the catalog front-ends read (GetCatalog): every
//! tile, card, module, mod, Enemy, Avatar, Ally and ship, with the index
//! that states, events and options use, its name, its rules text and its
//! data as JSON.

use crate::describe;
use tabletop::pb;

/// The catalog entries of one category: `id` and `name` read each item.
fn category<T: serde::Serialize>(
    category: &str,
    items: &[T],
    id: impl Fn(&T) -> String,
    name: impl Fn(&T) -> String,
    text: impl Fn(&T) -> String,
) -> Vec<pb::CatalogEntry> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| pb::CatalogEntry {
            category: category.into(),
            index: i as u32,
            id: id(item),
            name: name(item),
            details_json: serde_json::to_string(item).unwrap_or_default(),
            text: text(item),
        })
        .collect()
}

/// X-ODUS's content, every category, from the engine's content data.
pub fn entries() -> Vec<pb::CatalogEntry> {
    let c = xodus_engine::content::Content::get();
    [
        category("tile", &c.tiles, |t| t.id.clone(), |t| t.name.clone(), describe::tile),
        category("signal", &c.signals, |t| t.id.clone(), |t| t.name.clone(), describe::signal),
        category("module", &c.modules, |t| t.id.clone(), |t| t.name.clone(), describe::module),
        category(
            "mod",
            &c.mods,
            |m| format!("{}:{}", m.ship.as_str(), m.level),
            |m| format!("{} mod, level {}", m.ship.as_str(), m.level),
            describe::mod_level,
        ),
        category("mod_effect", &c.mod_effects, |t| t.id.clone(), |t| t.name.clone(), describe::mod_effect),
        category("exploration", &c.explorations, |t| t.id.clone(), |t| t.name.clone(), describe::exploration),
        category("enemy", &c.enemies, |t| t.id.clone(), |t| t.name.clone(), describe::enemy),
        category("avatar", &c.avatars, |t| t.id.clone(), |t| t.name.clone(), describe::avatar),
        category("damaged", &c.damaged, |t| t.id.clone(), |t| t.name.clone(), describe::damaged),
        category("ally", &c.allies, |t| t.kind.as_str().to_string(), |t| t.name.clone(), describe::ally),
        category("ship", &c.ships, |t| t.kind.as_str().to_string(), |t| t.name.clone(), describe::ship),
    ]
    .concat()
}
