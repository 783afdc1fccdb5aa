//! X-ODUS's entry in the agent's registry (`games::GAMES`): its
//! policies by name, and a seat player that reads the seat's wire state
//! into the engine's view, keeps one policy across the seat's decisions,
//! heeds human teammates' calls (`calls.rs`) and says where it heads and
//! why when its target changes.

use super::calls::{Calls, destination, place};
use super::policy::{Policy, PolicyKind, options_for};
use super::skill::{challenge_in, free_ships, group_odds};
use crate::budget::Budget;
use crate::players::{GameAi, PlayerSpec, Remark, SeatPlayer};
use tabletop::pb;
use tabletop::xodus_pb::{XodusSignal, XodusSignalKind};
use xodus_engine::content::{Challenge, Content, SystemKind};
use xodus_engine::{Hex, Seat, View};

/// X-ODUS's AI captains.
pub struct XodusAi;

impl GameAi for XodusAi {
    fn game_type(&self) -> &'static str {
        xodus_wire::GAME_TYPE
    }

    fn policies(&self) -> &'static [&'static str] {
        &["random", "heuristic", "mcts"]
    }

    fn searches(&self, policy: &str) -> bool {
        PolicyKind::parse(policy) == Some(PolicyKind::Mcts)
    }

    fn player(&self, spec: PlayerSpec<'_>) -> Option<Box<dyn SeatPlayer>> {
        let policy = match PolicyKind::parse(spec.policy)? {
            PolicyKind::Mcts if spec.threads > 1 => {
                Box::new(super::policy::mcts::MctsPolicy::new(spec.agent_seed ^ 0x6d63_7473).with_threads(spec.threads))
                    as Box<dyn Policy>
            }
            kind => kind.build(spec.seed),
        };
        Some(Box::new(Captain {
            policy,
            calls: Calls::default(),
            heading: None,
            remark: None,
            said_bar: None,
            said_stop: false,
        }))
    }

    fn selfplay(&self, args: &crate::runner::SelfplayArgs) -> anyhow::Result<()> {
        super::cli::selfplay_games(args)
    }

    fn hint(&self, st: &pb::GameState, budget: &Budget, seed: u64) -> Result<Vec<pb::HintOption>, String> {
        let view = xodus_wire::view(st).map_err(|e| e.to_string())?;
        let seat = st.viewer_seat.and_then(|s| Seat::try_from(s).ok()).ok_or("a hint is for a seat's own state")?;
        Ok(super::hint::hint(&view, seat, budget, seed))
    }
}

/// One captain: its policy, which may keep a plan between decisions, the
/// calls it heeds, the system it last said it heads to, and what it has
/// to say after its pick.
struct Captain {
    policy: Box<dyn Policy>,
    calls: Calls,
    heading: Option<Hex>,
    remark: Option<Remark>,
    /// The last reason a call gave it to pass an option up (said once).
    said_bar: Option<String>,
    /// It said why it stopped where it is (sealing, repairing).
    said_stop: bool,
}

impl SeatPlayer for Captain {
    fn choose(&mut self, st: &pb::GameState, seat: u8, budget: &Budget, _seed: u64) -> Result<Option<String>, String> {
        let mut view = xodus_wire::view(st).map_err(|e| e.to_string())?;
        self.remark = self.calls.settle(&view).map(|text| Remark { text, signal: None, intent: true, to_seat: None });
        // The calls bar some of the seat's options (`Calls::restrict`).
        let barred = self.calls.restrict(&mut view, seat);
        let pick = self.policy.choose(&view, seat, budget);
        // A search may reach past the options it was given: hold it to them.
        let pick = pick
            .filter(|id| view.decision.options.iter().any(|o| &o.id == id && o.seats.contains(&seat)))
            .or_else(|| options_for(&view, seat).first().map(|o| o.id.clone()));
        if let Some(id) = &pick {
            self.remark = self.remark.take().or_else(|| self.intent(&view, seat, id));
        }
        if self.remark.is_none()
            && let Some(why) = barred
            && self.said_bar.as_deref() != Some(why.as_str())
        {
            self.said_bar = Some(why.clone());
            self.remark = Some(Remark { text: why, signal: None, intent: true, to_seat: None });
        }
        Ok(pick)
    }

    fn hear(&mut self, seat: u8, line: &pb::TalkLine) {
        self.calls.hear(seat, line);
    }

    fn remark(&mut self) -> Option<Remark> {
        self.remark.take()
    }
}

impl Captain {
    /// What the captain says when it stops to seal or to repair (once for
    /// each stop, from what its view shows).
    fn stop_intent(&mut self, view: &View, seat: Seat, choice: &xodus_engine::Choice) -> Option<Remark> {
        let ship = view.public.ships.iter().find(|s| s.seat == seat)?;
        let text = match choice {
            xodus_engine::Choice::Explore
                if !ship.keys.is_empty()
                    && view.public.tiles.iter().any(|t| {
                        t.hex == ship.hex && Content::get().tiles[usize::from(t.tile)].kind == SystemKind::MainRift
                    }) =>
            {
                format!("Putting my {} Key(s) on the Main Rift now.", ship.keys.len())
            }
            xodus_engine::Choice::Maintenance => format!("Repairing at {} first.", place(ship.hex, view)),
            _ => return None,
        };
        // Said once per stop: the next move names a new heading.
        if self.heading == Some(ship.hex) && self.said_stop {
            return None;
        }
        self.heading = Some(ship.hex);
        self.said_stop = true;
        Some(Remark { text, signal: None, intent: true, to_seat: None })
    }

    /// When the pick moves the ship towards a system other than the one
    /// it last named: where, and why, from what the view shows.
    fn intent(&mut self, view: &View, seat: Seat, id: &str) -> Option<Remark> {
        let option = view.decision.options.iter().find(|o| o.id == id)?;
        if let Some(plan) = self.stop_intent(view, seat, &option.choice) {
            return Some(plan);
        }
        let to = destination(option)?;
        if self.heading == Some(to) {
            return None;
        }
        self.heading = Some(to);
        self.said_stop = false;
        let ship = view.public.ships.iter().find(|s| s.seat == seat)?;
        let tile = view.public.tiles.iter().find(|t| t.hex == to);
        let why = match tile {
            None => "to reveal what lies there".to_string(),
            Some(t) if Content::get().tiles[usize::from(t.tile)].kind == SystemKind::MainRift => {
                if ship.keys.is_empty() {
                    "the Main Rift".to_string()
                } else {
                    format!("carrying {} Key(s) to the Main Rift", ship.keys.len())
                }
            }
            Some(t) if t.key_marker.is_some() => key_plan(view, seat, to),
            Some(t) if t.exploration_marker => "to explore it".to_string(),
            Some(_) => "on my way".to_string(),
        };
        let signal = XodusSignal {
            kind: XodusSignalKind::HeadingTo as i32,
            system: Some(xodus_wire::enums::hex(to)),
            target: 0,
        };
        Some(Remark {
            text: format!("Heading to {}: {why}.", place(to, view)),
            // A signal needs a revealed system; a blind jump goes to none.
            signal: tile.map(|_| tabletop::any::pack(&signal)),
            intent: true,
            to_seat: None,
        })
    }
}

/// Why a Key's system is worth the trip, from its open Signal's challenge:
/// for a Skill Roll, the specials it needs and the odds of the captain's
/// dice alone, and with the best free teammate's (in words that fit an
/// AI's intent and a hint alike).
pub(super) fn key_plan(view: &View, seat: Seat, to: Hex) -> String {
    let pb = &view.public;
    match challenge_in(pb, to) {
        None => "its Precursor Key".to_string(),
        Some(Challenge::Trial { amount, .. }) => {
            let alone = group_odds(pb, &[seat], *amount);
            let partner = free_ships(pb)
                .filter(|&s| s != seat)
                .map(|s| (s, group_odds(pb, &[seat, s], *amount)))
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            let mut text = format!("its Key's Skill Roll needs {amount} special(s): {}% alone", percent(alone));
            if let Some((mate, with)) = partner.filter(|p| percent(p.1) > percent(alone)) {
                let kind = pb.ships.get(usize::from(mate)).map(|s| Content::get().ship(s.kind).name.as_str());
                text.push_str(&format!(", {}% with the {}", percent(with), kind.unwrap_or("next ship")));
            }
            text
        }
        Some(Challenge::Guardian { amount }) => format!("its Key's guardian (level {amount} or more) to defeat"),
        Some(Challenge::Repairs { amount }) => format!("its Key needs {amount} repair(s)"),
        Some(Challenge::Tribute { amount }) => format!("its Key asks {amount} scrap(s)"),
    }
}

/// A chance as a whole percentage.
fn percent(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * 100.0).round() as u32
}
