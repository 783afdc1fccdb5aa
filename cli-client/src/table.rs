//! One game's state as any game shows it: the platform's game type,
//! sequence number, pending decision (prompt, deciders, options with ids,
//! labels and seats) and outcome, plus the game's own view when this
//! client has a reader for that game (its reader, in `games/`, fills it
//! in: `games::read`). A game the client cannot read is still played and
//! watched from the platform part alone. No gRPC calls here: `remote`
//! fetches, this module reads.

use crate::clock::SeatClock;
use serde::Serialize;
use std::any::Any;
use std::fmt::Debug;
use tabletop::pb;

/// An event's line as any game shows it: the server's summary, or the
/// event's kind in words when it sent none.
pub fn event_line(e: &pb::Event) -> String {
    if e.summary.is_empty() { e.kind.replace('_', " ") } else { e.summary.clone() }
}

/// One option of the pending decision, as the platform offers it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Offer {
    /// Stable id, sent back to choose it.
    pub id: String,
    /// Short label.
    pub label: String,
    /// Seats that may pick it.
    pub seats: Vec<u32>,
    /// The option's typed form as the game packs it (VII Legio: a
    /// `legio.v1.LegioChoice` with its price), when the server sent one.
    #[serde(skip)]
    pub detail: Option<Packed>,
}

/// A packed protobuf message (a `google.protobuf.Any`'s two fields).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    /// The message's type URL.
    pub type_url: String,
    /// Its encoded bytes.
    pub value: Vec<u8>,
}

impl Packed {
    /// The message of type `M` it holds, if that is its type and it decodes.
    pub fn unpack<M: prost::Name + Default>(&self) -> Option<M> {
        tabletop::any::unpack(&prost_types::Any { type_url: self.type_url.clone(), value: self.value.clone() })
    }
}

/// The pending decision, as the platform sends it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Snake-case kind.
    pub kind: String,
    /// Seats that may decide now.
    pub deciders: Vec<u32>,
    /// What is asked.
    pub prompt: String,
    /// The options this viewer is shown.
    pub options: Vec<Offer>,
}

impl Decision {
    /// From the wire.
    pub fn from_wire(d: &pb::Decision) -> Decision {
        Decision {
            kind: d.kind.clone(),
            deciders: d.deciders.clone(),
            prompt: d.prompt.clone(),
            options: d
                .options
                .iter()
                .map(|o| Offer {
                    id: o.id.clone(),
                    label: o.label.clone(),
                    seats: o.seats.clone(),
                    detail: o.detail.as_ref().map(|a| Packed { type_url: a.type_url.clone(), value: a.value.clone() }),
                })
                .collect(),
        }
    }

    /// The options `seat` may pick.
    pub fn options_for(&self, seat: u32) -> Vec<&Offer> {
        self.options.iter().filter(|o| o.seats.contains(&seat)).collect()
    }
}

/// How a game ended, for any game: cooperative (`won`) or ranked
/// (`scores`, `ranking`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// "team" or "ranked" ("" when the server did not say).
    pub kind: String,
    /// Cooperative games: the players won.
    pub won: bool,
    /// Why it ended, snake-case.
    pub cause: String,
    /// The round it ended in (0 for games without rounds).
    pub round: u32,
    /// Ranked games: each seat's score, in seat order.
    pub scores: Vec<i64>,
    /// Ranked games: seats from first to last place (empty when the game
    /// was cut short and has no ranking).
    pub ranking: Vec<u32>,
    /// Ranked games: the game was cut short (a round limit): no ranking,
    /// no winner.
    pub truncated: bool,
    /// Ranked games: the winners (several when shared; none when nobody
    /// met the game's condition to win).
    pub winners: Vec<u32>,
}

impl Outcome {
    /// From the wire.
    pub fn from_wire(o: &pb::Outcome) -> Outcome {
        let kind = match pb::OutcomeKind::try_from(o.kind) {
            Ok(pb::OutcomeKind::Team) => "team",
            Ok(pb::OutcomeKind::Ranked) => "ranked",
            _ => "",
        };
        Outcome {
            kind: kind.to_string(),
            won: o.won,
            cause: o.cause.clone(),
            round: o.round,
            scores: o.scores.clone(),
            ranking: o.ranking.clone(),
            truncated: o.truncated,
            winners: o.winners.clone(),
        }
    }

    /// A ranked outcome (scores per seat) rather than a team result.
    pub fn is_ranked(&self) -> bool {
        self.kind == "ranked" || (self.kind.is_empty() && !self.scores.is_empty())
    }

    /// The result in words: "VICTORY (rift sealed) in round 9" for a team
    /// game, "seat 2 first with 31, then seat 0 (24), seat 1 (19)
    /// (declared) in round 12" for a ranked one, "no ranking" when a ranked
    /// game was cut short.
    pub fn words(&self) -> String {
        let cause = self.cause.replace('_', " ");
        let round = if self.round > 0 { format!(" in round {}", self.round) } else { String::new() };
        if !self.is_ranked() {
            return format!("{} ({cause}){round}", if self.won { "VICTORY" } else { "DEFEAT" });
        }
        let score = |s: u32| self.scores.get(s as usize).copied().unwrap_or(0);
        if self.truncated || self.ranking.is_empty() {
            let all: Vec<String> = (0..self.scores.len() as u32).map(|s| format!("seat {s} ({})", score(s))).collect();
            return format!("OVER, truncated: no ranking ({cause}){round}; scores {}", all.join(", "));
        }
        let places: Vec<String> = self.ranking.iter().map(|s| format!("seat {s} ({})", score(*s))).collect();
        let winners = match self.winners.as_slice() {
            [] => "no winner".to_string(),
            [w] => format!("winner seat {w}"),
            ws => format!("winners {}", ws.iter().map(|w| format!("seat {w}")).collect::<Vec<_>>().join(", ")),
        };
        format!("OVER ({cause}){round}: {winners}; ranking {}", places.join(", "))
    }
}

/// A game's own view of a state, whatever its type: what the game's
/// reader (in `games/`) made of it, read back there with [`Table::view`].
pub trait GameView: Any + Debug + Send + Sync {
    /// The view as JSON (what `xodus view` prints under `state`).
    fn to_json(&self) -> serde_json::Value;
    /// A copy.
    fn clone_box(&self) -> Box<dyn GameView>;
    /// The view as `Any`, to be downcast to its type.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any + Debug + Clone + Serialize + Send + Sync> GameView for T {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
    fn clone_box(&self) -> Box<dyn GameView> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The game's own view, when this client reads that game.
#[derive(Debug)]
pub enum Typed {
    /// The game's own view (its type is the game's: see [`Table::view`]).
    Read(Box<dyn GameView>),
    /// A game this client has no reader for, or a state it could not read
    /// (the reason).
    Unread(Option<String>),
}

impl Typed {
    /// A game's own view.
    pub fn new(view: impl GameView) -> Typed {
        Typed::Read(Box::new(view))
    }
}

impl Clone for Typed {
    fn clone(&self) -> Typed {
        match self {
            Typed::Read(v) => Typed::Read(v.clone_box()),
            Typed::Unread(why) => Typed::Unread(why.clone()),
        }
    }
}

/// One game's state as a viewer sees it.
#[derive(Clone, Debug)]
pub struct Table {
    /// The game's registered name (its type, as the server names it).
    pub game_type: String,
    /// The sequence number of this state.
    pub seq: u64,
    /// The seat it was prepared for (None: a spectator).
    pub viewer_seat: Option<u32>,
    /// The pending decision.
    pub decision: Decision,
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
    /// The game's own view, when readable.
    pub typed: Typed,
    /// Every seat's clock, for a game with a clock (empty otherwise).
    pub clocks: Vec<SeatClock>,
    /// How many choices the shown state is behind the live game: a
    /// spectator of a live game whose spectator policy delays it
    /// (`GameSummary.spectator_delay`, VII Legio's default) sees it that
    /// far back. None when the state is live (a seat's view, a public or
    /// finished game), or when it is not known (a state that came without
    /// the game's summary).
    pub behind: Option<u64>,
    /// The seats the viewing seat does not hear (GetView's `muted`; none
    /// for a spectator, or for a state that came without it).
    pub muted: Vec<u32>,
}

impl Table {
    /// The platform part of a state, its own view not read (`games::read`
    /// reads both); a state that names no game is of `unnamed_type`.
    pub fn platform(state: &pb::GameState, unnamed_type: &str) -> Table {
        let game_type = if state.game_type.is_empty() { unnamed_type.to_string() } else { state.game_type.clone() };
        Table {
            game_type,
            seq: state.seq,
            viewer_seat: state.viewer_seat,
            decision: state.decision.as_ref().map(Decision::from_wire).unwrap_or_default(),
            outcome: state.outcome.as_ref().map(Outcome::from_wire),
            typed: Typed::Unread(None),
            clocks: state.clocks.iter().map(SeatClock::from_wire).collect(),
            behind: None,
            muted: Vec::new(),
        }
    }

    /// Notes the live game's seq (`GameSummary.seq`, sent with the state
    /// by GetView and with some stream updates) and so how far behind it
    /// this state is: only a spectator's state can be.
    pub fn set_live_seq(&mut self, live_seq: u64) {
        self.behind = (self.viewer_seat.is_none() && live_seq > self.seq).then(|| live_seq - self.seq);
    }

    /// "delayed: 10 choices behind the live game (seq 29); ..." for a
    /// delayed state, None for a live one.
    pub fn delay_words(&self) -> Option<String> {
        let n = self.behind?;
        let choices = if n == 1 { "choice" } else { "choices" };
        Some(format!(
            "delayed: this spectator's view is at seq {}, {n} {choices} behind the live game (seq {}); \
             a seat's own view is live (`xodus view GAME --seat N --token T`)",
            self.seq,
            self.seq + n
        ))
    }

    /// The game's own view as its type `V`, if the state was read as one
    /// (each game's module has a typed accessor: `games::<game>::view`).
    pub fn view<V: Any>(&self) -> Option<&V> {
        match &self.typed {
            Typed::Read(v) => v.as_any().downcast_ref(),
            Typed::Unread(_) => None,
        }
    }

    /// The game is over.
    pub fn over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The platform part as JSON, with the game's own view under `state`
    /// when readable (null otherwise). A game may print its own JSON
    /// instead (`ClientGame::view_json`).
    pub fn to_json(&self, game_id: &str) -> serde_json::Value {
        let state = match &self.typed {
            Typed::Read(v) => v.to_json(),
            Typed::Unread(_) => serde_json::Value::Null,
        };
        serde_json::json!({
            "game": game_id,
            "game_type": self.game_type,
            "seq": self.seq,
            "viewer_seat": self.viewer_seat,
            "decision": self.decision,
            "outcome": self.outcome,
            "clocks": self.clocks,
            "behind": self.behind,
            "state": state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    fn wire_state(game_type: &str) -> pb::GameState {
        pb::GameState {
            game_id: "g-1".into(),
            seq: 7,
            game_type: game_type.into(),
            viewer_seat: Some(1),
            decision: Some(pb::Decision {
                kind: "bid".into(),
                deciders: vec![1],
                prompt: "Bid or pass".into(),
                options: vec![
                    pb::ChoiceOption {
                        id: "bid:3".into(),
                        label: "Bid 3".into(),
                        seats: vec![1],
                        ..Default::default()
                    },
                    pb::ChoiceOption { id: "pass".into(), label: "Pass".into(), seats: vec![1], ..Default::default() },
                ],
            }),
            detail: Some(pb::game_state::Detail::Json(pb::JsonState { view_json: "{\"cards\":3}".into() })),
            ..Default::default()
        }
    }

    #[test]
    fn a_game_without_a_reader_keeps_its_decision_and_is_not_refused() {
        let t = games::read(&wire_state("high_card"));
        assert!(matches!(t.typed, Typed::Unread(None)), "no reader, no error: {:?}", t.typed);
        assert_eq!(t.game_type, "high_card");
        assert_eq!(t.seq, 7);
        assert_eq!(t.decision.prompt, "Bid or pass");
        let ids: Vec<&str> = t.decision.options_for(1).iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["bid:3", "pass"]);
        assert!(t.decision.options_for(0).is_empty());
        let j = t.to_json("g-1");
        assert_eq!(j["game_type"], "high_card");
        assert_eq!(j["decision"]["options"][1]["label"], "Pass");
        assert_eq!(j["decision"]["options"][0]["seats"][0], 1);
        assert!(j["state"].is_null() && j["outcome"].is_null());
    }

    #[test]
    fn an_unreadable_state_of_a_known_game_says_why() {
        let t = games::read(&wire_state("legio"));
        assert!(matches!(&t.typed, Typed::Unread(Some(why)) if !why.is_empty()), "{:?}", t.typed);
        assert_eq!(t.decision.options.len(), 2, "the decision is still there");
        let t = games::read(&wire_state(""));
        assert_eq!(t.game_type, "xodus", "an unnamed game is X-ODUS (older servers)");
    }

    #[test]
    fn a_spectators_state_says_how_far_behind_the_live_game_it_is() {
        let mut spectator = games::read(&pb::GameState { viewer_seat: None, ..wire_state("high_card") });
        spectator.set_live_seq(17);
        assert_eq!(spectator.behind, Some(10), "seq 7 shown, 17 live");
        let words = spectator.delay_words().expect("delayed");
        assert!(words.starts_with("delayed:") && words.contains("10 choices behind the live game (seq 17)"), "{words}");
        assert_eq!(spectator.to_json("g-1")["behind"], 10);
        spectator.set_live_seq(7);
        assert_eq!((spectator.behind, spectator.delay_words()), (None, None), "live");
        assert!(spectator.to_json("g-1")["behind"].is_null());
        let mut seat = games::read(&wire_state("high_card"));
        seat.set_live_seq(17);
        assert_eq!(seat.behind, None, "a seat's own state is never delayed");
    }

    #[test]
    fn outcomes_read_as_words_for_both_kinds() {
        let team =
            Outcome { kind: "team".into(), won: true, cause: "rift_sealed".into(), round: 9, ..Default::default() };
        assert_eq!(team.words(), "VICTORY (rift sealed) in round 9");
        let ranked = Outcome {
            kind: "ranked".into(),
            cause: "fifteen_px".into(),
            round: 12,
            scores: vec![24, 19, 31],
            ranking: vec![2, 0, 1],
            ..Default::default()
        };
        assert!(ranked.is_ranked());
        assert_eq!(
            ranked.words(),
            "OVER (fifteen px) in round 12: no winner; ranking seat 2 (31), seat 0 (24), seat 1 (19)"
        );
        let won = Outcome { winners: vec![2], ..ranked.clone() };
        assert!(won.words().contains(": winner seat 2; ranking seat 2 (31)"), "{}", won.words());
        let cut = Outcome { ranking: vec![], truncated: true, cause: "round_limit".into(), ..ranked };
        assert!(cut.words().starts_with("OVER, truncated: no ranking (round limit)"), "{}", cut.words());
    }
}
