//! Setup (rulebook "Mise en place", "Prenez le commandement de votre
//! Frombola"; the missing setup page is read in docs/legio-readings.md):
//! decks shuffled, the first commander drawn by lot, every ship a Frombola
//! at the Star Base, the leftmost A contact face up, the other A and the B
//! contact face down, the first Imperator card turned up; then each
//! commander in turn order sets a profile, embarks an expert and keeps an
//! objective out of two.

use crate::config::{ConfigError, GameConfig};
use crate::content::{BASE, Content, Pile};
use crate::decision::{Pending, Task};
use crate::rng::GameRng;
use crate::state::*;

impl Game {
    /// A new game, waiting for the first setup decision.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        config.validate()?;
        let c = Content::get();
        let n = usize::from(config.players);
        let mut rng = GameRng::new(config.seed);
        let mut deck: Vec<u8> = (0..c.exploration.len() as u8).collect();
        rng.shuffle(&mut deck);
        let mut pile_a = c.pile(Pile::A);
        rng.shuffle(&mut pile_a);
        let mut pile_b = c.pile(Pile::B);
        rng.shuffle(&mut pile_b);
        let mut imperator_deck: Vec<u8> = (0..c.imperator.len() as u8).collect();
        rng.shuffle(&mut imperator_deck);
        let mut objective_pile: Vec<u8> = (0..c.objectives.len() as u8).collect();
        rng.shuffle(&mut objective_pile);
        let first = rng.below(n as u32) as Seat;

        let contact_a1 = pile_a.pop();
        let contacts = [pile_a.pop(), pile_b.pop()];
        let imperator = Imperator { score: 0, card: imperator_deck.pop(), discard: Vec::new() };
        let frombola = c.side(Side::Frombola);
        let ships = (0..n as Seat)
            .map(|seat| Ship {
                seat,
                side: Side::Frombola,
                sector: BASE,
                profile: 0,
                tracks: frombola.start,
                experts: Experts::default(),
                experience: [0, 0],
                tech: None,
                imperator_calls: 0,
                special_missions: 0,
                pc: 0,
                px: 0,
                trophies: Vec::new(),
                x_cards: Vec::new(),
                revealed: Vec::new(),
                second_objective: false,
            })
            .collect();
        let mut g = Game {
            config,
            pb: Public {
                round: 1,
                seq: 0,
                first,
                active: first,
                pending: Pending::Settling,
                tasks: Vec::new(),
                ships,
                turn: TurnFlags::default(),
                planets: [None; 5],
                explored: [0; 5],
                contact_a1,
                contact_down: [contacts[0].is_some(), contacts[1].is_some()],
                contact_seen: [Vec::new(), Vec::new()],
                x_seen_by: Vec::new(),
                imperator,
                discard_up: Vec::new(),
                supply: Experts(ExpertKind::ALL.map(ExpertKind::tokens)),
                landing: None,
                mission: None,
                end: None,
                outcome: None,
            },
            hid: Hidden {
                rng,
                deck,
                discard_down: Vec::new(),
                hands: vec![Vec::new(); n],
                objectives: vec![Vec::new(); n],
                offers: vec![Vec::new(); n],
                objective_pile,
                piles: [pile_a, pile_b],
                pile_x: c.pile(Pile::X),
                contacts,
                imperator_deck,
            },
        };
        for seat in g.order_from(first) {
            g.pb.tasks.push(Task::Profile(seat));
            for _ in 0..frombola.experts_at_start {
                g.pb.tasks.push(Task::StartingExpert(seat));
            }
            g.pb.tasks.push(Task::Objective(seat));
        }
        g.pb.tasks.push(Task::StartTurn(first));
        let mut ev = Vec::new();
        g.settle(&mut ev);
        Ok(g)
    }
}
