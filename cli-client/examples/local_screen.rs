//! Developer aid: the screen against an in-process engine, no server.
//! You play seat 0; the other seats pick their first option. Run with
//! `cargo run -p xodus-cli --example local_screen -- SEED`.

use std::sync::mpsc;
use xodus_cli::games::xodus::ui::Screen;
use xodus_cli::tui::{self, Request, Submit, Update};
use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

fn main() -> std::io::Result<()> {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(7);
    let Ok(mut game) = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)) else {
        eprintln!("invalid config");
        return Ok(());
    };
    let (tx, rx) = mpsc::channel();
    let mut screen = Screen::new(format!("local-{seed}"), game.view(Viewer::Spectator), vec![0]);
    screen.ai_seats = vec![1, 2, 3];
    let advance = |game: &mut Game, events: &mut Vec<xodus_engine::Event>| {
        while game.outcome().is_none() && !game.decision().deciders.contains(&0) {
            let d = game.decision();
            let Some(o) = d.options.first() else { break };
            let Some(seat) = o.seats.first() else { break };
            match game.apply(*seat, &o.id) {
                Ok(ev) => events.extend(ev),
                Err(_) => break,
            }
        }
    };
    let mut events = Vec::new();
    advance(&mut game, &mut events);
    screen.set_view(game.view(Viewer::Seat(0)));
    screen.push_events(&events);
    let game_id = format!("local-{seed}");
    tui::run(Box::new(screen), rx, move |s: Submit| {
        let Request::Choose(id) = &s.request else {
            let _ = tx.send(Update::Notice("no undo in the local example".into()));
            return;
        };
        let mut events = Vec::new();
        match game.apply(s.seat, id) {
            Ok(ev) => events.extend(ev),
            Err(e) => {
                let _ = tx.send(Update::Notice(format!("refused: {e}")));
                return;
            }
        }
        advance(&mut game, &mut events);
        let seq = game.public().seq;
        let table = xodus_cli::games::read(&xodus_wire::game_state(&game_id, seq, &game, Viewer::Seat(0)));
        let events = events.iter().map(|e| xodus_wire::events::event(e, Some(game.public()))).collect();
        let _ = tx.send(Update::State { table: Box::new(table), events, undo: false });
    })?;
    Ok(())
}
