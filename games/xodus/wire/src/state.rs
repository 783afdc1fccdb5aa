//! The engine's view as the typed `xodus.v1.XodusState`, and a typed state
//! read back into an engine view (for clients that simulate with the
//! engine, like the AI captains). The two are inverse: a view written and
//! read back is the same view (tested over random games).

use crate::WireError;
use crate::enums::*;
use crate::step::{source, source_back, step, step_back};
use tabletop::xodus_pb as x;
use xodus_engine::content::Content;
use xodus_engine::*;

/// The schema revision of `XodusState` this crate writes
/// (tabletop.v1.GameState.schema_version).
pub const SCHEMA_VERSION: u32 = 1;

/// The typed configuration (it has no seed field: whether a caller may
/// know the seed is the service's to say, in `GameSummary.seed`).
pub fn xodus_config(c: &xodus_engine::GameConfig) -> x::XodusConfig {
    x::XodusConfig {
        ships: c.ships.iter().map(|&k| ship(k) as i32).collect(),
        difficulty: difficulty(c.difficulty) as i32,
        allies: c.allies.iter().map(|&a| ally(a) as i32).collect(),
        nightmare: c.nightmare,
        legacy_reinforcements: c.legacy_reinforcements,
        rules_revision: c.rules_revision,
    }
}

/// The typed state of a view.
pub fn xodus_state(v: &View) -> x::XodusState {
    let c = Content::get();
    let p = &v.public;
    x::XodusState {
        round: v.round,
        phase: v.phase.as_str().to_string(),
        phase_kind: phase(v.phase) as i32,
        config: Some(xodus_config(&v.config)),
        tiles: p
            .tiles
            .iter()
            .map(|t| {
                let def = c.tiles.get(usize::from(t.tile));
                x::Tile {
                    tile: u32::from(t.tile),
                    hex: Some(hex(t.hex)),
                    rotation: u32::from(t.rotation),
                    lanes: u32::from(t.lanes),
                    exploration_marker: t.exploration_marker,
                    key_marker: t.key_marker.map(u32::from),
                    pacified: pacification(t.pacified) as i32,
                    rift_created: t.rift_created,
                    rift_disabled: t.rift_disabled,
                    keys_activated: wide(&t.keys_activated),
                    kind: def.map(|d| system(d.kind) as i32).unwrap_or_default(),
                    wormhole: def.is_some_and(|d| d.wormhole),
                }
            })
            .collect(),
        removed_tiles: wide(&p.removed_tiles),
        piles: p
            .piles
            .iter()
            .map(|p| x::Pile { remaining: u32::from(p.remaining), special_left: p.special_left, bottom: p.bottom })
            .collect(),
        ships: p.ships.iter().map(ship_state).collect(),
        corruption: Some(x::Corruption {
            position: u32::from(p.corruption.position),
            rise: u32::from(p.corruption.rise),
            face_down: wide(&p.corruption.face_down),
            red_boxes: wide(&p.corruption.red_boxes),
            movement_this_turn: i32::from(p.corruption.movement_this_turn),
            movement_permanent: i32::from(p.corruption.movement_permanent),
            rift_rush: p.corruption.rift_rush,
            retreats_this_round: p.corruption.retreats_this_round.iter().copied().map(hex).collect(),
            retreats_waiting: p.corruption.retreats_waiting.iter().copied().map(hex).collect(),
            movement_down_marker: p.corruption.movement_markers & xodus_engine::MOVEMENT_WHITE != 0,
            movement_up_marker: p.corruption.movement_markers & xodus_engine::MOVEMENT_RED != 0,
        }),
        avatars: p
            .avatars
            .iter()
            .map(|a| x::Avatar {
                card: u32::from(a.card),
                place: Some(match a.place {
                    AvatarPlace::Mat { space } => x::avatar::Place::MatSpace(u32::from(space)),
                    AvatarPlace::Board { hex: h } => x::avatar::Place::Hex(hex(h)),
                    AvatarPlace::Gone => x::avatar::Place::Gone(true),
                }),
                damage: u32::from(a.damage),
            })
            .collect(),
        enemies: p
            .board_enemies
            .iter()
            .map(|e| x::BoardEnemy {
                card: u32::from(e.card),
                hex: Some(hex(e.hex)),
                damage: u32::from(e.damage),
                guards_key: e.guards_key.map(u32::from),
            })
            .collect(),
        enemy_discard: wide(&p.enemy_discard),
        decks: Some(x::DeckSizes {
            system_stack: u32::from(v.stack_remaining),
            enemy_deck: u32::from(v.enemy_deck_size),
            enemy_reserve: u32::from(v.enemy_reserve_size),
            damaged_deck: u32::from(v.damaged_deck_size),
            module_deck: u32::from(v.module_deck_size),
            precursor_deck: u32::from(v.precursor_deck_size),
            enemy_deck_levels: wide(&p.deck_levels),
            enemy_reserve_levels: wide(&p.reserve_levels),
            exploration_deck: exploration_deck(p),
        }),
        signals: p
            .signals
            .iter()
            .map(|s| x::SignalSlot {
                key: u32::from(s.key),
                card: s.card.map(u32::from),
                progress: u32::from(s.progress),
                solved: s.solved,
            })
            .collect(),
        damaged_discard: wide(&p.damaged_discard),
        exploration_supply: u32::from(p.exploration_supply),
        pacify_supply: u32::from(p.pacify_supply),
        active: wide(&p.active),
        fight: p.fight.as_ref().map(|f| x::Fight {
            hex: Some(hex(f.hex)),
            seats: wide(&f.seats),
            pacify: f.pacify,
            defeated: u32::from(f.defeated),
            decoys: u32::from(f.decoys),
            decoy_pacifies: f.decoy_pacifies,
            begun: f.begun,
            relayed: wide(&f.relayed),
            avatars_only: f.avatars_only,
        }),
        next_fleet: u32::from(p.next_fleet),
        step: Some(step(&p.pending)),
        queued: p.queued.iter().map(step).collect(),
        resume: p.resume.as_deref().map(step),
        end_turn_requested: p.end_turn_requested,
        exploration_discard: wide(&p.exploration_discard),
        allies: p
            .allies
            .iter()
            .map(|a| x::Ally { kind: ally(a.kind) as i32, hex: Some(hex(a.hex)), offer: wide(&a.offer) })
            .collect(),
        module_discard: wide(&p.module_discard),
        exploration_xp: wide(&p.exploration_xp),
    }
}

/// Exploration cards not yet drawn: all but the discarded ones and the
/// one being resolved (pending, or waiting behind an effect's decision).
fn exploration_deck(p: &Public) -> u32 {
    let total = Content::get().explorations.len();
    let resolving = p.waiting_steps().filter(|s| matches!(s, Pending::Exploration { .. })).count();
    total.saturating_sub(p.exploration_discard.len() + resolving) as u32
}

fn ship_state(s: &Ship) -> x::Ship {
    x::Ship {
        seat: u32::from(s.seat),
        kind: ship(s.kind) as i32,
        hex: Some(hex(s.hex)),
        health: u32::from(s.health),
        max_health: u32::from(s.max_health),
        energy_total: u32::from(s.energy_total),
        energy_used: u32::from(s.energy_used),
        scraps: u32::from(s.scraps),
        xp: u32::from(s.xp),
        level: u32::from(s.level),
        damaged: wide(&s.damaged),
        keys: wide(&s.keys),
        actions_left: u32::from(s.actions_left),
        strained: s.strained,
        turn_started: s.turn_started,
        played: s.played,
        scavenged: s.scavenged,
        disengaged: s.disengaged,
        hidden: s.hidden,
        engaged: s.engaged,
        defeated: s.defeated,
        fleet: s.fleet.map(u32::from),
        modules: wide(&s.modules),
        mod_effects: wide(&s.mods),
        powers_used: s.powers_used.iter().map(|&p| source(p)).collect(),
        cloaked: s.cloaked,
        rush_shield: s.rush_shield,
        strain_recoveries: u32::from(s.strain_recoveries),
        relayed: s.relayed,
        energy_lost: u32::from(s.energy_lost),
    }
}

fn ship_back(s: &x::Ship) -> Result<Ship, WireError> {
    Ok(Ship {
        seat: small(s.seat, "ship.seat")?,
        kind: crate::enums::ship_back(s.kind)?,
        hex: hex_back(s.hex.as_ref(), "ship.hex")?,
        health: small(s.health, "ship.health")?,
        max_health: small(s.max_health, "ship.max_health")?,
        energy_total: small(s.energy_total, "ship.energy_total")?,
        energy_used: small(s.energy_used, "ship.energy_used")?,
        scraps: small(s.scraps, "ship.scraps")?,
        xp: small(s.xp, "ship.xp")?,
        level: small(s.level, "ship.level")?,
        damaged: smalls(&s.damaged, "ship.damaged")?,
        keys: smalls(&s.keys, "ship.keys")?,
        actions_left: small(s.actions_left, "ship.actions_left")?,
        strained: s.strained,
        turn_started: s.turn_started,
        played: s.played,
        scavenged: s.scavenged,
        disengaged: s.disengaged,
        hidden: s.hidden,
        engaged: s.engaged,
        defeated: s.defeated,
        fleet: s.fleet.map(|f| small(f, "ship.fleet")).transpose()?,
        modules: smalls(&s.modules, "ship.modules")?,
        mods: smalls(&s.mod_effects, "ship.mod_effects")?,
        powers_used: s.powers_used.iter().map(|p| source_back(Some(p))).collect::<Result<_, _>>()?,
        cloaked: s.cloaked,
        rush_shield: s.rush_shield,
        strain_recoveries: small(s.strain_recoveries, "ship.strain_recoveries")?,
        relayed: s.relayed,
        energy_lost: small(s.energy_lost, "ship.energy_lost")?,
    })
}

fn levels(v: &[u32], field: &'static str) -> Result<[u8; 4], WireError> {
    let v = smalls(v, field)?;
    v.try_into().map_err(|_| WireError::OutOfRange(field))
}

/// The engine view a typed state describes, as `viewer` sees it, at
/// sequence number `seq`, with `outcome` once the game has ended. The
/// pending decision is recomputed by the engine from the public state.
pub fn view_back(s: &x::XodusState, viewer: Viewer, seq: u64, outcome: Option<Outcome>) -> Result<View, WireError> {
    let cfg = s.config.as_ref().ok_or(WireError::Missing("config"))?;
    let config = GameConfig {
        ships: cfg.ships.iter().map(|&k| crate::enums::ship_back(k)).collect::<Result<_, _>>()?,
        difficulty: difficulty_back(cfg.difficulty)?,
        allies: cfg.allies.iter().map(|&a| ally_back(a)).collect::<Result<_, _>>()?,
        seed: 0,
        nightmare: cfg.nightmare,
        legacy_reinforcements: cfg.legacy_reinforcements,
        rules_revision: cfg.rules_revision,
    };
    let phase = phase_back(s.phase_kind)?;
    let cor = s.corruption.as_ref().ok_or(WireError::Missing("corruption"))?;
    let decks = s.decks.as_ref().ok_or(WireError::Missing("decks"))?;
    let hexes = |v: &[x::Hex], f: &'static str| v.iter().map(|h| hex_back(Some(h), f)).collect::<Result<Vec<_>, _>>();
    let public = Public {
        round: s.round,
        phase,
        seq,
        tiles: s
            .tiles
            .iter()
            .map(|t| {
                Ok(PlacedTile {
                    tile: small(t.tile, "tile.tile")?,
                    hex: hex_back(t.hex.as_ref(), "tile.hex")?,
                    rotation: small(t.rotation, "tile.rotation")?,
                    lanes: small(t.lanes, "tile.lanes")?,
                    exploration_marker: t.exploration_marker,
                    key_marker: t.key_marker.map(|k| small(k, "tile.key_marker")).transpose()?,
                    pacified: pacification_back(t.pacified)?,
                    rift_created: t.rift_created,
                    rift_disabled: t.rift_disabled,
                    keys_activated: smalls(&t.keys_activated, "tile.keys_activated")?,
                })
            })
            .collect::<Result<_, WireError>>()?,
        removed_tiles: smalls(&s.removed_tiles, "removed_tiles")?,
        piles: s
            .piles
            .iter()
            .map(|p| {
                Ok(Pile {
                    remaining: small(p.remaining, "pile.remaining")?,
                    special_left: p.special_left,
                    bottom: p.bottom,
                })
            })
            .collect::<Result<_, WireError>>()?,
        ships: s.ships.iter().map(ship_back).collect::<Result<_, _>>()?,
        corruption: Corruption {
            position: small(cor.position, "corruption.position")?,
            rise: small(cor.rise, "corruption.rise")?,
            face_down: smalls(&cor.face_down, "corruption.face_down")?,
            red_boxes: smalls(&cor.red_boxes, "corruption.red_boxes")?,
            movement_this_turn: i8::try_from(cor.movement_this_turn)
                .map_err(|_| WireError::OutOfRange("corruption.movement_this_turn"))?,
            movement_permanent: i8::try_from(cor.movement_permanent)
                .map_err(|_| WireError::OutOfRange("corruption.movement_permanent"))?,
            rift_rush: cor.rift_rush,
            retreats_this_round: hexes(&cor.retreats_this_round, "corruption.retreats_this_round")?,
            retreats_waiting: hexes(&cor.retreats_waiting, "corruption.retreats_waiting")?,
            movement_markers: if cor.movement_down_marker { xodus_engine::MOVEMENT_WHITE } else { 0 }
                | if cor.movement_up_marker { xodus_engine::MOVEMENT_RED } else { 0 },
        },
        avatars: s
            .avatars
            .iter()
            .map(|a| {
                Ok(Avatar {
                    card: small(a.card, "avatar.card")?,
                    place: match &a.place {
                        Some(x::avatar::Place::MatSpace(sp)) => {
                            AvatarPlace::Mat { space: small(*sp, "avatar.mat_space")? }
                        }
                        Some(x::avatar::Place::Hex(h)) => AvatarPlace::Board { hex: hex_back(Some(h), "avatar.hex")? },
                        Some(x::avatar::Place::Gone(_)) => AvatarPlace::Gone,
                        None => return Err(WireError::Missing("avatar.place")),
                    },
                    damage: small(a.damage, "avatar.damage")?,
                })
            })
            .collect::<Result<_, WireError>>()?,
        board_enemies: s
            .enemies
            .iter()
            .map(|e| {
                Ok(BoardEnemy {
                    card: small(e.card, "enemy.card")?,
                    hex: hex_back(e.hex.as_ref(), "enemy.hex")?,
                    damage: small(e.damage, "enemy.damage")?,
                    guards_key: e.guards_key.map(|k| small(k, "enemy.guards_key")).transpose()?,
                })
            })
            .collect::<Result<_, WireError>>()?,
        enemy_discard: smalls(&s.enemy_discard, "enemy_discard")?,
        deck_levels: levels(&decks.enemy_deck_levels, "decks.enemy_deck_levels")?,
        reserve_levels: levels(&decks.enemy_reserve_levels, "decks.enemy_reserve_levels")?,
        signals: s
            .signals
            .iter()
            .map(|g| {
                Ok(SignalSlot {
                    key: small(g.key, "signal.key")?,
                    card: g.card.map(|c| small(c, "signal.card")).transpose()?,
                    progress: small(g.progress, "signal.progress")?,
                    solved: g.solved,
                })
            })
            .collect::<Result<_, WireError>>()?,
        damaged_discard: smalls(&s.damaged_discard, "damaged_discard")?,
        exploration_supply: small(s.exploration_supply, "exploration_supply")?,
        pacify_supply: small(s.pacify_supply, "pacify_supply")?,
        active: smalls(&s.active, "active")?,
        fight: s
            .fight
            .as_ref()
            .map(|f| {
                Ok::<_, WireError>(Fight {
                    hex: hex_back(f.hex.as_ref(), "fight.hex")?,
                    seats: smalls(&f.seats, "fight.seats")?,
                    pacify: f.pacify,
                    defeated: small(f.defeated, "fight.defeated")?,
                    decoys: small(f.decoys, "fight.decoys")?,
                    decoy_pacifies: f.decoy_pacifies,
                    begun: f.begun,
                    relayed: smalls(&f.relayed, "fight.relayed")?,
                    avatars_only: f.avatars_only,
                })
            })
            .transpose()?,
        next_fleet: small(s.next_fleet, "next_fleet")?,
        pending: step_back(s.step.as_ref())?,
        exploration_discard: smalls(&s.exploration_discard, "exploration_discard")?,
        allies: s
            .allies
            .iter()
            .map(|a| {
                Ok(AllyInPlay {
                    kind: ally_back(a.kind)?,
                    hex: hex_back(a.hex.as_ref(), "ally.hex")?,
                    offer: smalls(&a.offer, "ally.offer")?,
                })
            })
            .collect::<Result<_, WireError>>()?,
        module_discard: smalls(&s.module_discard, "module_discard")?,
        queued: s.queued.iter().map(|q| step_back(Some(q))).collect::<Result<_, _>>()?,
        resume: s.resume.as_ref().map(|r| step_back(Some(r)).map(Box::new)).transpose()?,
        end_turn_requested: s.end_turn_requested,
        outcome,
        exploration_xp: smalls(&s.exploration_xp, "exploration_xp")?,
    };
    let mut view = View {
        viewer,
        config,
        round: s.round,
        phase,
        public,
        stack_remaining: small(decks.system_stack, "decks.system_stack")?,
        enemy_deck_size: small(decks.enemy_deck, "decks.enemy_deck")?,
        enemy_reserve_size: small(decks.enemy_reserve, "decks.enemy_reserve")?,
        damaged_deck_size: small(decks.damaged_deck, "decks.damaged_deck")?,
        module_deck_size: small(decks.module_deck, "decks.module_deck")?,
        precursor_deck_size: small(decks.precursor_deck, "decks.precursor_deck")?,
        decision: Decision {
            kind: DecisionKind::GameOver,
            deciders: Vec::new(),
            prompt: String::new(),
            options: Vec::new(),
        },
    };
    view.decision = Game::from_view(&view, 0).decision();
    Ok(view)
}
