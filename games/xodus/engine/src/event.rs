//! Events: what a choice caused, in order. They carry only public facts
//! (dice faces, revealed tiles and cards), so any seat or spectator may
//! receive them; front-ends animate them and the log prints them.

use crate::content::{DieColor, ExplorationType, Face};
use crate::hex::Hex;
use crate::state::{Phase, Seat};
use serde::{Deserialize, Serialize};

/// Why dice were rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollPurpose {
    /// Detection Roll.
    Detection,
    /// Attack roll in a fight.
    Attack,
    /// Damage Roll.
    Damage,
    /// Skill Roll.
    Skill,
    /// The Avatar die.
    AvatarMove,
}

impl RollPurpose {
    /// Its name in a sentence: "Detection", "attack", "Damage"...
    pub fn as_str(self) -> &'static str {
        match self {
            RollPurpose::Detection => "a Detection Roll",
            RollPurpose::Attack => "an attack",
            RollPurpose::Damage => "a Damage Roll",
            RollPurpose::Skill => "a Skill Roll",
            RollPurpose::AvatarMove => "the Avatar die",
        }
    }
}

/// Why ships were engaged: the log says it with the engagement, so a
/// fight never starts without its cause (a group that slipped past a
/// patrol is still engaged by an Avatar there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngageCause {
    /// Not said (events serialized before causes were given).
    #[default]
    Unstated,
    /// An Avatar in the system: it always detects, and engages (FAQ,
    /// "Avatars").
    Avatar,
    /// A failed Detection Roll (p. 9).
    Detected,
    /// A system under surveillance: no Detection Roll, always detected.
    Surveillance,
    /// The captains chose to engage.
    Voluntary,
    /// The Pacify action (p. 14).
    Pacify,
    /// A Signal's guardian, met by an Assault.
    Guardian,
    /// The group was already engaged here and the fight goes on (a
    /// captain joining a fleet in a fight joins the fight).
    Fight,
}

impl EngageCause {
    /// The words a log line adds after "engaged at <system>".
    fn phrase(self) -> &'static str {
        match self {
            EngageCause::Unstated => "",
            EngageCause::Avatar => " by the Avatar there (an Avatar detects every ship in its system)",
            EngageCause::Detected => ": the Detection Roll failed",
            EngageCause::Surveillance => ": the system's surveillance detects every ship",
            EngageCause::Voluntary => " by choice",
            EngageCause::Pacify => " to pacify the system",
            EngageCause::Guardian => " by the Signal's guardian",
            EngageCause::Fight => ", where the fight goes on",
        }
    }
}

/// "Captain 0" or "Captains 0 and 1", with the verb that agrees.
fn who(seats: &[Seat], one: &str, many: &str) -> String {
    let names = crate::text::words::captains(seats);
    let mut chars = names.chars();
    let upper: String = chars.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(chars).collect();
    format!("{upper} {}", if seats.len() == 1 { one } else { many })
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A new phase began.
    PhaseStarted {
        /// Phase.
        phase: Phase,
        /// Round.
        round: u32,
    },
    /// A captain's turn began.
    TurnStarted {
        /// Seat.
        seat: Seat,
    },
    /// A captain's turn ended (activation marker flipped).
    TurnEnded {
        /// Seat.
        seat: Seat,
    },
    /// A fleet was formed or grew.
    FleetJoined {
        /// Members now.
        seats: Vec<Seat>,
    },
    /// An invitation was declined.
    InviteDeclined {
        /// Seat.
        seat: Seat,
    },
    /// A system tile was revealed.
    TileRevealed {
        /// Where.
        hex: Hex,
        /// Tile id.
        tile: String,
        /// Rotation.
        rotation: u8,
    },
    /// A ship moved.
    ShipMoved {
        /// Seat.
        seat: Seat,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// Dice were rolled.
    DiceRolled {
        /// Who rolled (None: the Avatar die).
        seat: Option<Seat>,
        /// Why.
        purpose: RollPurpose,
        /// Faces shown.
        dice: Vec<(DieColor, Face)>,
    },
    /// The Avatar die was rolled.
    AvatarDieRolled {
        /// Avatar card id.
        avatar: String,
        /// Moves after modifiers.
        moves: u8,
        /// Wormholes allowed.
        wormhole: bool,
    },
    /// A Detection Roll passed.
    Undetected {
        /// Seats.
        seats: Vec<Seat>,
    },
    /// Ships are engaged in a system.
    Engaged {
        /// Seats.
        seats: Vec<Seat>,
        /// System.
        hex: Hex,
        /// Why.
        #[serde(default)]
        cause: EngageCause,
    },
    /// An Enemy card entered the board.
    EnemyDrawn {
        /// Enemy card id.
        enemy: String,
        /// System.
        hex: Hex,
        /// From the reserve (stronger Enemies).
        from_reserve: bool,
    },
    /// The Enemy deck was rebuilt from its discard pile.
    EnemyDeckReshuffled,
    /// Reserve Enemies joined the deck.
    EnemiesReinforced {
        /// How many.
        count: u8,
    },
    /// An attack hit its target.
    TargetDamaged {
        /// Card id.
        target: String,
        /// Damage dealt after shields.
        damage: u8,
        /// Health left.
        health_left: u8,
        /// Hits the attack scored, before shields.
        #[serde(default)]
        hits: u8,
        /// Hits its shields stopped (`hits` - `damage`).
        #[serde(default)]
        blocked: u8,
    },
    /// An Enemy (or Avatar) with Regenerate repaired damage after an
    /// attack that did not defeat it (its ability).
    Regenerated {
        /// Card id.
        target: String,
        /// Damage repaired.
        amount: u8,
        /// Health left now.
        health_left: u8,
    },
    /// An Exploration card was drawn and is resolved at once (p. 10).
    ExplorationDrawn {
        /// Card id.
        card: String,
        /// Analysis, Warning or Danger.
        kind: ExplorationType,
        /// Specials a Danger's Skill Roll needs (0 for the other kinds).
        #[serde(default)]
        skill: u8,
    },
    /// End phase: the Pacify markers of the board change (p. 18): red ones
    /// are lifted, green ones turn red.
    PacifyMarkersTurned {
        /// Systems whose red marker was lifted (no longer pacified).
        lifted: Vec<Hex>,
        /// Systems whose green marker turned red.
        turned: Vec<Hex>,
    },
    /// End phase: Enemy cards on the board go back into the Enemy deck,
    /// except where a captain hides (FAQ, "Ennemis et Combats").
    EnemiesReturned {
        /// Card ids.
        enemies: Vec<String>,
    },
    /// Foes left the Combat board for others and lost their damage (FAQ,
    /// "Ennemis et Combats": whoever engages a new Enemy or Avatar replaces
    /// the one on the Combat board, "repairing" it).
    FoesRepaired {
        /// Enemy and Avatar card ids.
        foes: Vec<String>,
    },
    /// An Enemy was defeated and discarded.
    EnemyDefeated {
        /// Card id.
        enemy: String,
    },
    /// An Avatar escaped to the Corruption mat (or out of the game).
    AvatarEscaped {
        /// Card id.
        avatar: String,
        /// Space it will return at, or None if gone for good.
        space: Option<u8>,
    },
    /// A ship lost health.
    HealthLost {
        /// Seat.
        seat: Seat,
        /// Amount.
        amount: u8,
        /// Health left.
        health: u8,
    },
    /// A ship recovered health.
    HealthRecovered {
        /// Seat.
        seat: Seat,
        /// Amount.
        amount: u8,
        /// Health now.
        health: u8,
    },
    /// A health marker was permanently discarded.
    HealthMarkerDiscarded {
        /// Seat.
        seat: Seat,
    },
    /// An energy marker was permanently discarded.
    EnergyMarkerDiscarded {
        /// Seat.
        seat: Seat,
    },
    /// A ship drew a Damaged card.
    DamagedDrawn {
        /// Seat.
        seat: Seat,
        /// Card id.
        card: String,
    },
    /// A Damaged card was removed.
    DamagedRemoved {
        /// Seat.
        seat: Seat,
        /// Card id.
        card: String,
    },
    /// A ship was destroyed.
    ShipDestroyed {
        /// Seat.
        seat: Seat,
    },
    /// Scraps changed hands or were gained.
    ScrapsChanged {
        /// Seat.
        seat: Seat,
        /// Delta.
        delta: i16,
        /// Scraps now.
        scraps: u8,
    },
    /// Energy was spent, recovered or bought.
    EnergyChanged {
        /// Seat.
        seat: Seat,
        /// Available now.
        available: u8,
        /// Markers unlocked.
        total: u8,
    },
    /// XP gained.
    XpGained {
        /// Seat.
        seat: Seat,
        /// XP now.
        xp: u8,
        /// Level now.
        level: u8,
    },
    /// A ship strained its engine.
    Strained {
        /// Seat.
        seat: Seat,
    },
    /// Ships disengaged.
    Disengaged {
        /// Seats.
        seats: Vec<Seat>,
        /// And hid in the system.
        hid: bool,
    },
    /// Out of Exploration markers, one moved from an unexplored system to
    /// a newly revealed one; the first system's Exploration is lost.
    ExplorationMarkerMoved {
        /// The system that gave up its marker.
        from: Hex,
        /// The system revealed.
        to: Hex,
    },
    /// A system was pacified.
    Pacified {
        /// System.
        hex: Hex,
    },
    /// The Corruption marker advanced.
    CorruptionAdvanced {
        /// New position.
        position: u8,
    },
    /// An Avatar entered play.
    AvatarArrived {
        /// Card id.
        avatar: String,
        /// System.
        hex: Hex,
    },
    /// An Avatar moved.
    AvatarMoved {
        /// Card id.
        avatar: String,
        /// Systems passed through, last is where it stopped.
        path: Vec<Hex>,
    },
    /// A Precursor Signal was revealed.
    SignalRevealed {
        /// Key.
        key: u8,
        /// Card id.
        card: String,
    },
    /// Progress on a Signal.
    SignalProgress {
        /// Key.
        key: u8,
        /// Progress now.
        progress: u8,
        /// Needed.
        needed: u8,
    },
    /// A Key was accessed.
    KeyAccessed {
        /// Key.
        key: u8,
        /// Carrier.
        seat: Seat,
    },
    /// A Key changed hands.
    KeyMoved {
        /// Key.
        key: u8,
        /// Giver.
        from: Seat,
        /// Receiver.
        to: Seat,
    },
    /// Keys were activated on the Main Rift.
    KeysActivated {
        /// Keys placed now.
        keys: Vec<u8>,
        /// Keys on the Rift in all.
        total: u8,
    },
    /// A rift was opened or closed.
    RiftChanged {
        /// System.
        hex: Hex,
        /// Open now.
        open: bool,
    },
    /// Avatar movement modifier changed.
    AvatarMovementChanged {
        /// Modifier this turn.
        this_turn: i8,
    },
    /// An Ally was met, with its modules on offer.
    AllyMet {
        /// Ally kind.
        ally: String,
        /// System.
        hex: Hex,
        /// Module ids on offer.
        modules: Vec<String>,
    },
    /// A module was drawn face up (found by exploration).
    ModuleRevealed {
        /// Module id.
        module: String,
    },
    /// A ship installed a module.
    ModuleGained {
        /// Seat.
        seat: Seat,
        /// Module id.
        module: String,
    },
    /// A ship lost a module for good.
    ModuleLost {
        /// Seat.
        seat: Seat,
        /// Module id.
        module: String,
    },
    /// A ship lost a Precursor Mod for good.
    ModLost {
        /// Seat.
        seat: Seat,
        /// Mod effect id.
        power: String,
    },
    /// A module or mod was used.
    PowerUsed {
        /// Owner.
        seat: Seat,
        /// Module or mod effect id.
        power: String,
    },
    /// A mod effect was unlocked at a new level.
    ModUnlocked {
        /// Seat.
        seat: Seat,
        /// Mod effect id.
        power: String,
    },
    /// An Enemy was sent back into the deck by a Decoy.
    EnemyDecoyed {
        /// Enemy id.
        enemy: String,
    },
    /// The game ended.
    GameOver {
        /// Won.
        won: bool,
        /// Why.
        cause: String,
    },
}

impl Event {
    /// Whether the event reveals nothing random or hidden and closes no
    /// turn or phase: a choice whose events are all such may be taken back
    /// (an undo, as at a good table). Dice, draws, reveals, phase changes,
    /// turn ends and the end of the game close the door.
    pub fn may_be_undone(&self) -> bool {
        matches!(
            self,
            Event::TurnStarted { .. }
                | Event::FleetJoined { .. }
                | Event::InviteDeclined { .. }
                | Event::ShipMoved { .. }
                | Event::ScrapsChanged { .. }
                | Event::EnergyChanged { .. }
                | Event::XpGained { .. }
                | Event::Strained { .. }
                | Event::KeyMoved { .. }
                | Event::ModuleGained { .. }
                | Event::ModuleLost { .. }
                | Event::HealthRecovered { .. }
                | Event::DamagedRemoved { .. }
        )
    }

    /// One human-readable line, systems shown by their coordinates.
    pub fn summary(&self) -> String {
        self.summary_with(&|x| format!("({},{})", x.q, x.r))
    }

    /// One human-readable line, each system that the event places something
    /// in written as `place` writes it (a front-end may add the system's
    /// name to its coordinates). A revealed tile keeps bare coordinates: its
    /// line names it already.
    pub fn summary_with(&self, place: &dyn Fn(Hex) -> String) -> String {
        use Event::*;
        let coords = |x: &Hex| format!("({},{})", x.q, x.r);
        let h = |x: &Hex| place(*x);
        match self {
            PhaseStarted { phase, round } => format!("Round {round}: {} phase", phase.as_str()),
            TurnStarted { seat } => format!("Captain {seat} starts their turn"),
            TurnEnded { seat } => format!("Captain {seat} ends their turn"),
            FleetJoined { seats } => format!("Fleet formed: {}", crate::text::words::captains(seats)),
            InviteDeclined { seat } => format!("Captain {seat} declines to join the fleet"),
            // The rotation is in the event, for front-ends that draw it.
            TileRevealed { hex, tile, rotation: _ } => format!("System {tile} revealed at {}", coords(hex)),
            // Where the ship came from is the event's `from`; the line says
            // where it is now, which is what a reader follows.
            ShipMoved { seat, from: _, to } => format!("Captain {seat} jumps to {}", h(to)),
            DiceRolled { seat, purpose, dice } => {
                let faces: Vec<String> = dice.iter().map(|(c, f)| format!("{} {:?}", c.as_str(), f)).collect();
                match seat {
                    Some(s) => format!("Captain {s} rolls {}: {}", purpose.as_str(), faces.join(", ")),
                    None => format!("Rolled for {}: {}", purpose.as_str(), faces.join(", ")),
                }
            }
            AvatarDieRolled { avatar, moves, wormhole } => {
                let moves = crate::text::words::count(*moves, "move", "moves");
                format!("{avatar} rolls {moves}{}", if *wormhole { " and may use wormholes" } else { "" })
            }
            Undetected { seats } => format!("{} by undetected", who(seats, "slips", "slip")),
            Engaged { seats, hex, cause } => {
                format!("{} engaged at {}{}", who(seats, "is", "are"), h(hex), cause.phrase())
            }
            EnemyDrawn { enemy, hex, from_reserve } => {
                format!("Enemy {enemy} appears at {}{}", h(hex), if *from_reserve { " (from the reserve)" } else { "" })
            }
            EnemyDeckReshuffled => "The Enemy discard is shuffled into a new deck".into(),
            EnemiesReinforced { count } => match count {
                1 => "1 reserve Enemy joins the deck".into(),
                n => format!("{n} reserve Enemies join the deck"),
            },
            TargetDamaged { target, damage, health_left, hits, blocked } => match blocked {
                0 => format!("{target} takes {damage} damage ({health_left} left)"),
                b => format!(
                    "{target} takes {damage} damage ({}, {b} stopped by shields; {health_left} left)",
                    crate::text::words::count(*hits, "hit", "hits")
                ),
            },
            Regenerated { target, amount, health_left } => {
                format!("{target} regenerates {amount} damage ({health_left} health left)")
            }
            ExplorationDrawn { card, kind, skill } => match kind {
                ExplorationType::Analysis => format!("Exploration card {card} drawn (Analysis)"),
                ExplorationType::Warning => format!("Exploration card {card} drawn (Warning: one option)"),
                ExplorationType::Danger => format!(
                    "Exploration card {card} drawn (Danger: a Skill Roll needing {})",
                    crate::text::words::count(*skill, "special", "specials")
                ),
            },
            PacifyMarkersTurned { lifted, turned } => {
                let list = |hs: &[Hex]| crate::text::words::list(&hs.iter().map(h).collect::<Vec<_>>());
                let mut parts = Vec::new();
                if !lifted.is_empty() {
                    parts.push(format!("lifted at {} (pacified no more)", list(lifted)));
                }
                if !turned.is_empty() {
                    parts.push(format!("turned red at {}", list(turned)));
                }
                format!("End phase: Pacify markers {}", parts.join("; "))
            }
            EnemiesReturned { enemies } => {
                let noun = if enemies.len() == 1 { "Enemy card" } else { "Enemy cards" };
                format!(
                    "End phase: {noun} {} go back into the Enemy deck (no captain hides with them)",
                    crate::text::words::list(enemies)
                )
            }
            FoesRepaired { foes } => format!(
                "{} {} the Combat board and {} repaired",
                crate::text::words::list(foes),
                if foes.len() == 1 { "leaves" } else { "leave" },
                if foes.len() == 1 { "is" } else { "are" }
            ),
            EnemyDefeated { enemy } => format!("{enemy} is defeated"),
            AvatarEscaped { avatar, space } => match space {
                Some(s) => format!("{avatar} escapes; it returns at space {s}"),
                None => format!("{avatar} escapes beyond the Rise and is gone"),
            },
            HealthLost { seat, amount, health } => format!("Captain {seat} loses {amount} health ({health} left)"),
            HealthRecovered { seat, amount, health } => {
                format!("Captain {seat} recovers {amount} health ({health} now)")
            }
            HealthMarkerDiscarded { seat } => format!("Captain {seat} permanently loses a health marker"),
            EnergyMarkerDiscarded { seat } => format!("Captain {seat} permanently loses an energy marker"),
            DamagedDrawn { seat, card } => format!("Captain {seat} draws Damaged card {card}"),
            DamagedRemoved { seat, card } => format!("Captain {seat} removes Damaged card {card}"),
            ShipDestroyed { seat } => format!("Captain {seat}'s ship is destroyed"),
            ScrapsChanged { seat, delta, scraps } => {
                let (verb, n) = if *delta < 0 { ("spends", -delta) } else { ("gains", *delta) };
                let noun = if n == 1 { "scrap" } else { "scraps" };
                format!("Captain {seat} {verb} {n} {noun} ({scraps} now)")
            }
            EnergyChanged { seat, available, total } => format!("Captain {seat} has {available} of {total} energy"),
            XpGained { seat, xp, level } => format!("Captain {seat} gains XP ({xp} XP, level {level})"),
            Strained { seat } => format!("Captain {seat} strains the engine (+1 action)"),
            Disengaged { seats, hid } => {
                if *hid {
                    who(seats, "disengages and hides", "disengage and hide")
                } else {
                    who(seats, "disengages", "disengage")
                }
            }
            Pacified { hex } => format!("System {} is pacified", h(hex)),
            ExplorationMarkerMoved { from, to } => {
                format!("The Exploration marker of {} moves to {}; its Exploration is lost", h(from), h(to))
            }
            CorruptionAdvanced { position } => format!("The Corruption advances to {position}"),
            AvatarArrived { avatar, hex } => format!("{avatar} enters play at {}", h(hex)),
            AvatarMoved { avatar, path } => {
                format!("{avatar} moves to {}", path.last().map(h).unwrap_or_else(|| "nowhere".into()))
            }
            SignalRevealed { key, card } => format!("Precursor Signal {card} revealed (Key {key})"),
            SignalProgress { key, progress, needed } => format!("Key {key}'s Signal: progress {progress} of {needed}"),
            KeyAccessed { key, seat } => format!("Captain {seat} takes Precursor Key {key}"),
            KeyMoved { key, from, to } => format!("Key {key} passes from captain {from} to captain {to}"),
            KeysActivated { keys, total } => {
                let list: Vec<String> = keys.iter().map(u8::to_string).collect();
                let noun = if keys.len() == 1 { "Key" } else { "Keys" };
                format!("{noun} {} activated on the Main Rift ({total} in all)", list.join(", "))
            }
            RiftChanged { hex, open } => format!("A rift {} at {}", if *open { "opens" } else { "closes" }, h(hex)),
            AvatarMovementChanged { this_turn } => format!("Avatar movement this turn: {this_turn:+}"),
            AllyMet { ally, hex, modules } => {
                format!("Ally met at {}: {ally}, offering {}", h(hex), modules.join(", "))
            }
            ModuleRevealed { module } => format!("Module {module} found"),
            ModuleGained { seat, module } => format!("Captain {seat} installs {module}"),
            ModuleLost { seat, module } => format!("Captain {seat} loses {module} for good"),
            ModLost { seat, power } => format!("Captain {seat} loses the mod {power} for good"),
            PowerUsed { seat, power } => format!("Captain {seat} uses {power}"),
            ModUnlocked { seat, power } => format!("Captain {seat} unlocks {power}"),
            EnemyDecoyed { enemy } => format!("{enemy} is decoyed back into the Enemy deck"),
            GameOver { won, cause } => {
                let result = if *won { "victory" } else { "defeat" };
                match cause.as_str() {
                    "rift_sealed" => format!("Game over: {result}, the Main Rift is sealed"),
                    "corruption_risen" => format!("Game over: {result}, the Corruption has risen"),
                    "all_ships_destroyed" => format!("Game over: {result}, every ship is destroyed"),
                    other => format!("Game over: {result} ({other})"),
                }
            }
        }
    }
}
