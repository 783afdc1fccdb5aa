//! What an AI captain heeds from the table: a human teammate's signals
//! (`xodus.v1.XodusSignal`) turned into calls that bar some options for a
//! while. "Wait for me at X": a ship at X does not leave it until the
//! caller arrives there (a caller already at X: until it comes back after
//! leaving), withdraws the call, or the Corruption's timeline says no more
//! waiting. "I take this": the captain leaves X to the caller. "Heading
//! to X": it leaves X's Exploration to the caller (one ship explores) but
//! still joins it where ships gather (a Signal, a fight, the Main Rift). "Don't seal yet": no Keys go on the Main Rift. "Go
//! ahead" and "never mind" lift every call of the caller. AI teammates'
//! own lines are not calls (so all-AI play is unchanged).

use std::collections::{BTreeMap, BTreeSet};
use tabletop::pb;
use tabletop::xodus_pb::{XodusSignal, XodusSignalKind as K};
use xodus_engine::content::{Content, SystemKind};
use xodus_engine::{Choice, ChoiceOption, Hex, Seat, View};

/// Rounds a ship waits for a teammate before the Corruption's timeline
/// wins over the call.
pub const MAX_WAIT_ROUNDS: u32 = 2;

/// The calls one captain heeds, by caller.
#[derive(Clone, Debug, Default)]
pub struct Calls {
    /// "Wait for me at": the system, the round the call was heard, and
    /// whether the caller has been away from it since.
    wait: BTreeMap<Seat, Wait>,
    /// Systems a caller took on (I_TAKE): the captain leaves them.
    claimed: BTreeMap<Seat, BTreeSet<Hex>>,
    /// Systems a caller heads to (HEADING_TO): the captain leaves their
    /// Exploration to it (one ship explores), but still joins it at a
    /// Signal, a fight or the Main Rift, where ships gather.
    heading: BTreeMap<Seat, Hex>,
    /// Callers who asked not to seal yet.
    hold_seal: BTreeSet<Seat>,
    /// The round of the last view seen (a call heard takes it).
    round: u32,
}

/// One "wait for me" call.
#[derive(Clone, Copy, Debug)]
struct Wait {
    /// Where.
    at: Hex,
    /// The round it was heard.
    heard: u32,
    /// The caller has been away from `at` since (its coming back is the
    /// arrival waited for).
    away: bool,
}

/// A system's name and place, as the players say it.
pub fn place(hex: Hex, view: &View) -> String {
    match view.public.tiles.iter().find(|t| t.hex == hex) {
        Some(t) => format!("{} ({},{})", Content::get().tiles[usize::from(t.tile)].name, hex.q, hex.r),
        None => format!("({},{})", hex.q, hex.r),
    }
}

/// Where an option takes the captain's ship, when it moves it to a known
/// system.
pub fn destination(option: &ChoiceOption) -> Option<Hex> {
    match option.choice {
        Choice::Jump { hex } | Choice::RushTo { hex } | Choice::BlindJump { hex } => Some(hex),
        _ => None,
    }
}

/// Whether an option moves the captain's ship out of its system.
fn leaves(option: &ChoiceOption) -> bool {
    matches!(option.choice, Choice::Jump { .. } | Choice::RushTo { .. } | Choice::BlindJump { .. } | Choice::Rush)
}

impl Calls {
    /// Hears a line of talk; a human teammate's signal becomes (or lifts)
    /// a call. `me` is the captain's own seat.
    pub fn hear(&mut self, me: Seat, line: &pb::TalkLine) {
        let Ok(caller) = Seat::try_from(line.speaker) else { return };
        if caller == me || line.speaker_ai {
            return;
        }
        let Some(signal) = line.signal.as_ref().and_then(tabletop::any::unpack::<XodusSignal>) else { return };
        let system = xodus_wire::talk::system_of(&signal);
        match K::try_from(signal.kind).unwrap_or(K::Unspecified) {
            K::WaitForMe => {
                if let Some(at) = system {
                    self.wait.insert(caller, Wait { at, heard: self.round, away: false });
                }
            }
            K::ITake => {
                if let Some(h) = system {
                    self.claimed.entry(caller).or_default().insert(h);
                }
            }
            K::HeadingTo => {
                if let Some(h) = system {
                    self.heading.insert(caller, h);
                }
            }
            K::DontSeal => {
                self.hold_seal.insert(caller);
            }
            K::GoAhead | K::Withdraw => self.lift(caller),
            K::NeedHelp | K::Unspecified => {}
        }
    }

    /// Lifts every call of `caller`.
    fn lift(&mut self, caller: Seat) {
        self.wait.remove(&caller);
        self.claimed.remove(&caller);
        self.heading.remove(&caller);
        self.hold_seal.remove(&caller);
    }

    /// Drops the calls the game has answered: a caller arrived where it
    /// asked to be waited for or where it was heading, or is out of the
    /// game. Returns what the captain says of a wait it gives up (the
    /// Corruption's timeline), if any.
    pub fn settle(&mut self, view: &View) -> Option<String> {
        self.round = view.round;
        let ships = &view.public.ships;
        let at = |caller: &Seat| ships.iter().find(|s| s.seat == *caller);
        self.wait.retain(|c, w| match at(c) {
            Some(s) if !s.defeated => {
                let here = s.hex == w.at;
                let arrived = here && w.away;
                w.away |= !here;
                !arrived
            }
            _ => false,
        });
        for (c, hexes) in self.claimed.iter_mut() {
            hexes.retain(|h| at(c).is_some_and(|s| !s.defeated && s.hex != *h));
        }
        self.claimed.retain(|_, hexes| !hexes.is_empty());
        self.heading.retain(|c, h| at(c).is_some_and(|s| !s.defeated && s.hex != *h));
        let expired: Vec<(Seat, Hex)> = self
            .wait
            .iter()
            .filter(|(_, w)| view.round > w.heard.max(1) + MAX_WAIT_ROUNDS)
            .map(|(c, w)| (*c, w.at))
            .collect();
        let mut said = None;
        for (caller, h) in expired {
            self.wait.remove(&caller);
            said = Some(format!("I can't wait any longer at {}: the Corruption is rising. Moving on.", place(h, view)));
        }
        said
    }

    /// Why the captain of `seat` should not take `option` now, in its own
    /// words; `None` when no call bars it.
    pub fn bars(&self, view: &View, seat: Seat, option: &ChoiceOption) -> Option<String> {
        let ship = view.public.ships.iter().find(|s| s.seat == seat)?;
        if leaves(option)
            && let Some((caller, w)) = self.wait.iter().find(|(_, w)| w.at == ship.hex)
        {
            return Some(format!("Waiting at {} for seat {caller}, as asked.", place(w.at, view)));
        }
        if let Some(dest) = destination(option)
            && let Some((caller, _)) = self.claimed.iter().find(|(_, hexes)| hexes.contains(&dest))
        {
            return Some(format!("Leaving {} to seat {caller}.", place(dest, view)));
        }
        if let Some(dest) = destination(option)
            && let Some((caller, _)) = self.heading.iter().find(|(_, h)| **h == dest)
            && view.public.tiles.iter().any(|t| t.hex == dest && t.exploration_marker && t.key_marker.is_none())
        {
            return Some(format!("Leaving the Exploration at {} to seat {caller}.", place(dest, view)));
        }
        if matches!(option.choice, Choice::Explore)
            && !ship.keys.is_empty()
            && let Some(&caller) = self.hold_seal.iter().next()
            && view
                .public
                .tiles
                .iter()
                .any(|t| t.hex == ship.hex && Content::get().tiles[usize::from(t.tile)].kind == SystemKind::MainRift)
        {
            return Some(format!("Holding the seal, as seat {caller} asked."));
        }
        None
    }

    /// Whether any call is in force.
    pub fn any(&self) -> bool {
        !self.wait.is_empty() || !self.claimed.is_empty() || !self.heading.is_empty() || !self.hold_seal.is_empty()
    }

    /// Takes out of `view`'s decision the options of `seat` the calls bar,
    /// unless they would bar them all (then the game's timeline wins: the
    /// captain must act). Returns the reason of the first option barred.
    pub fn restrict(&self, view: &mut View, seat: Seat) -> Option<String> {
        if !self.any() {
            return None;
        }
        let why: Vec<Option<String>> = view
            .decision
            .options
            .iter()
            .map(|o| if o.seats.contains(&seat) { self.bars(view, seat, o) } else { None })
            .collect();
        let mine = view.decision.options.iter().filter(|o| o.seats.contains(&seat)).count();
        let open =
            view.decision.options.iter().zip(&why).filter(|(o, w)| o.seats.contains(&seat) && w.is_none()).count();
        if open == 0 || open == mine {
            return None;
        }
        let barred = why.iter().flatten().next().cloned();
        let mut keep = why.iter().map(Option::is_none);
        view.decision.options.retain(|_| keep.next().unwrap_or(true));
        barred
    }
}

/// A line of talk from `caller` (a human, for the calls) giving `signal`.
pub fn line_from(caller: Seat, signal: &XodusSignal) -> pb::TalkLine {
    pb::TalkLine { speaker: u32::from(caller), signal: Some(tabletop::any::pack(signal)), ..Default::default() }
}
