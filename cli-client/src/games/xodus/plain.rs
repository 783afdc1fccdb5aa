//! Plain text of an X-ODUS state, for when stdout is not a terminal: a
//! short report (round, ships, Corruption, board, decision). Scripts and
//! logs read this; it has no colours and no cursor movement. What
//! `xodus view --text` prints for an X-ODUS game.

use std::fmt::Write as _;
use xodus_engine::content::Content;
use xodus_engine::{AvatarPlace, View};

/// A multi-line report of a view.
pub fn report(game_id: &str, view: &View) -> String {
    let c = Content::get();
    let pb = &view.public;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "game {game_id} round {} phase {} difficulty {} seq {}",
        view.round,
        view.phase.as_str(),
        view.config.difficulty.as_str(),
        pb.seq
    );
    let _ = writeln!(
        s,
        "corruption {}/{} stack {} enemy deck {}",
        pb.corruption.position, pb.corruption.rise, view.stack_remaining, view.enemy_deck_size
    );
    for sh in &pb.ships {
        let name = &c.ship(sh.kind).name;
        let _ = writeln!(
            s,
            "ship {} {name} at ({},{}) hull {}/{} energy {}/{} scraps {} xp {} level {} keys {:?} damaged {}{}",
            sh.seat,
            sh.hex.q,
            sh.hex.r,
            sh.health,
            sh.max_health,
            sh.energy_total.saturating_sub(sh.energy_used),
            sh.energy_total,
            sh.scraps,
            sh.xp,
            sh.level,
            sh.keys,
            sh.damaged.len(),
            if sh.defeated { " DESTROYED" } else { "" }
        );
    }
    for t in &pb.tiles {
        let def = &c.tiles[t.tile as usize];
        let enemies = pb.board_enemies.iter().filter(|e| e.hex == t.hex).count();
        let avatars = pb.avatars.iter().filter(|a| a.place == AvatarPlace::Board { hex: t.hex }).count();
        let _ = writeln!(
            s,
            "system ({},{}) {} {} lanes {:06b} enemies {enemies} avatars {avatars}",
            t.hex.q, t.hex.r, def.id, def.name, t.lanes
        );
    }
    if let Some(o) = &pb.outcome {
        let _ = writeln!(s, "result {} ({}) round {}", if o.won { "victory" } else { "defeat" }, o.cause, o.round);
    } else {
        let _ = writeln!(
            s,
            "decision {} by {:?}: {}",
            view.decision.kind.as_str(),
            view.decision.deciders,
            view.decision.prompt
        );
        for o in &view.decision.options {
            let _ = writeln!(s, "  option {} seats {:?}: {}", o.id, o.seats, o.label);
        }
    }
    s
}
