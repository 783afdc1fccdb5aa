//! Table talk (Say, MuteSeat): lines of plain text or of a game's own
//! signals from a seat to the table, its team or one seat. Talk is kept with
//! the game apart from its choices (it never moves the game's seq), made
//! durable before anyone hears it, and sent to the streams that follow it
//! (`streams.rs`). Each seat may say a few lines at once, then one more
//! every few seconds, and may stop hearing another seat.

use super::seats::{Credentials, Holder};
use super::{Manager, blocking};
use crate::error::ServiceError;
use crate::game::Seat;
use crate::model::{Audience, ClaimantKind, MuteRecord, SignalRecord, TalkRecord};
use crate::wire::Saying;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tabletop::pb;

/// The longest line of text, in characters.
pub const MAX_TEXT_CHARS: usize = 280;
/// Lines a seat may say at once.
const BURST: f64 = 5.0;
/// Seconds until a seat may say one line more.
const REFILL_S: f64 = 2.0;

/// A game's talk in memory.
#[derive(Default)]
pub(super) struct Talk {
    /// Every line, talk_seq 1 first.
    pub(super) lines: Vec<Arc<TalkRecord>>,
    /// Per seat, the seats it does not hear.
    muted: BTreeMap<Seat, BTreeSet<Seat>>,
    /// Per seat, the lines it may still say at once and when that was
    /// counted.
    buckets: BTreeMap<Seat, (f64, tokio::time::Instant)>,
}

impl Talk {
    /// The talk stored with a game, with the mutes of each seat still held
    /// by the holder who chose them (`holders`: each seat's token hash).
    pub(super) fn stored(lines: Vec<TalkRecord>, mutes: Vec<MuteRecord>, holders: &[Option<String>]) -> Talk {
        let muted = mutes
            .into_iter()
            .filter(|m| holders.get(usize::from(m.seat)).and_then(Option::as_ref) == Some(&m.holder))
            .map(|m| (m.seat, m.muted.into_iter().collect()))
            .collect();
        Talk { lines: lines.into_iter().map(Arc::new).collect(), muted, ..Talk::default() }
    }

    /// The seats `seat` does not hear, in increasing order.
    pub(super) fn mutes_of(&self, seat: Seat) -> Vec<u32> {
        self.muted.get(&seat).map(|m| m.iter().map(|&s| u32::from(s)).collect()).unwrap_or_default()
    }

    /// `seat` changed hands: it hears everyone again.
    pub(super) fn forget_mutes(&mut self, seat: Seat) {
        self.muted.remove(&seat);
    }

    /// Whether `listeners` hear `line`: seats hear what is addressed to
    /// any of them, unless that seat muted the speaker; anyone else (no
    /// seat) hears what is said to the whole table.
    pub(super) fn hears(&self, listeners: &[Seat], line: &TalkRecord) -> bool {
        if listeners.is_empty() {
            return line.audience == Audience::Table;
        }
        listeners.iter().any(|&s| {
            line.reaches(s) && (line.speaker == s || !self.muted.get(&s).is_some_and(|m| m.contains(&line.speaker)))
        })
    }

    /// The lines after `after` that `listeners` hear, said at the game's
    /// seq `horizon` or before (a delayed spectator's), in order.
    pub(super) fn heard(&self, listeners: &[Seat], after: u64, horizon: u64) -> Vec<Arc<TalkRecord>> {
        self.lines
            .iter()
            .filter(|l| l.talk_seq > after && l.game_seq <= horizon && self.hears(listeners, l))
            .cloned()
            .collect()
    }

    /// Takes one line from `seat`'s allowance; when it has none, the
    /// seconds until it has.
    fn take_line(&mut self, seat: Seat) -> Result<(), f64> {
        let now = tokio::time::Instant::now();
        let (tokens, at) = self.buckets.entry(seat).or_insert((BURST, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() / REFILL_S).min(BURST);
        *at = now;
        if *tokens < 1.0 {
            return Err((1.0 - *tokens) * REFILL_S);
        }
        *tokens -= 1.0;
        Ok(())
    }
}

/// Talk is plain text of at most [`MAX_TEXT_CHARS`] characters, without
/// control characters (no line breaks: one line is one line).
pub fn check_text(text: &str) -> Result<(), ServiceError> {
    let n = text.chars().count();
    if n > MAX_TEXT_CHARS {
        return Err(ServiceError::BadRequest(format!(
            "text is {n} characters long; a line of talk has at most {MAX_TEXT_CHARS}"
        )));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(ServiceError::BadRequest(format!(
            "text holds the control character U+{:04X}; talk is one line of plain text",
            u32::from(c)
        )));
    }
    Ok(())
}

/// A stored line on the wire.
pub(super) fn wire_line(line: &TalkRecord) -> pb::TalkLine {
    let (audience, to_seat) = match line.audience {
        Audience::Table => (pb::TalkAudience::Table, None),
        Audience::Team => (pb::TalkAudience::Team, None),
        Audience::Seat(s) => (pb::TalkAudience::Seat, Some(u32::from(s))),
    };
    pb::TalkLine {
        talk_seq: line.talk_seq,
        game_seq: line.game_seq,
        speaker: u32::from(line.speaker),
        speaker_ai: line.speaker_ai,
        audience: audience as i32,
        to_seat,
        text: line.text.clone(),
        signal: line.signal.as_ref().map(|s| prost_types::Any { type_url: s.type_url.clone(), value: s.value.clone() }),
        signal_words: line.signal.as_ref().map(|s| s.words.clone()).unwrap_or_default(),
        intent: line.intent,
        said_at: Some(crate::wire::timestamp(line.said_ms)),
    }
}

impl Manager {}

impl super::api::Talk<'_> {
    /// Say: one line from the credentials' seat, durable before it is
    /// heard; the line as it was kept.
    pub async fn say(&self, game_id: &str, creds: &Credentials, saying: Saying) -> Result<pb::TalkLine, ServiceError> {
        check_text(&saying.text)?;
        if saying.text.trim().is_empty() && saying.signal.is_none() {
            return Err(ServiceError::BadRequest("nothing to say: send text, a signal, or both".into()));
        }
        let (slot, mut d) = self.game(game_id).await?;
        let (seat, holder) = self.auth(&mut d, creds)?;
        let seats = d.record.seats.len();
        match saying.audience {
            Audience::Team if !d.recipe.game_type.cooperative() => {
                return Err(ServiceError::NotNow(
                    "this game is competitive: it has no teams; say it to the table or to one seat".into(),
                ));
            }
            Audience::Seat(to) if usize::from(to) >= seats => {
                return Err(ServiceError::BadRequest(format!(
                    "to_seat {to} does not exist; this game has seats 0 to {}",
                    seats - 1
                )));
            }
            _ => {}
        }
        let signal = match &saying.signal {
            None => None,
            Some(any) => {
                let words = d
                    .game
                    .signal_words(seat, any)
                    .map_err(|why| ServiceError::BadRequest(format!("signal refused: {why}")))?;
                Some(SignalRecord { type_url: any.type_url.clone(), value: any.value.clone(), words })
            }
        };
        d.talk.take_line(seat).map_err(|wait| {
            ServiceError::OverLimit(format!(
                "a seat may say {BURST} lines at once, then one more every {REFILL_S} s; retry in {:.1} s",
                wait.max(0.1)
            ))
        })?;
        let by_ai = holder == Holder::StandIn
            || d.record.seats[usize::from(seat)].claim.as_ref().is_some_and(|c| c.by == ClaimantKind::Ai);
        let line = TalkRecord {
            talk_seq: d.talk.lines.len() as u64 + 1,
            game_seq: d.seq(),
            speaker: seat,
            speaker_ai: by_ai,
            audience: saying.audience,
            text: saying.text,
            signal,
            intent: saying.intent,
            said_ms: crate::model::now_ms(),
        };
        let (store, id, stored) = (Arc::clone(&self.store), game_id.to_string(), line.clone());
        blocking(move || store.append_talk(&id, &stored)).await?;
        let line = Arc::new(line);
        d.talk.lines.push(Arc::clone(&line));
        let _ = slot.talk.send(Arc::clone(&line));
        Ok(wire_line(&line))
    }

    /// MuteSeat: the credentials' seat stops (or resumes) hearing `seat`;
    /// the seats it does not hear now.
    pub async fn mute(
        &self,
        game_id: &str,
        creds: &Credentials,
        seat: u32,
        muted: bool,
    ) -> Result<Vec<u32>, ServiceError> {
        let (_, mut d) = self.game(game_id).await?;
        let (me, _) = self.auth(&mut d, creds)?;
        let seats = d.record.seats.len();
        let other = Seat::try_from(seat).ok().filter(|&s| usize::from(s) < seats).ok_or_else(|| {
            ServiceError::BadRequest(format!("seat {seat} does not exist; this game has seats 0 to {}", seats - 1))
        })?;
        if other == me {
            return Err(ServiceError::BadRequest("a seat always hears itself; name another seat".into()));
        }
        let mut set = d.talk.muted.get(&me).cloned().unwrap_or_default();
        if muted {
            set.insert(other);
        } else {
            set.remove(&other);
        }
        // Kept with the game, for the holder who chose it.
        let holder = d.record.seats[usize::from(me)].claim.as_ref().map(|c| c.token_hash.clone()).unwrap_or_default();
        let record = MuteRecord { seat: me, holder, muted: set.iter().copied().collect() };
        let (store, id) = (Arc::clone(&self.store), game_id.to_string());
        blocking(move || store.put_mutes(&id, &record)).await?;
        let now = set.iter().map(|&s| u32::from(s)).collect();
        d.talk.muted.insert(me, set);
        Ok(now)
    }
}
