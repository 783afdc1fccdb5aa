//! The decision model: at every step the game has exactly one pending
//! decision, who may take it, and the enumerated list of legal choices.
//! Each offered option has a stable text id (derived from its payload, so
//! a client can store it), a structured payload ([`Choice`]) and a label.

use crate::content::DieColor;
use crate::hex::Hex;
use crate::state::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of decision is pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// Action phase: which player starts their turn next.
    NextPlayer,
    /// The active player or fleet chooses an Action.
    Action,
    /// A captain answers an invitation to join a fleet.
    FleetInvite,
    /// Orient a freshly revealed tile.
    Orientation,
    /// Choose the next jump of a Hyperspace Rush.
    RushStep,
    /// Roll for detection, or engage voluntarily.
    Detection,
    /// In a fight: which Enemy to attack next, or disengage.
    CombatCommand,
    /// In a fight: a captain's manoeuvre for this attack.
    Manoeuvre,
    /// A captain's Ship Maintenance option.
    Maintenance,
    /// Which ship carries an accessed Key.
    KeyCarrier,
    /// Pick an option of the Exploration card being resolved.
    Exploration,
    /// Choose where to reveal a system (an effect).
    RevealSystem,
    /// Choose an Enemy system to pacify (an effect).
    PacifySystem,
    /// After an attack roll: activate modules, or resolve the attack.
    AttackEffects,
    /// Which ship receives a module found or bought.
    ModuleReceiver,
    /// Which ship receives the next scrap of a shared reward.
    ScrapShare,
    /// A Trade action in progress.
    Trade,
    /// Which module to discard permanently.
    ModuleDiscard,
    /// Which effect of a new mod level to keep.
    ModChoice,
    /// Out of Exploration markers: which unexplored system gives up its own
    /// to a newly revealed one (FAQ, Explorations).
    ExplorationMarker,
    /// Nothing: the game is over.
    GameOver,
}

impl DecisionKind {
    /// Snake-case name, as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::NextPlayer => "next_player",
            DecisionKind::Action => "action",
            DecisionKind::FleetInvite => "fleet_invite",
            DecisionKind::Orientation => "orientation",
            DecisionKind::RushStep => "rush_step",
            DecisionKind::Detection => "detection",
            DecisionKind::CombatCommand => "combat_command",
            DecisionKind::Manoeuvre => "manoeuvre",
            DecisionKind::Maintenance => "maintenance",
            DecisionKind::KeyCarrier => "key_carrier",
            DecisionKind::Exploration => "exploration",
            DecisionKind::RevealSystem => "reveal_system",
            DecisionKind::PacifySystem => "pacify_system",
            DecisionKind::AttackEffects => "attack_effects",
            DecisionKind::ModuleReceiver => "module_receiver",
            DecisionKind::ScrapShare => "scrap_share",
            DecisionKind::Trade => "trade",
            DecisionKind::ModuleDiscard => "module_discard",
            DecisionKind::ModChoice => "mod_choice",
            DecisionKind::ExplorationMarker => "exploration_marker",
            DecisionKind::GameOver => "game_over",
        }
    }
}

/// Where a usable power comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "index")]
pub enum Source {
    /// A Ship Module or Precursor Ship Module (content index).
    Module(u8),
    /// A Precursor Mod effect (content index).
    Mod(u8),
}

impl Source {
    /// Text form used in option ids.
    pub fn key(self) -> String {
        match self {
            Source::Module(m) => format!("module{m}"),
            Source::Mod(m) => format!("mod{m}"),
        }
    }

    /// Writes [`Source::key`].
    fn write_key(self, w: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Source::Module(m) => write!(w, "module{m}"),
            Source::Mod(m) => write!(w, "mod{m}"),
        }
    }
}

/// A right to act on the dice granted by a fleet-wide effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    /// Ignore one miss (Magnetic Shield).
    IgnoreMiss,
    /// Reroll one die (Fleet Tactical Network).
    Reroll,
}

impl Grant {
    /// Its part of a [`Choice::UseGrant`] id (the lowercased variant name).
    fn id_part(self) -> &'static str {
        match self {
            Grant::IgnoreMiss => "ignoremiss",
            Grant::Reroll => "reroll",
        }
    }
}

/// What a fight targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", content = "index")]
pub enum Target {
    /// An Enemy card on the board (index into `board_enemies`).
    Enemy(u8),
    /// An Avatar (index into `avatars`).
    Avatar(u8),
}

/// A structured choice. Clients normally pick an offered option by id;
/// a structured choice is validated against the same list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Start this seat's turn.
    StartTurn {
        /// The seat.
        seat: Seat,
    },
    /// Send a probe to an adjacent empty space.
    Probe {
        /// The empty space.
        hex: Hex,
    },
    /// Probe then jump into the revealed system.
    BlindJump {
        /// The empty space.
        hex: Hex,
    },
    /// Jump to a connected revealed system (or another wormhole).
    Jump {
        /// Destination.
        hex: Hex,
    },
    /// Start a Hyperspace Rush (2 Actions, three jumps).
    Rush,
    /// The next jump of a Rush.
    RushTo {
        /// Destination of this jump.
        hex: Hex,
    },
    /// Explore the current system (Exploration, Signal or Main Rift).
    Explore,
    /// Follow a bracketed instruction of the revealed Precursor Signal here.
    Instruction,
    /// Scavenge a scrap.
    Scavenge,
    /// Scavenge a defeated ship's Keys.
    ScavengeKeys {
        /// The defeated ship.
        from: Seat,
        /// Who takes them.
        to: Seat,
    },
    /// Pacify the current Enemy system.
    Pacify,
    /// Ship Maintenance (each member then picks an option).
    Maintenance,
    /// Trade: give scraps to another ship in the system.
    GiveScraps {
        /// Giver.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// How many.
        amount: u8,
    },
    /// Trade: give a Key to another ship in the system.
    GiveKey {
        /// Giver.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// Which Key.
        key: u8,
    },
    /// Invite a ship in the system to join the fleet.
    Invite {
        /// The invited seat.
        seat: Seat,
    },
    /// Strain the engine: +1 Action, Damage Roll at the end of the turn.
    Strain {
        /// The straining seat.
        seat: Seat,
    },
    /// End the turn, leaving any remaining Actions unused.
    EndTurn,
    /// Accept a fleet invitation.
    Accept,
    /// Decline a fleet invitation.
    Decline,
    /// Orientation of a revealed tile.
    Orient {
        /// Rotation steps 0..6.
        rotation: u8,
    },
    /// Roll for detection.
    RollDetection,
    /// Skip the roll and engage voluntarily.
    EngageVoluntarily,
    /// Attack this Enemy or Avatar next.
    Attack {
        /// The target.
        target: Target,
    },
    /// Disengage (1 Damage Roll per Enemy).
    Disengage,
    /// Disengage and hide in the system, ending the turn.
    DisengageAndHide,
    /// A fleet disengages together and one member hides in the system,
    /// ending its own turn, while the others go on (FAQ, Avatars: one
    /// captain loses a turn instead of the whole group; rules revision 2).
    DisengageOneHides {
        /// The member who hides.
        seat: Seat,
    },
    /// Offense: roll all dice.
    Offense {
        /// The captain choosing.
        seat: Seat,
    },
    /// Defense: roll one chosen die.
    Defense {
        /// The captain choosing.
        seat: Seat,
        /// The die.
        die: DieColor,
    },
    /// Maintenance: repair 1 health of a ship in the system for 1 scrap.
    Repair {
        /// Repaired ship.
        target: Seat,
    },
    /// Maintenance: remove a Damaged card for 3 scraps.
    RemoveDamaged {
        /// The ship.
        target: Seat,
        /// Index of the card on that ship.
        card: u8,
    },
    /// Maintenance: buy the next energy marker.
    BuyEnergy,
    /// Maintenance: do nothing.
    SkipMaintenance,
    /// The ship that carries an accessed Key.
    CarryKey {
        /// The carrier.
        seat: Seat,
    },
    /// Pick an option of the Exploration card for the whole group.
    PickOption {
        /// Option index on the card.
        option: u8,
    },
    /// Pick an Analysis option for some members of a fleet only: they take
    /// it, its rewards apply to them (p. 10: fleet members may each pick a
    /// different option or share one; rules revision 2).
    PickOptionFor {
        /// Option index on the card.
        option: u8,
        /// The members who take it (a strict part of the fleet).
        seats: Vec<Seat>,
    },
    /// Finish an Analysis exploration.
    FinishExploration,
    /// Reveal a system at this empty space (an effect).
    RevealAt {
        /// The space.
        hex: Hex,
    },
    /// Pacify this Enemy system (an effect).
    PacifyAt {
        /// The system.
        hex: Hex,
    },
    /// Decline the rest of a beneficial effect.
    SkipEffect,
    /// Use a module (content index) of a ship; `die` names a die when the
    /// effect applies to one (the die's ship and its index in the roll),
    /// `color` the colour of a die it takes from the reserve.
    Activate {
        /// Owner of the module or mod.
        seat: Seat,
        /// The module or mod.
        source: Source,
        /// Targeted die (ship, die index), or targeted ship (ship, 0).
        die: Option<(Seat, u8)>,
        /// The colour of the die taken from the reserve, chosen among the
        /// colours with an unused die (FAQ, end of Augmentations: "choisir
        /// un dé dans la réserve"; rules revision 4). Id suffix `:red`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        color: Option<DieColor>,
    },
    /// Use a right granted by a fleet-wide effect on one of your dice.
    UseGrant {
        /// The ship using it.
        seat: Seat,
        /// Which grant.
        grant: Grant,
        /// Die index.
        die: u8,
    },
    /// Keep this effect of a newly reached mod level.
    ChooseMod {
        /// The ship.
        seat: Seat,
        /// Mod effect (content index).
        effect: u8,
    },
    /// Resolve the attack with the dice as they are.
    ResolveAttack,
    /// This ship receives the module.
    ReceiveModule {
        /// Receiver.
        seat: Seat,
    },
    /// This ship receives the next scrap.
    ScrapTo {
        /// Receiver.
        seat: Seat,
    },
    /// Trade (1 Action): with the Ally here or with ships here, not both (FAQ).
    Trade,
    /// Trade: buy a module on offer (scraps pooled by the fleet).
    Buy {
        /// Index in the Ally's offer.
        item: u8,
        /// Receiver.
        receiver: Seat,
    },
    /// Trade: the Ally's skill (reveal, repair, pacify).
    AllySkill {
        /// Ship served (repairs) or paying.
        target: Seat,
    },
    /// Trade: remove a Damaged card with the Engineer.
    AllyRemoveDamaged {
        /// Ship.
        target: Seat,
        /// Card index on that ship.
        card: u8,
    },
    /// Trade: give a module to another ship in the system.
    GiveModule {
        /// Giver.
        from: Seat,
        /// Receiver.
        to: Seat,
        /// Module (content index).
        module: u8,
    },
    /// Finish the Trade.
    EndTrade,
    /// Maintenance: salvage a module for its price minus one.
    Salvage {
        /// Module (content index).
        module: u8,
    },
    /// Permanently discard this module.
    DiscardModule {
        /// Module (content index).
        module: u8,
    },
    /// Permanently discard this Precursor Mod (rules revision 3).
    DiscardMod {
        /// Mod effect (content index).
        effect: u8,
    },
    /// Take the Exploration marker of this unexplored system for the one
    /// just revealed; its Exploration is lost (FAQ, rules revision 3).
    TakeExplorationMarker {
        /// The system that gives up its marker.
        hex: Hex,
    },
}

/// Consumes an expected id as pieces of it are written; fails at the
/// first piece that differs.
struct IdMatch<'a>(&'a str);

impl fmt::Write for IdMatch<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.0.strip_prefix(s) {
            Some(rest) => {
                self.0 = rest;
                Ok(())
            }
            None => Err(fmt::Error),
        }
    }
}

impl Choice {
    /// The stable id of this choice.
    pub fn id(&self) -> String {
        let mut id = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_id(&mut id);
        id
    }

    /// Whether `id` is this choice's stable id, without building it.
    pub fn has_id(&self, id: &str) -> bool {
        let mut rest = IdMatch(id);
        self.write_id(&mut rest).is_ok() && rest.0.is_empty()
    }

    /// Writes the stable id; every id is built here.
    fn write_id(&self, w: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Choice::StartTurn { seat } => write!(w, "start:{seat}"),
            Choice::Probe { hex } => write!(w, "probe:{},{}", hex.q, hex.r),
            Choice::BlindJump { hex } => write!(w, "blind_jump:{},{}", hex.q, hex.r),
            Choice::Jump { hex } => write!(w, "jump:{},{}", hex.q, hex.r),
            Choice::Rush => w.write_str("rush"),
            Choice::RushTo { hex } => write!(w, "rush_to:{},{}", hex.q, hex.r),
            Choice::Explore => w.write_str("explore"),
            Choice::Instruction => w.write_str("instruction"),
            Choice::Scavenge => w.write_str("scavenge"),
            Choice::ScavengeKeys { from, to } => write!(w, "scavenge_keys:{from}:{to}"),
            Choice::Pacify => w.write_str("pacify"),
            Choice::Maintenance => w.write_str("maintenance"),
            Choice::GiveScraps { from, to, amount } => write!(w, "give_scraps:{from}:{to}:{amount}"),
            Choice::GiveKey { from, to, key } => write!(w, "give_key:{from}:{to}:{key}"),
            Choice::Invite { seat } => write!(w, "invite:{seat}"),
            Choice::Strain { seat } => write!(w, "strain:{seat}"),
            Choice::EndTurn => w.write_str("end_turn"),
            Choice::Accept => w.write_str("accept"),
            Choice::Decline => w.write_str("decline"),
            Choice::Orient { rotation } => write!(w, "orient:{rotation}"),
            Choice::RollDetection => w.write_str("roll_detection"),
            Choice::EngageVoluntarily => w.write_str("engage"),
            Choice::Attack { target: Target::Enemy(i) } => write!(w, "attack:enemy:{i}"),
            Choice::Attack { target: Target::Avatar(i) } => write!(w, "attack:avatar:{i}"),
            Choice::Disengage => w.write_str("disengage"),
            Choice::DisengageAndHide => w.write_str("disengage_hide"),
            Choice::DisengageOneHides { seat } => write!(w, "disengage_hide:{seat}"),
            Choice::Offense { seat } => write!(w, "offense:{seat}"),
            Choice::Defense { seat, die } => write!(w, "defense:{seat}:{}", die.as_str()),
            Choice::Repair { target } => write!(w, "repair:{target}"),
            Choice::RemoveDamaged { target, card } => write!(w, "remove_damaged:{target}:{card}"),
            Choice::BuyEnergy => w.write_str("buy_energy"),
            Choice::SkipMaintenance => w.write_str("skip_maintenance"),
            Choice::CarryKey { seat } => write!(w, "carry_key:{seat}"),
            Choice::PickOption { option } => write!(w, "option:{option}"),
            Choice::PickOptionFor { option, seats } => {
                write!(w, "option:{option}:for:")?;
                for (i, s) in seats.iter().enumerate() {
                    if i > 0 {
                        w.write_str("+")?;
                    }
                    write!(w, "{s}")?;
                }
                Ok(())
            }
            Choice::FinishExploration => w.write_str("finish_exploration"),
            Choice::RevealAt { hex } => write!(w, "reveal_at:{},{}", hex.q, hex.r),
            Choice::PacifyAt { hex } => write!(w, "pacify_at:{},{}", hex.q, hex.r),
            Choice::SkipEffect => w.write_str("skip_effect"),
            Choice::Activate { seat, source, die, color } => {
                write!(w, "activate:{seat}:")?;
                source.write_key(w)?;
                if let Some((s, d)) = die {
                    write!(w, ":{s}:{d}")?;
                }
                match color {
                    Some(c) => write!(w, ":{}", c.as_str()),
                    None => Ok(()),
                }
            }
            Choice::UseGrant { seat, grant, die } => write!(w, "grant:{seat}:{}:{die}", grant.id_part()),
            Choice::ChooseMod { seat, effect } => write!(w, "choose_mod:{seat}:{effect}"),
            Choice::ResolveAttack => w.write_str("resolve_attack"),
            Choice::ReceiveModule { seat } => write!(w, "receive_module:{seat}"),
            Choice::ScrapTo { seat } => write!(w, "scrap_to:{seat}"),
            Choice::Trade => w.write_str("trade"),
            Choice::Buy { item, receiver } => write!(w, "buy:{item}:{receiver}"),
            Choice::AllySkill { target } => write!(w, "ally_skill:{target}"),
            Choice::AllyRemoveDamaged { target, card } => write!(w, "ally_remove_damaged:{target}:{card}"),
            Choice::GiveModule { from, to, module } => write!(w, "give_module:{from}:{to}:{module}"),
            Choice::EndTrade => w.write_str("end_trade"),
            Choice::Salvage { module } => write!(w, "salvage:{module}"),
            Choice::DiscardModule { module } => write!(w, "discard_module:{module}"),
            Choice::DiscardMod { effect } => write!(w, "discard_mod:{effect}"),
            Choice::TakeExplorationMarker { hex } => write!(w, "take_marker:{},{}", hex.q, hex.r),
        }
    }
}

/// One legal option of the pending decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceOption {
    /// Stable id (see [`Choice::id`]).
    pub id: String,
    /// Seats allowed to pick it.
    pub seats: Vec<Seat>,
    /// Short human label.
    pub label: String,
    /// Structured payload.
    pub choice: Choice,
}

/// The pending decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Kind of decision.
    pub kind: DecisionKind,
    /// Seats that may decide something now.
    pub deciders: Vec<Seat>,
    /// A sentence saying what is being decided.
    pub prompt: String,
    /// The legal options (empty only when the game is over).
    pub options: Vec<ChoiceOption>,
}

/// Internal state of the pending decision (public: everyone sees what is
/// being decided).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "pending")]
pub enum Pending {
    /// Choose who plays next.
    NextPlayer,
    /// The active group chooses an Action.
    Action,
    /// Waiting for an invited captain.
    FleetInvite {
        /// The invited seat.
        invitee: Seat,
    },
    /// Orient the tile just drawn.
    Orientation {
        /// Where it goes.
        hex: Hex,
        /// The tile (public once drawn).
        tile: u8,
        /// Jump in afterwards (Blind Jump).
        then_jump: bool,
        /// Revealed by an effect anywhere on the board: connect to any
        /// revealed neighbour; this many more reveals follow.
        anywhere: Option<u8>,
    },
    /// Hyperspace Rush in progress.
    RushStep {
        /// Jumps made so far.
        done: u8,
        /// The system the rush started from.
        start: Hex,
    },
    /// Detection at an Enemy system.
    Detection {
        /// Seats that roll (a fleet rolls together; a joiner alone).
        seats: Vec<Seat>,
    },
    /// A fight: pick the target or disengage.
    CombatCommand,
    /// A fight: manoeuvres chosen so far.
    Manoeuvre {
        /// The target of this attack.
        target: Target,
        /// Chosen manoeuvres (seat, die for Defense or None for Offense).
        chosen: Vec<(Seat, Option<DieColor>)>,
        /// Powers used before the roll: (owner, source).
        before: Vec<(Seat, Source)>,
        /// The colour each ship chose for the die its power takes from the
        /// reserve (Warmaster's Arsenal; rules revision 4).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reserve: Vec<(Seat, DieColor)>,
    },
    /// Ship Maintenance: members that still choose.
    Maintenance {
        /// Seats still to choose, in order.
        remaining: Vec<Seat>,
    },
    /// An accessed Key needs a carrier.
    KeyCarrier {
        /// The Key.
        key: u8,
    },
    /// An Exploration card being resolved.
    Exploration {
        /// The card (index into content).
        card: u8,
        /// Options picked so far.
        picked: Vec<u8>,
        /// Members who already took an option in this Exploration: their
        /// next one costs them an Action (rules revision 2).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        took: Vec<Seat>,
    },
    /// Reveal systems anywhere (effect), or next to `near` (a free probe).
    RevealAnywhere {
        /// Reveals left.
        left: u8,
        /// Only spaces adjacent to this system, by a lane (Double Probe Launcher).
        near: Option<Hex>,
    },
    /// Pacify systems anywhere (effect).
    PacifyAnywhere {
        /// Pacifications left.
        left: u8,
    },
    /// After an attack roll: modules may change the dice.
    AfterRoll {
        /// The target of the attack.
        target: Target,
        /// Each ship's dice.
        rolls: Vec<crate::state::SeatRoll>,
        /// Powers used during this attack: (owner, source).
        used: Vec<(Seat, Source)>,
        /// Rights granted by fleet-wide effects, not yet used.
        grants: Vec<(Seat, Grant)>,
        /// The Enemy's shields are ignored (Ion Cannon).
        ignore_shields: bool,
        /// The Enemy's ability is cancelled (Ion Field Generator).
        cancel_ability: bool,
        /// Energy already relayed during this attack (FAQ: once).
        relayed: bool,
    },
    /// A ship reached a mod level with two effects and keeps one.
    ChooseMod {
        /// The ship.
        seat: Seat,
        /// The level.
        level: u8,
    },
    /// A module found (free) waits for its receiver.
    GiveModule {
        /// Module (content index).
        card: u8,
        /// Who may take it, when only part of the group earned it (an
        /// Analysis option some members took); empty: the whole group.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        among: Vec<Seat>,
    },
    /// Scraps of a reward still to share out.
    ShareScraps {
        /// Scraps left.
        left: u8,
        /// Scraps from combat or exploration (XP for the Pirate Ship).
        rewarded: bool,
        /// Who shares them, when only part of the group earned them;
        /// empty: the whole group.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        among: Vec<Seat>,
    },
    /// A Trade action in progress.
    Trade {
        /// With the Ally (Some(true)), with ships (Some(false)), or not yet.
        with_ally: Option<bool>,
        /// With ships, from rules revision 4: the one captain outside the
        /// active group the Trade is with, or `None` when the group trades
        /// among itself (FAQ, Flottes: one target a Trade, "la cible est la
        /// flotte elle-même"). Set by the first exchange.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outsider: Option<Seat>,
    },
    /// A ship must permanently discard a module (Avatar ability).
    DiscardModule {
        /// The ship.
        seat: Seat,
    },
    /// Out of Exploration markers: the ships that revealed `to` choose an
    /// unexplored system whose marker moves there (FAQ, Explorations: "vous
    /// devez en déplacer un"; rules revision 3).
    MoveExplorationMarker {
        /// The system just revealed, waiting for its marker.
        to: Hex,
        /// The ships that revealed it: they choose.
        seats: Vec<Seat>,
    },
    /// Game over.
    Over,
}
