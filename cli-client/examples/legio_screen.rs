//! Developer aid: the VII Legio screen against an in-process engine, no
//! server. You play seat 0 of a 3-commander game; the other seats pick a
//! random option. Run with
//! `cargo run -p xodus-cli --example legio_screen -- SEED`.

use legio_engine::{Game, GameConfig, Viewer};
use std::sync::mpsc;
use tabletop::pb;
use xodus_cli::games::legio::read as legio_read;
use xodus_cli::games::legio::ui::LegioScreen;
use xodus_cli::tui::{self, Request, Submit, Update};

/// Plays the other seats until seat 0 decides or the game ends; returns
/// one line per event.
fn advance(game: &mut Game, draw: &mut u64) -> Vec<String> {
    let mut lines = Vec::new();
    while game.outcome().is_none() {
        let d = game.decision();
        let Some(seat) = d.seat else { break };
        if seat == 0 || d.options.is_empty() {
            break;
        }
        *draw = draw.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let id = d.options[(*draw >> 33) as usize % d.options.len()].id.clone();
        match game.apply(seat, &id) {
            Ok(events) => lines.extend(events.iter().map(|e| legio_wire::events::summary(e, game.public()))),
            Err(_) => break,
        }
    }
    lines
}

fn main() -> std::io::Result<()> {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let Ok(mut game) = Game::new(GameConfig::new(3, seed)) else {
        eprintln!("invalid config");
        return Ok(());
    };
    let mut draw = seed;
    let first = advance(&mut game, &mut draw);
    let table = legio_read::table(game.view(Viewer::Seat(0)), game.public().seq);
    let mut screen = LegioScreen::new(format!("local-{seed}"), table, Some(0));
    screen.ai_seats = vec![1, 2];
    screen.push_choice(first);
    let (tx, rx) = mpsc::channel();
    tui::run(Box::new(screen), rx, move |s: Submit| {
        let Request::Choose(id) = &s.request else {
            let _ = tx.send(Update::Notice("no undo in the local example".into()));
            return;
        };
        let mut lines = match game.apply(s.seat, id) {
            Ok(events) => events.iter().map(|e| legio_wire::events::summary(e, game.public())).collect::<Vec<_>>(),
            Err(e) => {
                let _ = tx.send(Update::Notice(format!("refused: {e}")));
                return;
            }
        };
        lines.extend(advance(&mut game, &mut draw));
        let table = legio_read::table(game.view(Viewer::Seat(0)), game.public().seq);
        let events = lines.into_iter().map(|summary| pb::Event { summary, ..Default::default() }).collect();
        let _ = tx.send(Update::State { table: Box::new(table), events, undo: false });
    })?;
    Ok(())
}
