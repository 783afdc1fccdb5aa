//! Game content as data: tiles, dice, the Corruption mat, Enemies,
//! Avatars, Damaged cards, ships and Precursor Signals are read from the
//! TOML files in `engine/content/` (embedded at compile time) and
//! validated once. Rules code reads behaviour from these records instead
//! of branching on card names, so new cards rarely need new code.

use serde::Deserialize;
use std::sync::OnceLock;

/// The kind of a system tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SystemKind {
    /// Blue tiles: safe, no detection.
    Allied,
    /// Orange tiles: detection rolls, patrols.
    Enemy,
    /// Red tiles: secondary rifts, cannot be explored.
    Corrupt,
    /// The Main Rift, where the Keys are activated.
    MainRift,
}

/// One system tile as printed.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileDef {
    /// Stable identifier, e.g. "A01".
    pub id: String,
    /// Display name.
    pub name: String,
    /// Colour of the tile.
    pub kind: SystemKind,
    /// Lane openings, six '0'/'1' characters (E, NE, NW, W, SW, SE).
    pub lanes: String,
    /// An Exploration marker goes here when revealed.
    #[serde(default)]
    pub exploration: bool,
    /// A wormhole is open here.
    #[serde(default)]
    pub wormhole: bool,
    /// The Precursor Key (1-4) whose Signal is found here.
    #[serde(default)]
    pub signal: Option<u8>,
    /// An Ally trades here.
    #[serde(default)]
    pub ally: bool,
    /// Enemy cards drawn when detected here.
    #[serde(default)]
    pub patrol: u8,
    /// Always detected when entering.
    #[serde(default)]
    pub surveillance: bool,
    /// Enemies are drawn from the reserve instead of the deck.
    #[serde(default)]
    pub stronger: bool,
    /// Removed in the 3-ship variant (the white dot).
    #[serde(default)]
    pub three_player_removed: bool,
}

impl TileDef {
    /// Lane openings as booleans, side 0..6 before rotation.
    pub fn lane_mask(&self) -> u8 {
        self.lanes.chars().enumerate().fold(0u8, |m, (i, c)| if c == '1' { m | (1 << i) } else { m })
    }
}

/// A face of a player die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// A hit.
    Hit,
    /// A miss.
    Miss,
    /// A special symbol.
    Special,
}

/// The three player dice colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DieColor {
    /// Red die.
    Red,
    /// Blue die.
    Blue,
    /// Yellow die.
    Yellow,
}

impl DieColor {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DieColor::Red => "red",
            DieColor::Blue => "blue",
            DieColor::Yellow => "yellow",
        }
    }
}

/// One face of the Avatar die.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AvatarFace {
    /// Systems moved.
    pub moves: u8,
    /// May also travel through wormholes this turn.
    pub wormhole: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerDieDef {
    faces: Vec<Face>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerDice {
    red: PlayerDieDef,
    blue: PlayerDieDef,
    yellow: PlayerDieDef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceFile {
    player: PlayerDice,
    avatar: Vec<AvatarFace>,
}

/// One side of the Corruption mat.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MatSide {
    /// Index of the Rise of the Corruption space.
    pub rise: u8,
    /// Spaces holding an Avatar token at setup.
    pub avatar_spaces: Vec<u8>,
    /// Extra reinforcement spaces of the first, mistaken mat, kept for
    /// configurations stored before the fix (see
    /// [`crate::GameConfig::legacy_reinforcements`]).
    pub legacy_reinforcements: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatFile {
    four_ships: MatSide,
    three_ships: MatSide,
}

/// The condition and behaviour of an Enemy or Avatar ability.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ability {
    /// A ship showing at least `min_misses` misses takes `amount` more retaliation.
    Swarm {
        /// Misses needed.
        min_misses: u8,
        /// Extra retaliation.
        amount: u8,
    },
    /// A ship that chose Offense takes more retaliation if it shows a miss.
    Piercing {
        /// Extra retaliation.
        amount: u8,
    },
    /// More shields against an attack in which anyone chose Defense.
    Bulwark {
        /// Extra shields.
        amount: u8,
    },
    /// A ship that takes retaliation loses scraps.
    Pillage {
        /// Scraps lost.
        amount: u8,
    },
    /// A ship that shows a miss exhausts available energy.
    Drain {
        /// Energy exhausted.
        amount: u8,
    },
    /// Recovers health after surviving an attack.
    Regenerate {
        /// Health recovered.
        amount: u8,
    },
    /// A ship that disengages loses more health.
    Pursuit {
        /// Extra health lost.
        amount: u8,
    },
    /// On a critical miss, permanently discard a health marker.
    Sunder {
        /// Markers discarded.
        amount: u8,
    },
    /// A ship showing two misses permanently discards an energy marker.
    Nullify {
        /// Markers discarded.
        amount: u8,
    },
    /// A ship that takes retaliation permanently discards a module or mod.
    Dismantle {
        /// Cards discarded.
        amount: u8,
    },
}

/// An Enemy card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Level 1-4.
    pub level: u8,
    /// Health.
    pub health: u8,
    /// Shields, bypassed on every attack.
    pub shields: u8,
    /// Special ability.
    pub ability: Ability,
}

/// An Avatar card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvatarDef {
    /// Stable identifier.
    pub id: String,
    /// Number printed on the token (movement order).
    pub number: u8,
    /// Display name.
    pub name: String,
    /// Health.
    pub health: u8,
    /// Shields.
    pub shields: u8,
    /// Special ability.
    pub ability: Ability,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnemiesFile {
    enemy: Vec<EnemyDef>,
    avatar: Vec<AvatarDef>,
}

/// What a Damaged card does while it stays on a ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DamagedEffect {
    /// One Action fewer each turn (never below 1).
    FewerActions,
    /// Cannot Strain.
    NoStrain,
    /// One more health lost whenever retaliation hits.
    BrittleHull,
    /// One special fewer on Skill Rolls.
    DullSensors,
    /// One energy marker cannot be used.
    FusedCapacitor,
    /// One hit fewer on attack rolls.
    WarpedTargeting,
    /// Cannot choose the Defense manoeuvre.
    ShakenCrew,
    /// Cannot Hyperspace Rush.
    FrayedDrive,
}

/// A Damaged card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamagedDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Lasting effect.
    pub effect: DamagedEffect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DamagedFile {
    card: Vec<DamagedDef>,
}

/// A ship's class, which unlocks class-locked exploration options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShipClass {
    /// Warrior.
    Warrior,
    /// Scholar.
    Scholar,
    /// Rogue.
    Rogue,
}

/// What earns a ship one XP (FAQ, "Vaisseaux Joueurs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XpCondition {
    /// Defeating an Enemy (Avatars count), one per Enemy.
    DefeatEnemy,
    /// Forming or joining a fleet.
    Fleet,
    /// Each Explore action (Signals and the Main Rift included).
    Explore,
    /// Gaining scraps in combat or exploration (once per exploration).
    ScrapsGained,
    /// Each Repair action.
    Repair,
    /// An attack roll with at least three hits (once per attack).
    ThreeHits,
}

/// A ship mat.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShipDef {
    /// Which ship.
    pub kind: crate::config::ShipKind,
    /// Display name.
    pub name: String,
    /// Class.
    pub class: ShipClass,
    /// Actions per turn.
    pub actions: u8,
    /// Hull (health markers).
    pub hull: u8,
    /// The two dice.
    pub dice: [DieColor; 2],
    /// Scrap price of each energy marker (first is free).
    pub energy_costs: Vec<u8>,
    /// XP needed for levels 2..6.
    pub xp_track: Vec<u8>,
    /// What earns XP.
    pub xp_condition: XpCondition,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipsFile {
    ship: Vec<ShipDef>,
}

/// Danger level of a Precursor Signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalTier {
    /// Blue cards.
    Hazardous,
    /// Yellow cards.
    Perilous,
    /// Red cards.
    Lethal,
}

/// An immediate effect from the rulebook's symbol list.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Each ship in the group loses health.
    LoseHealth {
        /// Health lost.
        amount: u8,
    },
    /// Each ship in the group draws a Damaged card.
    Damaged,
    /// The Corruption marker advances at once.
    AdvanceCorruption,
    /// Avatars move one more system this turn.
    AvatarMovesUp,
    /// Avatars move one system fewer this turn.
    AvatarMovesDown,
    /// A rift opens in the group's system.
    CreateRift,
    /// The group's turn ends.
    EndTurn,
    /// Each ship recovers health.
    RecoverHealth {
        /// Health recovered.
        amount: u8,
    },
    /// Each ship recovers all its energy.
    RecoverEnergy,
    /// The group gains scraps to share.
    GainScraps {
        /// Scraps gained.
        amount: u8,
    },
    /// Reveal systems anywhere on the board (connected to a revealed one).
    RevealSystems {
        /// How many.
        amount: u8,
    },
    /// Pacify revealed Enemy systems anywhere on the board.
    PacifySystems {
        /// How many.
        amount: u8,
    },
    /// Disable the rift of the group's system (white Rift marker).
    DisableRift,
    /// Gain a Ship Module for free; the group decides who takes it.
    GainModule,
    /// Gain a Precursor Ship Module for free; the group decides who takes it.
    GainPrecursorModule,
    /// A new Ally (one not chosen at setup) joins in this system (FAQ, Trapped Ally).
    NewAlly,
}

/// How a module is activated (p. 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// A permanent effect.
    Passive,
    /// Discarded after use.
    Consumable,
    /// Flip an energy marker to use.
    Energy,
}

/// When a module or mod can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Before your attack roll (while manoeuvres are chosen).
    BeforeAttackRoll,
    /// While engaged, before choosing the next attack.
    Engaged,
    /// After your attack roll, on your dice (or a fleet ship's).
    AfterAttackRoll,
    /// During your turn; costs no Action.
    Action,
    /// When you defeat an Enemy.
    OnDefeatEnemy,
    /// Always on.
    Passive,
}

/// What a module does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModuleEffect {
    /// Reroll up to `dice` of your dice (each die at most once).
    Reroll {
        /// Dice rerolled.
        dice: u8,
    },
    /// Ignore misses: no retaliation, damage or Enemy ability from them.
    IgnoreMiss {
        /// Misses ignored.
        count: u8,
        /// May ignore a fleet ship's miss.
        #[serde(default)]
        fleet: bool,
    },
    /// One of your specials counts as hits (the die is then used).
    SpecialAsHits {
        /// Hits per special.
        hits: u8,
    },
    /// Add hits to your attack.
    AddHits {
        /// Hits added.
        hits: u8,
    },
    /// Retaliation against you is reduced.
    Armor {
        /// Reduction per attack.
        amount: u8,
    },
    /// Ignore part of the Enemy's shields.
    Pierce {
        /// Shields ignored.
        amount: u8,
    },
    /// More hits whenever you choose Offense.
    OffenseHits {
        /// Hits added.
        hits: u8,
    },
    /// One miss fewer on your Detection Rolls.
    Stealth,
    /// More scraps when you Scavenge.
    Scavenger {
        /// Extra scraps.
        amount: u8,
    },
    /// Recover health.
    RecoverHealth {
        /// Health.
        amount: u8,
    },
    /// Recover all your energy.
    RecoverEnergy,
    /// One more Action this turn.
    ExtraAction,
    /// Reveal systems anywhere.
    RevealSystems {
        /// How many.
        amount: u8,
    },
    /// Gain scraps.
    GainScraps {
        /// Scraps.
        amount: u8,
    },
    /// Reroll one of your dice; it counts double (Berserker Cannon).
    Berserk,
    /// On a critical miss, each miss also counts as hits (Scattered Ray).
    ScatterOnCritical {
        /// Hits per miss.
        hits: u8,
    },
    /// Each of your misses also counts as hits.
    MissAsHits {
        /// Hits per miss.
        hits: u8,
    },
    /// A ship rerolls both its dice (it must be able to reroll both).
    RerollBoth {
        /// Any fleet ship, not only yours.
        fleet: bool,
    },
    /// Every ship of the fleet may ignore one miss, each choosing for itself.
    GrantIgnoreMiss,
    /// Every ship of the fleet may reroll one die, each choosing for itself.
    GrantReroll,
    /// Fleet ships may pay energy for your energy effects (once per attack or action).
    RelayIn,
    /// You may pay energy for a fleet ship's energy effect (once per attack or action).
    RelayOut,
    /// Roll one more die from the reserve and add it to your roll.
    ReserveDie,
    /// Before the roll: your Offense rolls a third die from the reserve.
    ExtraDie,
    /// Each special you roll adds these bonuses.
    SpecialBonus {
        /// Hits.
        #[serde(default)]
        hits: u8,
        /// Health recovered.
        #[serde(default)]
        heal: u8,
        /// Misses of yours ignored.
        #[serde(default)]
        ignore: u8,
        /// Scraps gained.
        #[serde(default)]
        scraps: u8,
        /// Enemy shields ignored.
        #[serde(default)]
        pierce: u8,
    },
    /// More hits on every attack.
    AttackHits {
        /// Hits.
        hits: u8,
    },
    /// Recover health at the start of your turn.
    StartRegen {
        /// Health.
        amount: u8,
    },
    /// This turn, your Detection Rolls ignore one miss.
    Cloak,
    /// One scrap for each system your group reveals.
    ScrapOnReveal,
    /// One scrap for each Explore action (Signals and the Main Rift too).
    ScrapOnExplore,
    /// Reveal a system adjacent to your current system (no Action).
    FreeProbe,
    /// More specials on your Skill Rolls.
    SkillBonus {
        /// Specials.
        amount: u8,
    },
    /// One more Action; not in a fleet.
    SoloExtraAction,
    /// This turn your Rush may pass Avatars; not in a fleet.
    RushShield,
    /// A special of yours lets you reroll another die (yours, or a fleet ship's).
    SpecialReroll {
        /// Any fleet ship's die.
        fleet: bool,
    },
    /// Lose a scrap per die to reroll up to `dice` dice.
    PayScrapReroll {
        /// Dice per attack.
        dice: u8,
        /// Fleet ships' dice too.
        fleet: bool,
    },
    /// Modules cost less at Allies.
    ModuleDiscount {
        /// Discount.
        amount: u8,
    },
    /// Shuffle an engaged Enemy back into the deck.
    Decoy {
        /// The system is pacified if every Enemy was sent back.
        pacify: bool,
    },
    /// When your fleet's turn ends, you may go on alone.
    SplitFromFleet,
    /// Scavenge gives one more scrap to every ship of your group.
    FleetScavenger,
    /// One scrap: repair 1 health on up to `ships` ships in your system, no Action.
    DroneRepair {
        /// Ships repaired.
        ships: u8,
    },
    /// Repair a ship anywhere.
    RemoteRepair {
        /// Health.
        amount: u8,
    },
    /// Damage Rolls ignore one miss (yours, or every fleet ship's).
    DamageRollShield {
        /// For the whole fleet.
        fleet: bool,
    },
    /// A strain Damage Roll showing two specials gives the Strain back (up to 3 times a turn).
    StrainRecovery,
    /// Each ship of your group recovers energy.
    FleetEnergy {
        /// Energy per ship.
        amount: u8,
    },
    /// The Enemy's shields are ignored this attack.
    IgnoreShields,
    /// The Enemy's ability does not trigger this attack.
    CancelAbility,
    /// One more energy marker, free.
    BonusEnergy,
}

/// One effect of a Precursor Mod.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModEffectDef {
    /// Stable identifier.
    pub id: String,
    /// Name (as the FAQ names it).
    pub name: String,
    /// Energy (levels 1, 3, 5) or passive (2, 4, 6).
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

/// A Precursor Mod card: one level of one ship.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModDef {
    /// The ship.
    pub ship: crate::config::ShipKind,
    /// Level 1..=6.
    pub level: u8,
    /// One effect at level 1, a choice of two from level 2.
    pub effects: Vec<ModEffectDef>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModsFile {
    #[serde(rename = "mod")]
    mods: Vec<ModDef>,
}

/// A usable power, from a module or a mod.
#[derive(Clone, Copy, Debug)]
pub struct Power {
    /// Display name.
    pub name: &'static str,
    /// How it is paid.
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

/// A Ship Module or Precursor Ship Module card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// A Precursor Ship Module.
    pub precursor: bool,
    /// Price in scraps at an Ally.
    pub price: u8,
    /// Passive, consumable or energy.
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModulesFile {
    module: Vec<ModuleDef>,
}

/// What an Ally offers for sale.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AllyOffer {
    /// Ship Modules drawn.
    pub ship_modules: u8,
    /// Precursor Ship Modules drawn.
    pub precursor_modules: u8,
}

/// An Ally's special skill.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AllySkill {
    /// Reveal a system anywhere for scraps.
    Chart {
        /// Price.
        cost: u8,
    },
    /// Repairs: 1 health per scrap, a Damaged card for `cost`.
    Repairs {
        /// Price of removing a Damaged card.
        cost: u8,
    },
    /// Pacify an Enemy system anywhere for scraps.
    Muscle {
        /// Price.
        cost: u8,
    },
    /// Modules cost less.
    Bargain {
        /// Discount.
        cost: u8,
    },
}

/// An Ally card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllyDef {
    /// Which Ally.
    pub kind: crate::config::AllyKind,
    /// Display name.
    pub name: String,
    /// Modules on offer when met.
    pub offer: AllyOffer,
    /// Special skill.
    pub skill: AllySkill,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AlliesFile {
    ally: Vec<AllyDef>,
}

/// The three kinds of Exploration (p. 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplorationType {
    /// Safe; several options for more Actions.
    Analysis,
    /// One option for the whole group; one needs a Skill Roll.
    Warning,
    /// A Skill Roll the group passes or fails together.
    Danger,
}

/// One option of an Exploration card.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ExplorationOption {
    /// Locked unless a ship of the group has this class.
    #[serde(default)]
    pub class: Option<ShipClass>,
    /// Specials needed on a Skill Roll (Warning's strong option).
    #[serde(default)]
    pub skill: Option<u8>,
    /// Effects (on success when there is a Skill Roll).
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Effects on a failed Skill Roll.
    #[serde(default)]
    pub penalty: Vec<Effect>,
}

/// An Exploration card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorationDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Analysis, Warning or Danger.
    #[serde(rename = "type")]
    pub kind: ExplorationType,
    /// Options (Analysis and Warning).
    #[serde(default)]
    pub options: Vec<ExplorationOption>,
    /// Specials needed (Danger).
    #[serde(default)]
    pub skill: Option<u8>,
    /// Effects of a failed Danger roll.
    #[serde(default)]
    pub penalty: Vec<Effect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplorationsFile {
    card: Vec<ExplorationDef>,
}

/// How a Precursor Signal's Key is reached.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Challenge {
    /// Remove damage markers by [Repair] instructions.
    Repairs {
        /// Markers placed on the card.
        amount: u8,
    },
    /// Pay scraps by [Offer] instructions.
    Tribute {
        /// Scraps owed.
        amount: u8,
    },
    /// Pass a Skill Roll by [Attempt] instructions.
    Trial {
        /// Specials needed.
        amount: u8,
        /// Suffered on a failed attempt.
        #[serde(default)]
        on_fail: Vec<Effect>,
    },
    /// Defeat a guardian engaged by [Assault].
    Guardian {
        /// Minimum level of the guardian.
        amount: u8,
    },
}

/// A Precursor Signal card.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignalDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Danger level.
    pub tier: SignalTier,
    /// How the Key is reached.
    pub challenge: Challenge,
    /// Applied when the card is revealed.
    #[serde(default)]
    pub on_reveal: Vec<Effect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignalsFile {
    signal: Vec<SignalDef>,
}

/// All content, loaded and validated.
#[derive(Debug)]
pub struct Content {
    /// Tiles; index = tile id used by the engine.
    pub tiles: Vec<TileDef>,
    /// Faces of the red, blue and yellow dice.
    pub dice: [[Face; 6]; 3],
    /// Faces of the Avatar die.
    pub avatar_die: [AvatarFace; 6],
    /// Mat side for four ships.
    pub mat_four: MatSide,
    /// Mat side for three ships.
    pub mat_three: MatSide,
    /// Enemy cards.
    pub enemies: Vec<EnemyDef>,
    /// Avatar cards, sorted by number.
    pub avatars: Vec<AvatarDef>,
    /// Damaged cards.
    pub damaged: Vec<DamagedDef>,
    /// Ship mats, in `ShipKind::ALL` order.
    pub ships: Vec<ShipDef>,
    /// Precursor Signal cards.
    pub signals: Vec<SignalDef>,
    /// Exploration cards.
    pub explorations: Vec<ExplorationDef>,
    /// Ship Modules and Precursor Ship Modules.
    pub modules: Vec<ModuleDef>,
    /// Allies, in `AllyKind::ALL` order.
    pub allies: Vec<AllyDef>,
    /// Precursor Mod cards.
    pub mods: Vec<ModDef>,
    /// Every mod effect, flattened (index = mod effect id used in state).
    pub mod_effects: Vec<ModEffectDef>,
}

/// A content file that does not meet the rules' counts or shapes.
#[derive(Debug, thiserror::Error)]
#[error("content file {file}: {entry}: {problem}")]
pub struct ContentError {
    /// The file that is wrong.
    pub file: &'static str,
    /// The entry in it.
    pub entry: String,
    /// What is wrong.
    pub problem: String,
}

fn err(file: &'static str, entry: impl Into<String>, problem: impl Into<String>) -> ContentError {
    ContentError { file, entry: entry.into(), problem: problem.into() }
}

fn parse<T: for<'de> Deserialize<'de>>(file: &'static str, text: &str) -> Result<T, ContentError> {
    toml::from_str(text).map_err(|e| err(file, "(file)", e.to_string()))
}

/// The embedded content files, by name.
pub const FILES: [(&str, &str); 11] = [
    ("tiles.toml", include_str!("../content/tiles.toml")),
    ("dice.toml", include_str!("../content/dice.toml")),
    ("corruption.toml", include_str!("../content/corruption.toml")),
    ("enemies.toml", include_str!("../content/enemies.toml")),
    ("damaged.toml", include_str!("../content/damaged.toml")),
    ("ships.toml", include_str!("../content/ships.toml")),
    ("signals.toml", include_str!("../content/signals.toml")),
    ("explorations.toml", include_str!("../content/explorations.toml")),
    ("modules.toml", include_str!("../content/modules.toml")),
    ("allies.toml", include_str!("../content/allies.toml")),
    ("mods.toml", include_str!("../content/mods.toml")),
];

impl Content {
    /// Parses and validates content from the given file texts (same order as [`FILES`]).
    pub fn load(texts: [&str; 11]) -> Result<Content, ContentError> {
        let tiles: Vec<TileDef> = parse::<TilesFile>("tiles.toml", texts[0])?.tile;
        validate_tiles(&tiles)?;
        let dice: DiceFile = parse("dice.toml", texts[1])?;
        let die = |name: &str, d: PlayerDieDef| -> Result<[Face; 6], ContentError> {
            let faces: [Face; 6] = d
                .faces
                .try_into()
                .map_err(|_| err("dice.toml", name.to_string(), "a player die needs exactly 6 faces"))?;
            for f in [Face::Hit, Face::Miss, Face::Special] {
                if !faces.contains(&f) {
                    return Err(err("dice.toml", name.to_string(), format!("no {f:?} face")));
                }
            }
            Ok(faces)
        };
        let dice_faces = [
            die("player.red", dice.player.red)?,
            die("player.blue", dice.player.blue)?,
            die("player.yellow", dice.player.yellow)?,
        ];
        let avatar_die: [AvatarFace; 6] =
            dice.avatar.try_into().map_err(|_| err("dice.toml", "avatar", "the Avatar die needs exactly 6 faces"))?;
        if avatar_die.iter().any(|f| f.moves > 3) {
            return Err(err("dice.toml", "avatar", "an Avatar die face moves 0 to 3 systems"));
        }
        if !avatar_die.iter().any(|f| f.wormhole) {
            return Err(err("dice.toml", "avatar", "some faces must show the wormhole symbol"));
        }
        let mat: MatFile = parse("corruption.toml", texts[2])?;
        validate_mat("four_ships", &mat.four_ships, 3)?;
        validate_mat("three_ships", &mat.three_ships, 2)?;
        let en: EnemiesFile = parse("enemies.toml", texts[3])?;
        validate_enemies(&en)?;
        let mut avatars = en.avatar;
        avatars.sort_by_key(|a| a.number);
        let damaged = parse::<DamagedFile>("damaged.toml", texts[4])?.card;
        if damaged.len() != 16 {
            return Err(err("damaged.toml", "card", format!("16 Damaged cards expected, found {}", damaged.len())));
        }
        unique_ids("damaged.toml", damaged.iter().map(|d| d.id.as_str()))?;
        let mut ships = parse::<ShipsFile>("ships.toml", texts[5])?.ship;
        validate_ships(&mut ships)?;
        let signals = parse::<SignalsFile>("signals.toml", texts[6])?.signal;
        validate_signals(&signals)?;
        let explorations = parse::<ExplorationsFile>("explorations.toml", texts[7])?.card;
        validate_explorations(&explorations)?;
        let modules = parse::<ModulesFile>("modules.toml", texts[8])?.module;
        validate_modules(&modules)?;
        let mut allies = parse::<AlliesFile>("allies.toml", texts[9])?.ally;
        allies.sort_by_key(|a| a.kind);
        if allies.iter().map(|a| a.kind).collect::<Vec<_>>() != crate::config::AllyKind::ALL {
            return Err(err("allies.toml", "ally", "each of the four Allies exactly once"));
        }
        let mods = parse::<ModsFile>("mods.toml", texts[10])?.mods;
        validate_mods(&mods)?;
        let mod_effects = mods.iter().flat_map(|m| m.effects.iter().cloned()).collect();
        Ok(Content {
            tiles,
            dice: dice_faces,
            avatar_die,
            mat_four: mat.four_ships,
            mat_three: mat.three_ships,
            enemies: en.enemy,
            avatars,
            damaged,
            ships,
            signals,
            explorations,
            modules,
            allies,
            mods,
            mod_effects,
        })
    }

    /// The embedded content, loaded once. Panics only if the files shipped
    /// inside the crate are invalid, which the content tests rule out.
    pub fn get() -> &'static Content {
        static CONTENT: OnceLock<Content> = OnceLock::new();
        CONTENT.get_or_init(|| {
            let texts = FILES.map(|(_, t)| t);
            match Content::load(texts) {
                Ok(c) => c,
                Err(e) => panic!("embedded content is invalid: {e}"),
            }
        })
    }

    /// Faces of a player die.
    pub fn die(&self, color: DieColor) -> &[Face; 6] {
        &self.dice[color as usize]
    }

    /// The ship mat for a kind.
    pub fn ship(&self, kind: crate::config::ShipKind) -> &ShipDef {
        &self.ships[kind as usize]
    }

    /// A module's or mod's usable power.
    pub fn power(&'static self, source: crate::decision::Source) -> Power {
        match source {
            crate::decision::Source::Module(m) => {
                let d = &self.modules[m as usize];
                Power { name: &d.name, activation: d.activation, trigger: d.trigger, effect: d.effect }
            }
            crate::decision::Source::Mod(m) => {
                let d = &self.mod_effects[m as usize];
                Power { name: &d.name, activation: d.activation, trigger: d.trigger, effect: d.effect }
            }
        }
    }

    /// Indices of the mod effects a ship may take at a level.
    pub fn mod_choices(&self, ship: crate::config::ShipKind, level: u8) -> Vec<u8> {
        let mut i = 0u8;
        let mut out = Vec::new();
        for m in &self.mods {
            for _ in &m.effects {
                if m.ship == ship && m.level == level {
                    out.push(i);
                }
                i += 1;
            }
        }
        out
    }

    /// The tile index of the Main Rift.
    pub fn main_rift(&self) -> u8 {
        self.tiles.iter().position(|t| t.kind == SystemKind::MainRift).unwrap_or(0) as u8
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilesFile {
    tile: Vec<TileDef>,
}

fn unique_ids<'a>(file: &'static str, ids: impl Iterator<Item = &'a str>) -> Result<(), ContentError> {
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(err(file, id.to_string(), "duplicate id"));
        }
    }
    Ok(())
}

fn validate_tiles(tiles: &[TileDef]) -> Result<(), ContentError> {
    const F: &str = "tiles.toml";
    unique_ids(F, tiles.iter().map(|t| t.id.as_str()))?;
    let count = |k| tiles.iter().filter(|t| t.kind == k).count();
    for (k, n) in
        [(SystemKind::Allied, 12), (SystemKind::Enemy, 12), (SystemKind::Corrupt, 6), (SystemKind::MainRift, 1)]
    {
        if count(k) != n {
            return Err(err(F, format!("{k:?}"), format!("{n} tiles expected, found {}", count(k))));
        }
    }
    let mut keys = Vec::new();
    for t in tiles {
        if t.lanes.len() != 6 || t.lanes.chars().any(|c| c != '0' && c != '1') {
            return Err(err(F, &t.id, "lanes must be six '0'/'1' characters"));
        }
        if t.lane_mask().count_ones() < 2 {
            return Err(err(F, &t.id, "a tile needs at least two lanes"));
        }
        match t.kind {
            SystemKind::Enemy if t.patrol == 0 => {
                return Err(err(F, &t.id, "an Enemy system needs a patrol of 1 or 2"));
            }
            SystemKind::Allied | SystemKind::Corrupt | SystemKind::MainRift
                if t.patrol > 0 || t.surveillance || t.stronger =>
            {
                return Err(err(F, &t.id, "only Enemy systems have patrols, surveillance or stronger enemies"));
            }
            SystemKind::Corrupt | SystemKind::MainRift if t.exploration || t.signal.is_some() || t.ally => {
                return Err(err(F, &t.id, "Corrupt systems and the Main Rift cannot be explored"));
            }
            _ => {}
        }
        if t.patrol > 2 {
            return Err(err(F, &t.id, "a patrol is one or two Enemies"));
        }
        if t.exploration && t.signal.is_some() {
            return Err(err(F, &t.id, "a Signal system takes the Key marker instead of an Exploration marker"));
        }
        if let Some(k) = t.signal {
            if !(1..=4).contains(&k) {
                return Err(err(F, &t.id, "signal must be a Key number 1 to 4"));
            }
            keys.push((k, t.three_player_removed));
        }
    }
    keys.sort();
    if keys.iter().map(|k| k.0).collect::<Vec<_>>() != vec![1, 2, 3, 4] {
        return Err(err(F, "signal", "Keys 1, 2, 3 and 4 must each have exactly one Signal system"));
    }
    if keys.iter().filter(|k| k.1).map(|k| k.0).collect::<Vec<_>>() != vec![4] {
        return Err(err(F, "signal", "only Key 4's Signal system is removed in the 3-ship variant"));
    }
    let removed = |k| tiles.iter().filter(|t| t.kind == k && t.three_player_removed).count();
    if removed(SystemKind::Allied) + removed(SystemKind::Enemy) != 4 || removed(SystemKind::Corrupt) != 1 {
        return Err(err(F, "three_player_removed", "the 3-ship variant removes 4 blue/orange tiles and 1 red tile"));
    }
    let markers = tiles.iter().filter(|t| t.exploration).count();
    if markers > 20 {
        return Err(err(F, "exploration", format!("only 20 Exploration markers exist, {markers} symbols printed")));
    }
    Ok(())
}

fn validate_mat(name: &str, m: &MatSide, avatars: usize) -> Result<(), ContentError> {
    const F: &str = "corruption.toml";
    if m.avatar_spaces.len() != avatars {
        return Err(err(F, name, format!("{avatars} Avatar spaces expected")));
    }
    for &s in m.avatar_spaces.iter().chain(&m.legacy_reinforcements) {
        if s == 0 || s > m.rise {
            return Err(err(F, name, format!("space {s} is off the timeline (1..={})", m.rise)));
        }
    }
    if m.legacy_reinforcements.iter().any(|r| m.avatar_spaces.contains(r)) {
        return Err(err(F, name, "a legacy reinforcement and an Avatar space share a space"));
    }
    Ok(())
}

fn validate_enemies(en: &EnemiesFile) -> Result<(), ContentError> {
    const F: &str = "enemies.toml";
    unique_ids(F, en.enemy.iter().map(|e| e.id.as_str()).chain(en.avatar.iter().map(|a| a.id.as_str())))?;
    if en.enemy.len() != 16 {
        return Err(err(F, "enemy", "16 Enemy cards expected"));
    }
    for lvl in 1..=4 {
        if en.enemy.iter().filter(|e| e.level == lvl).count() != 4 {
            return Err(err(F, format!("level {lvl}"), "4 Enemies per level expected"));
        }
    }
    for e in &en.enemy {
        if e.health == 0 {
            return Err(err(F, &e.id, "health must be positive"));
        }
        if matches!(e.ability, Ability::Sunder { .. } | Ability::Nullify { .. } | Ability::Dismantle { .. }) {
            return Err(err(F, &e.id, "permanent discards are Avatar abilities"));
        }
    }
    if en.avatar.len() != 4 {
        return Err(err(F, "avatar", "4 Avatars expected"));
    }
    let max_enemy = en.enemy.iter().map(|e| e.health).max().unwrap_or(0);
    let mut numbers: Vec<u8> = en.avatar.iter().map(|a| a.number).collect();
    numbers.sort();
    if numbers != [1, 2, 3, 4] {
        return Err(err(F, "avatar", "Avatars are numbered 1 to 4"));
    }
    for a in &en.avatar {
        if a.health <= max_enemy {
            return Err(err(F, &a.id, "an Avatar has more health than any Enemy"));
        }
    }
    Ok(())
}

fn validate_ships(ships: &mut [ShipDef]) -> Result<(), ContentError> {
    const F: &str = "ships.toml";
    ships.sort_by_key(|s| s.kind as u8);
    let kinds: Vec<_> = ships.iter().map(|s| s.kind).collect();
    if kinds != crate::config::ShipKind::ALL {
        return Err(err(F, "ship", "each of the six ships exactly once"));
    }
    let mut per_color = [0u8; 3];
    for s in ships.iter() {
        let name = s.kind.as_str();
        if s.dice[0] != s.dice[1] {
            // two colours, as the mats show
        } else {
            return Err(err(F, name, "a ship rolls two dice of different colours"));
        }
        for d in s.dice {
            per_color[d as usize] += 1;
        }
        if s.energy_costs.first() != Some(&0) || s.energy_costs.len() > 7 {
            return Err(err(F, name, "the first energy marker is free and a ship holds at most 7"));
        }
        if s.xp_track.len() != 5 || s.xp_track.windows(2).any(|w| w[0] >= w[1]) {
            return Err(err(F, name, "xp_track lists 5 increasing thresholds (levels 2..6)"));
        }
        if !(2..=5).contains(&s.actions) || s.hull == 0 || s.hull > 9 {
            return Err(err(F, name, "actions 2..5 and hull 1..9"));
        }
    }
    let _ = per_color;
    Ok(())
}

fn validate_signals(signals: &[SignalDef]) -> Result<(), ContentError> {
    const F: &str = "signals.toml";
    unique_ids(F, signals.iter().map(|s| s.id.as_str()))?;
    for tier in [SignalTier::Hazardous, SignalTier::Perilous, SignalTier::Lethal] {
        if signals.iter().filter(|s| s.tier == tier).count() != 4 {
            return Err(err(F, format!("{tier:?}"), "4 Signals per tier expected"));
        }
    }
    for s in signals {
        let amount = match &s.challenge {
            Challenge::Repairs { amount } | Challenge::Tribute { amount } | Challenge::Trial { amount, .. } => *amount,
            Challenge::Guardian { amount } if *amount > 4 => 0,
            Challenge::Guardian { amount } => *amount,
        };
        if amount == 0 {
            return Err(err(F, &s.id, "challenge amount out of range"));
        }
    }
    Ok(())
}

fn validate_explorations(cards: &[ExplorationDef]) -> Result<(), ContentError> {
    const F: &str = "explorations.toml";
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    if cards.len() != 20 {
        return Err(err(F, "card", format!("20 Exploration cards expected, found {}", cards.len())));
    }
    for c in cards {
        match c.kind {
            ExplorationType::Analysis | ExplorationType::Warning => {
                if c.options.is_empty() || c.options.len() > 3 || c.skill.is_some() {
                    return Err(err(
                        F,
                        &c.id,
                        "Analysis and Warning cards have 1 to 3 options and no card-level skill",
                    ));
                }
                if c.options.iter().any(|o| o.class.is_none() && o.skill.is_none()) {
                    // at least one option always open
                } else {
                    return Err(err(F, &c.id, "one option must be open to every ship"));
                }
                let skills = c.options.iter().filter(|o| o.skill.is_some()).count();
                if c.kind == ExplorationType::Analysis && skills > 0 {
                    return Err(err(F, &c.id, "Analysis options need no Skill Roll"));
                }
                if c.kind == ExplorationType::Warning && skills != 1 {
                    return Err(err(F, &c.id, "a Warning has exactly one option behind a Skill Roll"));
                }
            }
            ExplorationType::Danger => {
                if c.skill.is_none() || !c.options.is_empty() || c.penalty.is_empty() {
                    return Err(err(F, &c.id, "a Danger card has a skill target, a penalty and no options"));
                }
            }
        }
    }
    Ok(())
}

fn validate_modules(modules: &[ModuleDef]) -> Result<(), ContentError> {
    const F: &str = "modules.toml";
    unique_ids(F, modules.iter().map(|m| m.id.as_str()))?;
    let precursor = modules.iter().filter(|m| m.precursor).count();
    if modules.len() - precursor != 24 || precursor != 8 {
        return Err(err(F, "module", "24 Ship Modules and 8 Precursor Ship Modules expected"));
    }
    for m in modules {
        let passive_effect = matches!(
            m.effect,
            ModuleEffect::Armor { .. }
                | ModuleEffect::Pierce { .. }
                | ModuleEffect::OffenseHits { .. }
                | ModuleEffect::Stealth
                | ModuleEffect::Scavenger { .. }
        );
        if passive_effect != (m.trigger == Trigger::Passive)
            || (m.trigger == Trigger::Passive && m.activation != Activation::Passive)
        {
            return Err(err(F, &m.id, "passive effects need the passive trigger and activation"));
        }
        let dice_effect = matches!(
            m.effect,
            ModuleEffect::Reroll { .. }
                | ModuleEffect::IgnoreMiss { .. }
                | ModuleEffect::SpecialAsHits { .. }
                | ModuleEffect::AddHits { .. }
        );
        if dice_effect != (m.trigger == Trigger::AfterAttackRoll) {
            return Err(err(F, &m.id, "dice effects are used after an attack roll"));
        }
        if m.price == 0 {
            return Err(err(F, &m.id, "a module has a scrap price"));
        }
    }
    Ok(())
}

fn validate_mods(mods: &[ModDef]) -> Result<(), ContentError> {
    const F: &str = "mods.toml";
    unique_ids(F, mods.iter().flat_map(|m| m.effects.iter().map(|e| e.id.as_str())))?;
    if mods.len() != 36 {
        return Err(err(F, "mod", format!("36 Precursor Mods expected (6 per ship), found {}", mods.len())));
    }
    for ship in crate::config::ShipKind::ALL {
        for level in 1..=6u8 {
            let here: Vec<&ModDef> = mods.iter().filter(|m| m.ship == ship && m.level == level).collect();
            let name = format!("{} level {level}", ship.as_str());
            let [m] = here.as_slice() else {
                return Err(err(F, name, "exactly one mod per ship and level"));
            };
            let want = if level == 1 { 1 } else { 2 };
            if m.effects.len() != want {
                return Err(err(F, name, format!("{want} effect(s) expected")));
            }
            let energy = level % 2 == 1;
            for e in &m.effects {
                if (e.activation == Activation::Energy) != energy {
                    return Err(err(F, &e.id, "energy mods at levels 1, 3, 5; passive mods at 2, 4, 6"));
                }
            }
        }
    }
    Ok(())
}
