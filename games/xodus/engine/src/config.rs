//! Per-game configuration: which ships, how hard, which Allies, which seed.
//! Everything that varies between two games of X-ODUS before the first
//! choice lives here; together with the seed and the choices it fixes the
//! whole game.

use crate::content::SignalTier;
use serde::{Deserialize, Serialize};

/// One of the six ships. Each seat captains one ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShipKind {
    /// Warrior; XP for each Enemy defeated.
    Warship,
    /// Warrior; XP for forming or joining fleets.
    Battlecruiser,
    /// Rogue; XP for each Explore action.
    Explorer,
    /// Rogue; XP for scraps gained in combat or exploration.
    PirateShip,
    /// Scholar; XP for each Repair action.
    DroneSpecialist,
    /// Scholar; XP for attacks with three hits or more.
    ProtoShip,
}

impl ShipKind {
    /// All ships in their fixed order.
    pub const ALL: [ShipKind; 6] = [
        ShipKind::Warship,
        ShipKind::Battlecruiser,
        ShipKind::Explorer,
        ShipKind::PirateShip,
        ShipKind::DroneSpecialist,
        ShipKind::ProtoShip,
    ];

    /// Snake-case name, as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ShipKind::Warship => "warship",
            ShipKind::Battlecruiser => "battlecruiser",
            ShipKind::Explorer => "explorer",
            ShipKind::PirateShip => "pirate_ship",
            ShipKind::DroneSpecialist => "drone_specialist",
            ShipKind::ProtoShip => "proto_ship",
        }
    }

    /// Parses a snake-case name.
    pub fn parse(s: &str) -> Option<ShipKind> {
        ShipKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Difficulty level (rulebook p. 19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Casual Wanderers: hazardous and two perilous Signals.
    Casual,
    /// Hardened Travelers: two Signals of each tier.
    Hardened,
    /// Heroic Adventurers: lethal and two perilous Signals. The permanent
    /// +1 Avatar movement marker is the rulebook's optional extra on top
    /// of it ("for a true nightmare"): see [`GameConfig::nightmare`].
    Heroic,
}

impl Difficulty {
    /// All levels.
    pub const ALL: [Difficulty; 3] = [Difficulty::Casual, Difficulty::Hardened, Difficulty::Heroic];

    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Casual => "casual",
            Difficulty::Hardened => "hardened",
            Difficulty::Heroic => "heroic",
        }
    }

    /// Parses a snake-case name.
    pub fn parse(s: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// How many Signal cards of `tier` go into the pool the game's Signals
    /// are dealt from (rulebook p. 19): Casual four hazardous and two
    /// perilous, Hardened two of each, Heroic the lethal ones and two
    /// perilous.
    pub fn signal_pool(self, tier: SignalTier) -> usize {
        match (self, tier) {
            (Difficulty::Casual, SignalTier::Hazardous) => 4,
            (Difficulty::Casual, SignalTier::Perilous) => 2,
            (Difficulty::Casual, SignalTier::Lethal) => 0,
            (Difficulty::Hardened, _) => 2,
            (Difficulty::Heroic, SignalTier::Hazardous) => 0,
            (Difficulty::Heroic, SignalTier::Perilous) => 2,
            (Difficulty::Heroic, SignalTier::Lethal) => 4,
        }
    }
}

/// The four Allies (two are chosen at setup; FAQ "Alliés").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllyKind {
    /// Reveals systems for fleets short on speed.
    Cartographer,
    /// Repairs ships.
    SpecialisedEngineer,
    /// Pacifies Enemy systems.
    Mercenary,
    /// Sells modules cheaply.
    Smuggler,
}

impl AllyKind {
    /// All Allies.
    pub const ALL: [AllyKind; 4] =
        [AllyKind::Cartographer, AllyKind::SpecialisedEngineer, AllyKind::Mercenary, AllyKind::Smuggler];

    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            AllyKind::Cartographer => "cartographer",
            AllyKind::SpecialisedEngineer => "specialised_engineer",
            AllyKind::Mercenary => "mercenary",
            AllyKind::Smuggler => "smuggler",
        }
    }

    /// Parses a snake-case name.
    pub fn parse(s: &str) -> Option<AllyKind> {
        AllyKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Everything that fixes a game before its first choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    /// One ship per seat, 3 or 4 of them (the two variants).
    pub ships: Vec<ShipKind>,
    /// Difficulty level.
    pub difficulty: Difficulty,
    /// The two Allies chosen at setup.
    pub allies: Vec<AllyKind>,
    /// Seed of the game's random generator (a decimal string in JSON).
    #[serde(with = "crate::json64")]
    pub seed: u64,
    /// The "true nightmare" variant (rulebook p. 19, after Heroic): a
    /// permanent +1 Avatar movement marker on the Corruption mat. `None`
    /// only in configurations stored before the option existed, when
    /// Heroic always carried the marker; read it with
    /// [`GameConfig::nightmare`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nightmare: Option<bool>,
    /// Whether the mat also reinforces the Enemy deck on the extra spaces
    /// the project's first mat printed between the Avatar spaces. The
    /// rulebook's red spaces are the Avatar spaces themselves (p. 17-18),
    /// so new games say `Some(false)`; `None` only in configurations
    /// stored before the fix, which keep the extra spaces so their games
    /// replay unchanged. Read it with [`GameConfig::legacy_reinforcements`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy_reinforcements: Option<bool>,
    /// The rules revision the game was created under (see
    /// [`RULES_REVISION`]): a rules fix that changes play is switched on
    /// from a revision, so games stored before it replay unchanged. `None`
    /// only in configurations stored before revisions existed (revision
    /// 0). Read it with [`GameConfig::rules_revision`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_revision: Option<u32>,
}

/// The rules revision new games are created under. Each step is a rules
/// fix that changes play:
/// 1. an Assault on a guardian Signal engages the guardian a retreat left
///    in the system, rather than drawing another (FAQ, "Ennemis et
///    Combats": an Enemy left behind keeps its damage, and whoever reaches
///    it takes the fight up where it was left).
/// 2. the rulings of issue 26, one line each:
///    - Pirate Ship XP: one per Exploration, whatever the number of scrap
///      gains in it (FAQ, Pirate Ship).
///    - One Combat board: any new engagement, of an Enemy or Avatar already
///      on the board too, repairs the foes it replaces; those of the
///      engaged system keep their damage (FAQ, "Ennemis et Combats").
///    - Analysis in a fleet: members take their own options or share one,
///      each option once; a member's first option comes with the Explore
///      action, each further one costs that member an Action, and rewards
///      go to the takers (p. 10).
///    - Trade: a ship outside the active group, one that already played
///      included, may give Keys and modules as well as scraps (p. 7).
///    - Giving ground to Avatars advances the Corruption when the last
///      player leaves the system, not at the first disengagement (FAQ,
///      "Avatars").
///    - Defeating the Enemies of an Enemy system pacifies it, whether the
///      fight came from a failed Detection Roll, a voluntary engagement or
///      the Pacify action (p. 9).
///    - Pacify fights the Enemy already revealed in the system rather than
///      drawing another (p. 14; FAQ, "Ennemis et Combats").
///    - After disengaging, only Jump, Blind Jump and Rush while the ship is
///      still in the system it fled; once it has left, the pursuit is over
///      and every Action is open again (FAQ, "Ennemis et Combats").
///    - A fleet that disengages may leave one member hidden in the system
///      while the others go on (FAQ, Avatars: one captain loses a turn
///      instead of the whole group, and the Corruption waits for the last
///      player to leave).
///    - Decoy Signal and Decoy Probe work on several Enemies one after
///      another within a fight, each use paid (FAQ, Augmentations 3).
/// 3. the second rules audit:
///    - An Avatar's module discard (Dismantle) may take a Precursor Mod as
///      well as a module (p. 16, Avatar abilities).
///    - The Replicator Drone repairs one ship per energy spent, never more
///      ships than its energy pays for (FAQ, Drone Specialist 3).
///    - Energy Relays: one relayed energy per attack in a fight, and one
///      per turn outside fights (FAQ, Warship 4: "par attaque / tour").
///    - Entering an Enemy system that holds an Avatar, or starting a turn
///      in one, still calls for the Detection Roll (p. 9).
///    - A captain destroyed by the Damage Rolls of fleeing Avatars has left
///      the system: the marker advances at once when nobody else is there
///      (p. 16; FAQ, Avatars).
///    - Pacify in a system whose "Enemies are stronger" draws its Enemy
///      from the reserve, as a detection there does (p. 9).
///    - The Specialised Engineer repairs 1 health a scrap, as its card says.
///    - An Ally's skill is offered only when it has something to act on.
///    - A guardian Signal draws a guardian of at least the card's level.
///    - An energy marker discarded for good leaves its slot empty: the next
///      one bought is priced past it (p. 16).
///    - Drain and Nullify, set off by the dice, take effect on the attack
///      that defeats the foe too (p. 14: abilities before damage).
///    - A brittle hull adds its loss only when retaliation gets through
///      armour (its card: "whenever retaliation hits the ship").
///    - Modules that ignore 2 misses or reroll 2 dice work on that many
///      chosen dice; a consumable used after the roll lasts the attack.
///    - A die that set off Damage Convectors can be neither rerolled nor
///      ignored (p. 15).
///    - With no Action left, the turn waits while a module that costs no
///      Action can still be used (p. 15).
///    - Strain may pay for a further Analysis option (p. 6: "at any point
///      during your turn").
///    - Out of Exploration markers, the revealing ships choose which
///      unexplored system gives up its marker (FAQ, Explorations).
///    - A power for two dice paid once takes its second die with no more
///      energy; Stealth Alloy may be used before a turn-start Detection
///      Roll; a paid Warmaster's Arsenal leaves Offense only; the Fleet
///      Energy Relay is offered only when another ship needs energy.
///    - A wormhole face lets the Avatar take one wormhole on top of its
///      moves (p. 17); an Exploration option that would only disable a rift
///      where there is none is not offered (p. 11).
///    - One white and one red Avatar Movement marker (p. 3, p. 11): the
///      same movement effect twice in a round does nothing more.
///    - One red and one white Rift marker (p. 3): creating or disabling a
///      rift where the marker is already in use moves it (as the FAQ moves
///      an Exploration marker when none is left).
/// 4. the sixth rules audit (the FAQ, ruling by ruling):
///    - Maintenance Drone: one special on the Strain's Damage Roll gives the
///      Strain back; two give back only the one (FAQ, Drone Specialist 4:
///      "si ⚡ alors vous récupérez votre Poussée").
///    - No scraps from an Avatar's fight (p. 16): neither the "when you
///      defeat an Enemy" scrap gains (Trophy Scanner, Plunderer Tools) nor
///      a special's scraps (Plunderer Arsenal) pay against an Avatar; the
///      healing triggers and the XP still do.
///    - Beside an Avatar in a non-pacified Enemy system where an Enemy card
///      lies (fled from, or left where a captain hid), the Detection Roll
///      is still made, on arriving and at the start of a turn; that Enemy
///      joins the fight only on a failed roll or a voluntary engagement,
///      else the Avatars are fought alone (FAQ, "Ennemis et Combats" and
///      "Avatars").
///    - A captain who joins a fleet already engaged with everything in its
///      system is asked no Detection Roll: it fights either way (FAQ,
///      Flottes: join, then fight).
///    - Forming a fleet uses no Action (FAQ, Flottes, p. 6): invitations
///      are offered with no Action left while the turn is open, and after
///      disengaging once no foe is left in the system (the FAQ bars Actions
///      then, and inviting is none; but the Enemy still pursues you, and a
///      joiner would bring the fleet back into that fight).
///    - "Choisir un dé dans la réserve" (FAQ, end of Augmentations): the
///      captain chooses the colour among those with an unused die, one
///      option each, for the Tactician's and the Warmaster's Arsenal; a
///      destroyed ship's dice are unused.
///    - One Trade of a fleet, one target, set by its first exchange: the
///      Ally, the fleet itself, or one captain outside it (FAQ, Flottes,
///      p. 6-7: "la même action sur la même cible"). A captain trading
///      alone still trades with every ship in the system (p. 7).
/// 5. issue 52:
///    - Trade is offered only when an exchange is possible: something to
///      buy or pay the Ally for, or something a ship here could give
///      another (p. 7).
///    - An Avatar that engages ships in a system calling for no Detection
///      Roll (a Key system, a pacified one) is fought alone: a Signal's
///      guardian or an Enemy card left there stays out of the fight (FAQ,
///      "Ennemis et Combats": an Enemy left on the board is engaged on
///      detection, or by whoever chooses to take the fight up).
pub const RULES_REVISION: u32 = 5;

/// A configuration the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not 3 or 4 ships.
    #[error("a game has 3 or 4 ships (the two variants), not {0}")]
    ShipCount(usize),
    /// The same ship twice.
    #[error("ship {0} is chosen twice; each seat needs a different ship")]
    DuplicateShip(&'static str),
    /// Not two different Allies.
    #[error("choose exactly two different Allies, got {0:?}")]
    Allies(Vec<&'static str>),
}

impl GameConfig {
    /// Whether the permanent +1 Avatar movement marker is on the mat.
    /// Configurations stored before the option existed keep their old
    /// meaning (marker with Heroic), so their games replay unchanged.
    pub fn nightmare(&self) -> bool {
        self.nightmare.unwrap_or(self.difficulty == Difficulty::Heroic)
    }

    /// Whether the extra reinforcement spaces of the first mat are in play
    /// (only in configurations stored before they were removed).
    pub fn legacy_reinforcements(&self) -> bool {
        self.legacy_reinforcements.unwrap_or(true)
    }

    /// The rules revision this game plays under (0 for configurations
    /// stored before revisions existed).
    pub fn rules_revision(&self) -> u32 {
        self.rules_revision.unwrap_or(0)
    }

    /// Checks the configuration against the setup rules.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(3..=4).contains(&self.ships.len()) {
            return Err(ConfigError::ShipCount(self.ships.len()));
        }
        for (i, s) in self.ships.iter().enumerate() {
            if self.ships[..i].contains(s) {
                return Err(ConfigError::DuplicateShip(s.as_str()));
            }
        }
        if self.allies.len() != 2 || self.allies[0] == self.allies[1] {
            return Err(ConfigError::Allies(self.allies.iter().map(|a| a.as_str()).collect()));
        }
        Ok(())
    }

    /// A configuration with random distinct ships and two random Allies,
    /// drawn from `seed` (the same seed then drives the game).
    pub fn random(seed: u64, ship_count: usize, difficulty: Difficulty) -> GameConfig {
        let mut rng = crate::rng::GameRng::new(seed ^ 0x5eed_c0f1);
        let mut ships = ShipKind::ALL.to_vec();
        rng.shuffle(&mut ships);
        ships.truncate(ship_count.clamp(3, 4));
        let mut allies = AllyKind::ALL.to_vec();
        rng.shuffle(&mut allies);
        allies.truncate(2);
        let mut config = GameConfig {
            ships,
            difficulty,
            allies,
            seed,
            nightmare: Some(false),
            legacy_reinforcements: None,
            rules_revision: None,
        };
        config.play_current_rules();
        config
    }

    /// Sets the compatibility switches to the current rules: what every
    /// newly created game plays (stored configurations keep theirs).
    pub fn play_current_rules(&mut self) {
        self.legacy_reinforcements = Some(false);
        self.rules_revision = Some(RULES_REVISION);
    }
}
