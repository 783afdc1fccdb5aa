//! High Card: a tiny competitive card game that shows how a third game
//! plugs into the service (this crate, and one line in the server's
//! registry; `xodus-server --demo-games` hosts it) and proves the hosting
//! contract hosts a game the service was not written for. Two seats; nine cards, 1 to 9, shuffled by the seed. Each seat holds
//! three cards nobody else sees; the deck is hidden from all. On its turn a
//! seat selects a card of its hand (a private step that may be undone), then
//! plays it: the card is shown, scores its value, and the seat draws from
//! the deck (a hidden draw, which closes the door to undo). After three
//! plays each, the higher score wins.

use std::sync::Arc;
use tabletop::pb;
use tabletop_service::game::{Applied, GameError, GameType, HostedGame, Outcome, Refusal, Seat, Setup, Viewer};

/// The registered game type.
pub struct HighCard;

/// The game type, ready to register.
pub fn game_type() -> Arc<dyn GameType> {
    Arc::new(HighCard)
}

/// A small deterministic generator (splitmix64).
#[derive(Clone, Debug, Hash)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn shuffle(&mut self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// One table.
#[derive(Clone, Debug)]
pub struct Table {
    seed: u64,
    rng: Rng,
    deck: Vec<u8>,
    hands: [Vec<u8>; 2],
    selected: Option<u8>,
    played: Vec<(Seat, u8)>,
    turn: Seat,
}

const PLAYS: usize = 6;

impl Table {
    fn new(seed: u64) -> Table {
        let mut rng = Rng(seed);
        let mut deck: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut deck);
        let hands = [deck.split_off(6), deck.split_off(3)];
        Table { seed, rng, deck, hands, selected: None, played: Vec::new(), turn: 0 }
    }

    fn score(&self, seat: Seat) -> i64 {
        self.played.iter().filter(|(s, _)| *s == seat).map(|(_, c)| i64::from(*c)).sum()
    }

    fn over(&self) -> bool {
        self.played.len() >= PLAYS
    }

    fn options(&self) -> Vec<(String, String)> {
        if self.over() {
            return Vec::new();
        }
        match self.selected {
            None => self.hands[usize::from(self.turn)]
                .iter()
                .map(|c| (format!("select:{c}"), format!("Select {c}")))
                .collect(),
            // The decision is public: its label must not name the card.
            Some(_) => vec![("play".into(), "Play the selected card".into())],
        }
    }
}

impl HostedGame for Table {
    fn seat_roles(&self) -> Vec<String> {
        vec!["north".into(), "south".into()]
    }

    fn decision(&self) -> pb::Decision {
        let seats = vec![u32::from(self.turn)];
        pb::Decision {
            kind: if self.over() {
                "game_over"
            } else if self.selected.is_some() {
                "play"
            } else {
                "select"
            }
            .into(),
            deciders: if self.over() { vec![] } else { seats.clone() },
            prompt: "Pick a card".into(),
            options: self
                .options()
                .into_iter()
                .map(|(id, label)| pb::ChoiceOption {
                    payload_json: format!("\"{id}\""),
                    id,
                    label,
                    seats: seats.clone(),
                    detail: None,
                })
                .collect(),
        }
    }

    fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Applied, Refusal> {
        if self.over() {
            return Err(Refusal::GameOver);
        }
        if seat != self.turn {
            return Err(Refusal::NotYourDecision);
        }
        if !self.options().iter().any(|(id, _)| id == option_id) {
            return Err(Refusal::Illegal);
        }
        let event = |kind: &str, json: String| pb::Event {
            kind: kind.into(),
            summary: kind.into(),
            event_json: json,
            detail: None,
        };
        if let Some(card) = option_id.strip_prefix("select:").and_then(|c| c.parse::<u8>().ok()) {
            self.selected = Some(card);
            // Only the selecting seat knows which card: the event says none.
            return Ok(Applied {
                events: vec![event("card_selected", format!("{{\"seat\":{seat}}}"))],
                undoable: true,
            });
        }
        let card = self.selected.take().ok_or(Refusal::Illegal)?;
        let hand = &mut self.hands[usize::from(seat)];
        hand.retain(|&c| c != card);
        self.played.push((seat, card));
        let mut events = vec![event("card_played", format!("{{\"seat\":{seat},\"card\":{card}}}"))];
        if let Some(drawn) = self.deck.pop() {
            hand.push(drawn);
            events.push(event("card_drawn", format!("{{\"seat\":{seat}}}")));
        }
        self.turn = 1 - self.turn;
        Ok(Applied { events, undoable: false })
    }

    fn view_detail(&self, viewer: Viewer) -> pb::game_state::Detail {
        let hand = match viewer {
            Viewer::Seat(s) => serde_json::json!(self.hands[usize::from(s)]),
            Viewer::Spectator => serde_json::Value::Null,
        };
        let selected = match viewer {
            Viewer::Seat(s) if s == self.turn => serde_json::json!(self.selected),
            _ => serde_json::Value::Null,
        };
        let view = serde_json::json!({
            "hand": hand,
            "selected": selected,
            "hand_sizes": [self.hands[0].len(), self.hands[1].len()],
            "deck_size": self.deck.len(),
            "played": self.played,
            "scores": [self.score(0), self.score(1)],
        });
        pb::game_state::Detail::Json(pb::JsonState { view_json: view.to_string() })
    }

    fn schema_version(&self) -> u32 {
        1
    }

    fn type_name(&self) -> &'static str {
        "high_card"
    }

    fn hidden_hash(&self) -> u64 {
        // The deck, both hands and the selection: what some seat cannot see.
        let mut bytes = Vec::new();
        for part in [&self.deck, &self.hands[0], &self.hands[1]] {
            bytes.push(part.len() as u8);
            bytes.extend(part);
        }
        bytes.push(self.selected.unwrap_or(0));
        bytes.extend(self.rng.0.to_le_bytes());
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
    }

    fn secrets(&self, seat: Seat) -> Vec<String> {
        // Card numbers are their ids ("select:7").
        self.hands[usize::from(seat)].iter().map(u8::to_string).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over().then(|| {
            let scores = vec![self.score(0), self.score(1)];
            let ranking = if scores[1] > scores[0] { vec![1, 0] } else { vec![0, 1] };
            let winners = vec![ranking[0]];
            Outcome::Ranked { scores, ranking, winners, truncated: false, cause: "hands_played".into(), round: 3 }
        })
    }

    fn round(&self) -> u32 {
        (self.played.len() / 2) as u32 + 1
    }

    fn state_hash(&self) -> u64 {
        // FNV-1a over a fixed byte layout of every field.
        let mut bytes = Vec::new();
        bytes.extend(self.seed.to_le_bytes());
        bytes.extend(self.rng.0.to_le_bytes());
        for part in [&self.deck, &self.hands[0], &self.hands[1]] {
            bytes.push(part.len() as u8);
            bytes.extend(part);
        }
        bytes.push(self.selected.unwrap_or(0));
        bytes.extend(self.played.iter().flat_map(|&(s, c)| [s, c]));
        bytes.push(self.turn);
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
    }

    fn resampled(&self, viewer: Viewer, seed: u64) -> Box<dyn HostedGame> {
        // What the viewer cannot see: which unplayed card is where, except
        // for a seat's own hand (and its own selection).
        let own = match viewer {
            Viewer::Seat(s) => Some(usize::from(s)),
            Viewer::Spectator => None,
        };
        let known: &[u8] = own.map_or(&[], |s| &self.hands[s]);
        let mut unseen: Vec<u8> =
            (1..=9).filter(|c| !self.played.iter().any(|(_, p)| p == c) && !known.contains(c)).collect();
        let mut rng = Rng(seed);
        rng.shuffle(&mut unseen);
        let mut hands: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = if own == Some(s) { self.hands[s].clone() } else { unseen.drain(..self.hands[s].len()).collect() };
        }
        // That a card is selected is public (the decision says "play");
        // which one is the selecting seat's secret.
        let turn = usize::from(self.turn);
        let selected = match self.selected {
            Some(card) if own == Some(turn) => Some(card),
            Some(_) => hands[turn].first().copied(),
            None => None,
        };
        Box::new(Table { seed, rng, deck: unseen, hands, selected, played: self.played.clone(), turn: self.turn })
    }

    fn boxed_clone(&self) -> Box<dyn HostedGame> {
        Box::new(self.clone())
    }
}

impl GameType for HighCard {
    fn name(&self) -> &'static str {
        "high_card"
    }

    fn wire_kind(&self) -> pb::GameKind {
        pb::GameKind::Unspecified
    }

    fn setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, GameError> {
        self.parse_setup(request, random_seed).map_err(GameError::InvalidSetup)
    }

    fn start(&self, config_json: &str) -> Result<Box<dyn HostedGame>, GameError> {
        Ok(Box::new(Table::new(tabletop_service::game::seed_of(config_json))))
    }
}

impl HighCard {
    fn parse_setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, String> {
        let seed = match &request.setup {
            Some(pb::create_game_request::Setup::SetupJson(json)) => {
                let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("setup_json: {e}"))?;
                match &v["seed"] {
                    serde_json::Value::Null => random_seed,
                    serde_json::Value::String(s) => s.parse().map_err(|_| "setup_json.seed is not a number")?,
                    other => other.as_u64().ok_or("setup_json.seed is not a number")?,
                }
            }
            None => random_seed,
            Some(_) => return Err("High Card takes its setup as setup_json".into()),
        };
        Ok(Setup { config_json: serde_json::json!({ "seed": seed.to_string() }).to_string(), seats: 2 })
    }
}
