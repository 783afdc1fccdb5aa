//! The Action phase's flow (rulebook pp. 6-9 and FAQ "Flottes"): starting a
//! turn, fleets (joining starts the joiner's turn), probes and blind jumps,
//! arriving in a system (Avatars, detection, surveillance), ending a turn
//! (Strain's Damage Roll), and the End phase's clean-up (p. 18).

use crate::content::{SystemKind, XpCondition};
use crate::decision::Pending;
use crate::effects::ScrapSource;
use crate::event::{EngageCause, Event, RollPurpose};
use crate::hex::Hex;
use crate::state::*;

impl Game {
    /// Starts a captain's turn (activation marker still unflipped).
    pub(crate) fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let acts = self.base_actions(seat);
        let s = self.ship_mut(seat);
        s.turn_started = true;
        s.actions_left = acts;
        s.hidden = false;
        self.pb.active.clear();
        self.pb.active.push(seat);
        ev.push(Event::TurnStarted { seat });
        self.start_regen(seat, ev);
        self.pb.pending = Pending::Action;
        self.start_of_turn_checks(seat, ev);
    }

    /// Start-of-turn effects for one ship (also for a ship joining a fleet,
    /// FAQ): an Avatar in the system engages it, an Enemy system asks for
    /// a Detection Roll.
    fn start_of_turn_checks(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let hex = self.ship(seat).hex;
        // A captain joining a fleet already engaged here with everything in
        // the system fights with it, whatever a Detection Roll would show:
        // no roll (FAQ, Flottes: join, then fight; rules revision 4). A
        // fleet fighting the Avatars only still needs the joiner's roll (a
        // failed one brings in the Enemy lying there).
        if self.revised(4) && self.pb.fight.as_ref().is_some_and(|f| f.hex == hex && !f.avatars_only) {
            return; // settle takes the joiner into the fight
        }
        let patrol_to_roll = self.patrol_unseen_beside_avatar(hex);
        if self.ship(seat).engaged && self.has_opponents(hex) && !patrol_to_roll {
            return; // settle starts the fight
        }
        if self.avatar_in(hex) {
            // FAQ (hiding): at the start of the turn you are detected by an
            // Avatar in your system; it engages you without a Damage Roll.
            if !self.ship(seat).engaged {
                self.ship_mut(seat).engaged = true;
                ev.push(Event::Engaged { seats: vec![seat], hex, cause: EngageCause::Avatar });
            }
            if !patrol_to_roll {
                return;
            }
        }
        if self.detection_needed(hex) {
            if self.surveillance(hex) {
                let group = self.pb.active.clone();
                self.engage_patrol(&group, EngageCause::Surveillance, ev);
            } else {
                self.pb.pending = Pending::Detection { seats: vec![seat] };
            }
        }
    }

    /// Whether entering `hex` calls for detection: a non-pacified Enemy system.
    pub(crate) fn detection_needed(&self, hex: Hex) -> bool {
        self.kind_at(hex) == Some(SystemKind::Enemy) && self.tile_at(hex).is_some_and(|t| t.pacified.is_none())
    }

    /// Whether an Avatar engaging ships in `hex` fights them alone, the
    /// Enemy cards lying there (a Signal's guardian, an Enemy left in a
    /// pacified system) staying out: the system calls for no Detection
    /// Roll, and an Enemy left on the board is engaged only on detection
    /// or by choice (FAQ, "Ennemis et Combats": "Si vous êtes détecté, vous
    /// devez engager l'ennemi qui est resté"; "ils peuvent reprendre le
    /// combat"). Rules revision 5; before, the Avatar's engagement brought
    /// them into the fight.
    pub(crate) fn avatar_drags_no_enemy(&self, hex: Hex) -> bool {
        self.revised(5) && self.avatar_in(hex) && self.enemy_in(hex) && !self.detection_needed(hex)
    }

    /// An Avatar in a non-pacified Enemy system whose patrol is not on the
    /// board yet: from rules revision 3 the Avatar's engagement does not
    /// spare the Detection Roll (p. 9 makes no exception), so a detected
    /// group fights the patrol beside the Avatar. From rules revision 4 an
    /// Enemy card already lying there (fled from, or left where a captain
    /// hid) does not spare it either: that Enemy joins the fight only on a
    /// failed roll or a voluntary engagement (FAQ, "Ennemis et Combats":
    /// next turn "un lancer de détection, comme si vous veniez d'entrer
    /// dans le système"; FAQ, "Avatars": the Avatar always detects).
    fn patrol_unseen_beside_avatar(&self, hex: Hex) -> bool {
        self.revised(3) && self.avatar_in(hex) && (!self.enemy_in(hex) || self.revised(4)) && self.detection_needed(hex)
    }

    fn surveillance(&self, hex: Hex) -> bool {
        self.tile_at(hex).is_some_and(|t| self.content().tiles[t.tile as usize].surveillance)
    }

    /// The active group arrived in a system (Jump, Blind Jump, end of Rush).
    pub(crate) fn arrive(&mut self, ev: &mut Vec<Event>) {
        let hex = self.group_hex();
        self.pb.pending = Pending::Action;
        self.meet_ally(hex, ev);
        let avatar = self.avatar_in(hex);
        if avatar {
            let group = self.pb.active.clone();
            for &s in &group {
                self.ship_mut(s).engaged = true;
            }
            ev.push(Event::Engaged { seats: group, hex, cause: EngageCause::Avatar });
        }
        if (!avatar || self.patrol_unseen_beside_avatar(hex)) && self.detection_needed(hex) {
            let group = self.pb.active.clone();
            if self.surveillance(hex) {
                self.engage_patrol(&group, EngageCause::Surveillance, ev);
            } else {
                self.pb.pending = Pending::Detection { seats: group };
            }
        }
    }

    /// Detection Roll (p. 9): all dice of the rolling ships; any miss detects
    /// the whole fleet.
    pub(crate) fn detection_roll(&mut self, ev: &mut Vec<Event>) {
        let Pending::Detection { seats } = self.pb.pending.clone() else { return };
        let mut detected = false;
        for &s in &seats {
            let dice = self.dice_of(s);
            let rolled = self.roll(&dice);
            // Sensor Baffles: one miss fewer on this ship's roll.
            let stealth = self.passive(s, |e| matches!(e, crate::content::ModuleEffect::Stealth) as u8)
                + self.ship(s).cloaked as u8;
            let misses = rolled.iter().filter(|d| d.1 == crate::content::Face::Miss).count() as u8;
            if misses > 0 && stealth > 0 {
                self.note(s, |e| matches!(e, crate::content::ModuleEffect::Stealth), ev);
            }
            detected |= misses > stealth;
            ev.push(Event::DiceRolled { seat: Some(s), purpose: RollPurpose::Detection, dice: rolled });
        }
        if detected {
            let group = self.pb.active.clone();
            self.engage_patrol(&group, EngageCause::Detected, ev);
        } else {
            ev.push(Event::Undetected { seats });
            self.pb.pending = Pending::Action;
            // Beside an Avatar, which engaged the group anyway, the fight is
            // with the Avatars alone: the Enemy left here stays out of it
            // (rules revision 4; before, it joined the fight).
            let hex = self.group_hex();
            if self.revised(4) && self.avatar_in(hex) && self.pb.active.iter().any(|&s| self.ship(s).engaged) {
                let group = self.pb.active.clone();
                self.start_avatar_fight(&group, hex, ev);
            }
        }
    }

    /// A captain accepted the invitation: the fleet grows and the joiner's
    /// turn starts (FAQ, "Nouvelle règle").
    pub(crate) fn join_fleet(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let existing = self.pb.active.iter().find_map(|&s| self.ship(s).fleet);
        let id = match existing {
            Some(id) => id,
            None => {
                let id = self.pb.next_fleet;
                self.pb.next_fleet = self.pb.next_fleet.wrapping_add(1);
                for s in self.pb.active.clone() {
                    self.ship_mut(s).fleet = Some(id);
                    // Forming a fleet earns the Battlecruiser XP (FAQ).
                    self.gain_xp(s, XpCondition::Fleet, ev);
                }
                id
            }
        };
        let acts = self.base_actions(seat);
        let s = self.ship_mut(seat);
        s.fleet = Some(id);
        s.turn_started = true;
        s.actions_left = acts;
        s.hidden = false;
        self.pb.active.push(seat);
        ev.push(Event::TurnStarted { seat });
        self.start_regen(seat, ev);
        ev.push(Event::FleetJoined { seats: self.pb.active.clone() });
        self.gain_xp(seat, XpCondition::Fleet, ev);
        self.pb.pending = Pending::Action;
        self.start_of_turn_checks(seat, ev);
    }

    /// Probe or Blind Jump: the space is chosen first, then the tile is
    /// drawn and waits for its orientation (p. 6).
    pub(crate) fn begin_probe(&mut self, hex: Hex, then_jump: bool) {
        self.spend_actions(1);
        match self.draw_tile() {
            Some(tile) => self.pb.pending = Pending::Orientation { hex, tile, then_jump, anywhere: None },
            None => self.pb.pending = Pending::Action,
        }
    }

    /// Places the probed tile with the chosen rotation and its marker.
    pub(crate) fn place_probed_tile(&mut self, rotation: u8, ev: &mut Vec<Event>) {
        let Pending::Orientation { hex, tile, then_jump, anywhere } = self.pb.pending.clone() else {
            return;
        };
        self.reveal_tile(tile, hex, rotation, ev);
        self.pb.pending = Pending::Action;
        if let Some(left) = anywhere {
            self.after_reveal_anywhere(left, ev);
            return;
        }
        if then_jump {
            self.move_group(hex, ev);
            self.arrive(ev);
        }
    }

    /// Puts a tile on the board with its Exploration or Key marker.
    pub(crate) fn reveal_tile(&mut self, tile: u8, hex: Hex, rotation: u8, ev: &mut Vec<Event>) {
        let def = &self.content().tiles[tile as usize];
        let mut exploration_marker = false;
        let mut marker_from = None;
        if def.exploration {
            let marked = self.pb.tiles.iter().filter(|t| t.exploration_marker).count();
            if self.pb.exploration_supply > 0 {
                self.pb.exploration_supply -= 1;
                exploration_marker = true;
            } else if self.revised(3) && marked > 1 {
                // FAQ: "vous devez en déplacer un": the revealing ships
                // choose which unexplored system gives up its marker.
                let seats = self.pb.active.clone();
                self.pb.queued.push(Pending::MoveExplorationMarker { to: hex, seats });
            } else if let Some(t) = self.pb.tiles.iter_mut().find(|t| t.exploration_marker) {
                // FAQ: out of markers, move one from an unexplored system
                // (the only one; before rules revision 3, the oldest one
                // revealed); that Exploration is lost.
                t.exploration_marker = false;
                exploration_marker = true;
                marker_from = Some(t.hex);
            }
        }
        let key_marker = def.signal.filter(|&k| self.pb.signals.iter().any(|s| s.key == k));
        self.pb.tiles.push(PlacedTile {
            tile,
            hex,
            rotation,
            lanes: crate::hex::rotate_mask(def.lane_mask(), rotation),
            exploration_marker,
            key_marker,
            pacified: None,
            rift_created: false,
            rift_disabled: false,
            keys_activated: Vec::new(),
        });
        self.reindex_board();
        ev.push(Event::TileRevealed { hex, tile: def.id.clone(), rotation });
        if let Some(from) = marker_from.filter(|_| self.revised(3)) {
            ev.push(Event::ExplorationMarkerMoved { from, to: hex });
        }
        // Hyperspace Scanner (FAQ): a scrap for every system revealed.
        for s in self.pb.active.clone() {
            if self.has_passive(s, |e| matches!(e, crate::content::ModuleEffect::ScrapOnReveal)) {
                self.note(s, |e| matches!(e, crate::content::ModuleEffect::ScrapOnReveal), ev);
                self.gain_scraps(s, 1, ScrapSource::Plain, ev);
            }
        }
    }

    /// Start-of-turn recovery (Healing Energy, Survival Protocol).
    fn start_regen(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let n = self
            .passive(seat, |e| if let crate::content::ModuleEffect::StartRegen { amount } = e { amount } else { 0 });
        if n > 0 {
            self.note(seat, |e| matches!(e, crate::content::ModuleEffect::StartRegen { .. }), ev);
        }
        self.recover_health(seat, n, ev);
    }

    /// Ends the active group's turn: Strain's Damage Roll, then the
    /// activation markers flip (p. 6).
    pub(crate) fn end_group_turn(&mut self, ev: &mut Vec<Event>) {
        let group = std::mem::take(&mut self.pb.active);
        // Singular Field of Action (FAQ): once the fleet has finished, a ship
        // with Actions of its own left may split off and go on alone.
        let splitter = (group.len() > 1)
            .then(|| {
                group.iter().copied().find(|&s| {
                    self.ship(s).actions_left > 0
                        && !self.pb.end_turn_requested
                        && self.has_passive(s, |e| matches!(e, crate::content::ModuleEffect::SplitFromFleet))
                })
            })
            .flatten();
        for s in group {
            if Some(s) == splitter {
                continue;
            }
            let drone = self.has_passive(s, |e| matches!(e, crate::content::ModuleEffect::StrainRecovery));
            if self.ship(s).strained && !drone {
                self.damage_roll(s, ev);
            }
            let sh = self.ship_mut(s);
            sh.played = true;
            sh.actions_left = 0;
            ev.push(Event::TurnEnded { seat: s });
        }
        self.pb.fight = None;
        if let Some(s) = splitter
            && self.pb.outcome.is_none()
            && !self.ship(s).defeated
        {
            self.ship_mut(s).fleet = None;
            self.note(s, |e| matches!(e, crate::content::ModuleEffect::SplitFromFleet), ev);
            self.pb.active.clear();
            self.pb.active.push(s);
            self.pb.pending = Pending::Action;
            return;
        }
        if self.pb.outcome.is_none() {
            self.pb.pending = Pending::NextPlayer;
        }
    }

    /// The End phase (p. 18, FAQ "Ennemis et Combats").
    pub(crate) fn end_phase(&mut self, ev: &mut Vec<Event>) {
        self.pb.phase = Phase::End;
        ev.push(Event::PhaseStarted { phase: Phase::End, round: self.pb.round });
        // Pacify markers: red ones go, green ones flip.
        let (mut lifted, mut turned) = (Vec::new(), Vec::new());
        for t in &mut self.pb.tiles {
            match t.pacified {
                Some(Pacified::Red) => {
                    t.pacified = None;
                    lifted.push(t.hex);
                }
                Some(Pacified::Green) => {
                    t.pacified = Some(Pacified::Red);
                    turned.push(t.hex);
                }
                None => {}
            }
        }
        self.pb.pacify_supply += lifted.len() as u8;
        if !lifted.is_empty() || !turned.is_empty() {
            ev.push(Event::PacifyMarkersTurned { lifted, turned });
        }
        // Enemy cards on the board go back into the deck, except where a
        // ship is hiding (FAQ).
        let hiding: Vec<Hex> = self.alive().filter(|s| s.hidden).map(|s| s.hex).collect();
        let (stay, back): (Vec<BoardEnemy>, Vec<BoardEnemy>) =
            std::mem::take(&mut self.pb.board_enemies).into_iter().partition(|e| hiding.contains(&e.hex));
        self.pb.board_enemies = stay;
        if !back.is_empty() {
            let enemies = back.iter().map(|e| self.content().enemies[e.card as usize].id.clone()).collect();
            ev.push(Event::EnemiesReturned { enemies });
            self.hid.enemy_deck.extend(back.iter().map(|e| e.card));
            let mut d = std::mem::take(&mut self.hid.enemy_deck);
            self.hid.rng.shuffle(&mut d);
            self.hid.enemy_deck = d;
            self.recount_levels();
        }
        for s in &mut self.pb.ships {
            s.fleet = None;
            s.energy_used = 0;
            s.played = false;
            s.turn_started = false;
            s.actions_left = 0;
            s.strained = false;
            s.scavenged = false;
            s.disengaged = false;
            s.powers_used.clear();
            s.cloaked = false;
            s.rush_shield = false;
            s.strain_recoveries = 0;
            s.relayed = false;
        }
        self.pb.corruption.movement_this_turn = 0;
        self.pb.corruption.movement_markers = 0;
        self.pb.corruption.retreats_this_round.clear();
        self.pb.corruption.retreats_waiting.clear();
        self.pb.round += 1;
        self.pb.phase = Phase::Action;
        self.pb.pending = Pending::NextPlayer;
        ev.push(Event::PhaseStarted { phase: Phase::Action, round: self.pb.round });
    }
}
