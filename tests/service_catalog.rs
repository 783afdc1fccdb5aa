//! GetCatalog, from outside: the numbers a game's state carries have names.
//! Every tile on the board of a played game and every ship at the table
//! is found in X-ODUS's catalog, with a name and its rules data; an unknown
//! game type is NOT_FOUND.

mod common;

use common::*;
use std::collections::HashMap;
use tabletop::pb;

#[tokio::test]
async fn the_catalog_names_what_a_state_numbers() {
    let server = Server::start("catalog");
    let mut c = server.client().await;
    let catalog =
        c.get_catalog(pb::GetCatalogRequest { game_type: "xodus".into() }).await.expect("catalog").into_inner();
    let by_key: HashMap<(String, u32), &pb::CatalogEntry> =
        catalog.entries.iter().map(|e| ((e.category.clone(), e.index), e)).collect();
    for category in ["tile", "signal", "module", "mod", "exploration", "enemy", "avatar", "damaged", "ally", "ship"] {
        assert!(catalog.entries.iter().any(|e| e.category == category), "no {category} in the catalog");
    }
    for e in &catalog.entries {
        assert!(!e.name.is_empty() && !e.id.is_empty(), "{e:?}");
        assert!(serde_json::from_str::<serde_json::Value>(&e.details_json).is_ok(), "{e:?}");
        assert!(!e.text.trim().is_empty(), "{} {} has no rules text", e.category, e.id);
    }

    let id = create_game(&mut c, 3).await;
    let tokens = claim_all(&mut c, &id).await;
    for _ in 0..20 {
        play_first(&mut c, &id, &tokens).await;
    }
    let s = state(&mut c, &id).await;
    let x = tabletop::any::state_detail::<tabletop::xodus_pb::XodusState>(&s).expect("an X-ODUS typed state");
    for tile in &x.tiles {
        assert!(by_key.contains_key(&("tile".into(), tile.tile)), "tile {} has no catalog entry", tile.tile);
    }
    for ship in &x.ships {
        for m in &ship.modules {
            assert!(by_key.contains_key(&("module".into(), *m)), "module {m} has no catalog entry");
        }
    }
    let g = c.get_history(pb::GetHistoryRequest { game_id: id, ..Default::default() }).await.expect("h");
    for seat in g.into_inner().game.expect("game").seats {
        assert!(catalog.entries.iter().any(|e| e.category == "ship" && e.id == seat.role), "ship {}", seat.role);
    }

    let err = c.get_catalog(pb::GetCatalogRequest { game_type: "chess".into() }).await.expect_err("unknown");
    assert_eq!(err.code(), tonic::Code::NotFound);
}
