//! The server's own records of a game, independent of gRPC and of the
//! storage engine: who may sit where, who holds which seat (by token hash),
//! and the ordered log of accepted choices. The store persists exactly
//! these; the manager rebuilds the engine state from them.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Who may claim a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenTo {
    /// Only a human.
    Human,
    /// Only an AI agent.
    Ai,
    /// Anyone.
    Any,
}

impl OpenTo {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            OpenTo::Human => "human",
            OpenTo::Ai => "ai",
            OpenTo::Any => "any",
        }
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<OpenTo> {
        [OpenTo::Human, OpenTo::Ai, OpenTo::Any].into_iter().find(|o| o.as_str() == s)
    }

    /// Whether a claimant of this kind may take the seat.
    pub fn admits(self, who: ClaimantKind) -> bool {
        matches!((self, who), (OpenTo::Any, _) | (OpenTo::Human, ClaimantKind::Human) | (OpenTo::Ai, ClaimantKind::Ai))
    }
}

/// Who holds a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimantKind {
    /// A person.
    Human,
    /// An AI agent.
    Ai,
}

impl ClaimantKind {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimantKind::Human => "human",
            ClaimantKind::Ai => "ai",
        }
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<ClaimantKind> {
        [ClaimantKind::Human, ClaimantKind::Ai].into_iter().find(|o| o.as_str() == s)
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Some seat is unclaimed.
    Open,
    /// Every seat is claimed.
    Playing,
    /// The game has ended.
    Finished,
    /// Nobody chose for the abandonment time: the server ended it.
    Abandoned,
}

impl Status {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }

    /// Whether the game is over (finished or abandoned): no more choices,
    /// the seed is public, and it no longer counts against the caps.
    pub fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Abandoned)
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<Status> {
        [Status::Open, Status::Playing, Status::Finished, Status::Abandoned].into_iter().find(|o| o.as_str() == s)
    }
}

/// A claim on a seat: the hash of its secret token (the token itself is
/// never stored, so a copy of the database does not hand out seats).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Hex SHA-256 of the token.
    pub token_hash: String,
    /// Who claimed it.
    pub by: ClaimantKind,
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// Seat number.
    pub seat: u8,
    /// Who may claim it.
    pub open_to: OpenTo,
    /// The current claim, if any.
    pub claim: Option<Claim>,
}

/// The lasting facts about a game, apart from its choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Server-assigned id.
    pub id: String,
    /// The registered name of the game (its `GameType::name`).
    pub game_type: String,
    /// The game's configuration as JSON (the seed is inside: never send
    /// it as it is).
    pub config_json: String,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: i64,
    /// Status (kept in step with the seats and the outcome).
    pub status: Status,
    /// For forks: the source game and the sequence number copied.
    pub forked_from: Option<(String, u64)>,
    /// Seconds a human seat may stay silent before it is offered to AI
    /// agents; 0 = never.
    pub idle_timeout_s: u32,
    /// Every seat, in order.
    pub seats: Vec<SeatRecord>,
    /// Hex SHA-256 of the creator's token (None for games stored before
    /// creator tokens existed: nobody may read their seed while live).
    pub creator_hash: Option<String>,
    /// When the game ended (finished or abandoned), ms since the epoch.
    pub ended_ms: Option<i64>,
    /// For a resampled fork: where and with which seed its hidden part was
    /// drawn afresh, in order (a fork of a resampled fork adds one).
    pub resamples: Vec<Resample>,
    /// True when the creator chose the configuration's seed instead of
    /// letting the server draw it (a fork keeps its source's).
    pub seed_chosen: bool,
    /// The game's clock, when it has one.
    pub clock: Option<ClockRecord>,
}

/// A fork's fresh hidden part: after the first `at_seq` entries (copied
/// from the source, played under the source's config and seed), the state
/// is replaced by one sampled from its public view with `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resample {
    /// Entries played before the resampling.
    pub at_seq: u64,
    /// The fork's own secret seed.
    pub seed: u64,
}

impl Resample {
    /// The stored text of a list: `at:seed` pairs joined by `;`.
    pub fn encode(list: &[Resample]) -> Option<String> {
        (!list.is_empty())
            .then(|| list.iter().map(|r| format!("{}:{}", r.at_seq, r.seed)).collect::<Vec<_>>().join(";"))
    }

    /// Parses [`Resample::encode`]'s text.
    pub fn decode(text: &str) -> Option<Vec<Resample>> {
        text.split(';')
            .map(|pair| {
                let (at, seed) = pair.split_once(':')?;
                Some(Resample { at_seq: at.parse().ok()?, seed: seed.parse().ok()? })
            })
            .collect()
    }
}

/// What a history entry does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// An option picked.
    Choice,
    /// The last effective choice taken back.
    Undo,
}

impl EntryKind {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Choice => "choice",
            EntryKind::Undo => "undo",
        }
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<EntryKind> {
        [EntryKind::Choice, EntryKind::Undo].into_iter().find(|o| o.as_str() == s)
    }
}

/// One history entry: an accepted choice or an undo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRecord {
    /// Sequence number, from 1.
    pub seq: u64,
    /// What it does.
    pub kind: EntryKind,
    /// The seat that chose.
    pub seat: u8,
    /// The option id picked ("undo" for an undo).
    pub option_id: String,
    /// When it was accepted, ms since the Unix epoch.
    pub at_ms: i64,
    /// Who made the choice for the seat (None: an undo, or stored before
    /// this was recorded).
    pub played_by: Option<PlayedBy>,
    /// The seat's clock after the choice, in ms (games with a clock, for
    /// a choice made while the seat's clock ran).
    pub clock_ms: Option<i64>,
}

#[cfg(test)]
impl EntryRecord {
    /// A choice by `seat`'s holder, with no clock.
    pub fn choice(seq: u64, seat: u8, option_id: String, at_ms: i64) -> EntryRecord {
        EntryRecord {
            seq,
            kind: EntryKind::Choice,
            seat,
            option_id,
            at_ms,
            played_by: Some(PlayedBy::Holder),
            clock_ms: None,
        }
    }
}

/// Who made a choice for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayedBy {
    /// The seat's holder.
    Holder,
    /// An AI agent standing in for the holder.
    StandIn,
    /// The server, for a seat whose time ran out.
    Server,
}

impl PlayedBy {
    /// Stable text form, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayedBy::Holder => "holder",
            PlayedBy::StandIn => "stand_in",
            PlayedBy::Server => "server",
        }
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<PlayedBy> {
        [PlayedBy::Holder, PlayedBy::StandIn, PlayedBy::Server].into_iter().find(|o| o.as_str() == s)
    }
}

/// A game as loaded from the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's record.
    pub record: GameRecord,
    /// Its choices, in sequence order.
    pub entries: Vec<EntryRecord>,
    /// Its table talk, in talk_seq order.
    pub talk: Vec<TalkRecord>,
    /// The seats each seat's holder does not hear (MuteSeat).
    pub mutes: Vec<MuteRecord>,
}

/// The seats one seat does not hear (MuteSeat), as stored: kept with the
/// talk (its row's talk_seq is `-1 - seat`, apart from the lines), and
/// only for the holder who chose it (its token's hash): a seat that
/// changes hands hears everyone again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MuteRecord {
    /// The seat that does not hear.
    pub seat: u8,
    /// Hash of the token of the holder who chose it.
    pub holder: String,
    /// The seats it does not hear.
    pub muted: Vec<u8>,
}

impl MuteRecord {
    /// The talk_seq of the row that keeps `seat`'s mutes.
    pub fn row(seat: u8) -> i64 {
        -1 - i64::from(seat)
    }
}

/// What the lobby needs of a stored game without replaying it: the row's
/// own columns and the public summary last stored (protobuf bytes of a
/// `GameSummary`; `None` for games stored before summaries were).
#[derive(Clone, Debug)]
pub struct StoredBrief {
    /// The game's id.
    pub id: String,
    /// Creation stamp.
    pub created_ms: i64,
    /// Status.
    pub status: Status,
    /// When it ended.
    pub ended_ms: Option<i64>,
    /// When it last moved (`None` before this was stored).
    pub last_move_ms: Option<i64>,
    /// Entries stored (`None` before this was stored).
    pub seq: Option<u64>,
    /// The public summary, encoded.
    pub summary: Option<Vec<u8>>,
}

/// Hex SHA-256 of a seat token.
pub fn hash_token(token: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(token.as_bytes());
    // Checked on every authenticated call: one allocation, no formatting.
    let mut hex = String::with_capacity(2 * digest.len());
    for b in digest {
        hex.push(char::from(HEX[usize::from(b >> 4)]));
        hex.push(char::from(HEX[usize::from(b & 0x0f)]));
    }
    hex
}

/// A fresh secret seat token: 128 random bits as 32 hex characters.
pub fn new_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// A fresh game id.
pub fn new_game_id() -> String {
    format!("g-{:016x}", rand::random::<u64>())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// What the server knows about a seat's presence. Kept in memory only: after
/// a restart every seat starts present again and stand-in tokens are void.
#[derive(Clone, Debug)]
pub struct Presence {
    /// Since when the game has waited on the seat (or last heard from it).
    pub since: tokio::time::Instant,
    /// Silent past the game's idle timeout: offered to AI agents.
    pub idle: bool,
    /// Hash of the token of the AI agent standing in, if any.
    pub stand_in: Option<String>,
    /// Hash of the token the seat's last holder gave up with ReleaseSeat,
    /// so that a claim sent with it is told the seat was released.
    pub released: Option<String>,
    /// Hash of the token of the last stand-in dismissed (by the holder's
    /// return), so that its next request is told why it stopped working.
    pub dismissed: Option<String>,
}

impl Presence {
    /// A present seat.
    pub fn now() -> Presence {
        Presence { since: tokio::time::Instant::now(), idle: false, stand_in: None, released: None, dismissed: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_hash_is_the_lowercase_hex_sha256_that_stored_games_hold() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1: stored claims compare
        // against this exact text.
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}

/// Which clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// A bank, topped up after each choice, capped.
    Fischer,
    /// A fixed time for each decision.
    PerMove,
    /// A bank for the whole game.
    Absolute,
}

/// What happens when a seat's time runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// An AI agent stands in until the holder returns.
    StandIn,
    /// The server passes for the seat.
    Skip,
    /// The seat forfeits: ranked last, passed for from then on.
    Forfeit,
}

/// A game's clock as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRecord {
    /// Which clock.
    pub kind: ClockKind,
    /// Fischer and absolute: each seat's starting time, ms.
    pub initial_ms: i64,
    /// Fischer: added after each of a seat's choices, ms.
    pub increment_ms: i64,
    /// Fischer: the most a seat may hold, ms (0: no cap).
    pub cap_ms: i64,
    /// Per move: the time of each decision, ms.
    pub per_move_ms: i64,
    /// What happens when a seat's time runs out.
    pub on_timeout: OnTimeout,
    /// When the clocks started: the first moment every seat was claimed.
    #[serde(default)]
    pub started_ms: Option<i64>,
    /// The seats that forfeited, in the order they did.
    #[serde(default)]
    pub forfeited: Vec<u8>,
}

/// Who a line of table talk is addressed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Every seat, and spectators.
    Table,
    /// The speaker's team (every seat of a cooperative game).
    Team,
    /// One seat, and the speaker.
    Seat(u8),
}

/// A game's own signal in a line of talk: its typed message, packed, and
/// the words the game gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalRecord {
    /// The message's type URL.
    pub type_url: String,
    /// The encoded message.
    pub value: Vec<u8>,
    /// The signal in words, as the game wrote them.
    pub words: String,
}

/// One line of table talk, as stored (JSON, one row per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TalkRecord {
    /// Its number in the game's talk, from 1.
    pub talk_seq: u64,
    /// The game's seq when it was said.
    pub game_seq: u64,
    /// The seat that spoke.
    pub speaker: u8,
    /// The seat was held by an AI (or stood in for by one) when it spoke.
    pub speaker_ai: bool,
    /// Who it was addressed to.
    pub audience: Audience,
    /// Plain text (may be empty with a signal).
    pub text: String,
    /// The game's signal, if any.
    pub signal: Option<SignalRecord>,
    /// An AI's statement of its plan.
    pub intent: bool,
    /// When the server accepted it, ms since the epoch.
    pub said_ms: i64,
}

impl TalkRecord {
    /// Whether `seat` hears this line (before mutes): lines to the table
    /// and the team (a cooperative game's team is every seat; the manager
    /// refuses TEAM elsewhere), its own, and those addressed to it.
    pub fn reaches(&self, seat: u8) -> bool {
        match self.audience {
            Audience::Table | Audience::Team => true,
            Audience::Seat(to) => to == seat || self.speaker == seat,
        }
    }
}
