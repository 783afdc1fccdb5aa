//! The Corruption phase (rulebook p. 17, FAQ "Avatars"): the marker
//! advances (new Avatars and reinforcements, defeat past the Rise), then
//! each Avatar on the board rolls its die and hunts the closest player or
//! fleet that is neither hidden nor engaged with another Avatar, with the
//! FAQ's revised tie-breaks.

use crate::content::SystemKind;
use crate::event::Event;
use crate::hex::Hex;
use crate::small::Inline;
use crate::state::*;

/// Ordering of Corrupt systems for a new Avatar: distance, most Keys, seat, system.
type PlacementKey = (u8, std::cmp::Reverse<usize>, Seat, Hex);

/// A player or fleet as an Avatar sees it.
struct Quarry {
    hex: Hex,
    seats: Inline<Seat, 4>,
    fleet: bool,
    keys: usize,
    health: u32,
    hidden: bool,
}

impl Game {
    /// Advances the Corruption marker by one (p. 17), in the Corruption
    /// phase or at once when an effect or a retreat from Avatars says so.
    pub(crate) fn advance_corruption(&mut self, ev: &mut Vec<Event>) {
        if self.pb.outcome.is_some() {
            return;
        }
        if self.pb.corruption.position >= self.pb.corruption.rise {
            self.finish(false, "corruption_risen", ev);
            return;
        }
        self.pb.corruption.position += 1;
        let pos = self.pb.corruption.position;
        ev.push(Event::CorruptionAdvanced { position: pos });
        // Face-down tokens printed on this space.
        let printed = self.pb.corruption.face_down.contains(&pos);
        if printed {
            self.pb.corruption.face_down.retain(|&s| s != pos);
            let tokens: Vec<u8> = self.hid.mat_avatars.iter().filter(|t| t.0 == pos).map(|t| t.1).collect();
            self.hid.mat_avatars.retain(|t| t.0 != pos);
            for card in tokens {
                self.pb.avatars.push(Avatar { card, place: AvatarPlace::Mat { space: pos }, damage: 0 });
            }
        }
        // Every token on this space (new or escaped earlier) enters play.
        let arriving: Vec<usize> = (0..self.pb.avatars.len())
            .filter(|&i| self.pb.avatars[i].place == AvatarPlace::Mat { space: pos })
            .collect();
        for i in arriving {
            self.place_avatar(i, ev);
        }
        if printed || self.pb.corruption.red_boxes.contains(&pos) {
            self.reinforce(ev);
        }
    }

    /// Puts an Avatar on the Corrupt system closest to a player (p. 17).
    /// Being put on the board is not an engagement: the players there meet
    /// it when the Avatars move (in the Corruption phase, with the Damage
    /// Roll), when they start their turn, or when they enter its system.
    /// A captain who just gave ground may therefore still jump away.
    fn place_avatar(&mut self, i: usize, ev: &mut Vec<Event>) {
        let c = self.content();
        let ships: Vec<(Hex, usize, Seat)> =
            self.alive().filter(|s| !s.hidden).map(|s| (s.hex, s.keys.len(), s.seat)).collect();
        let mut best: Option<(PlacementKey, Hex)> = None;
        for t in &self.pb.tiles {
            if c.tiles[t.tile as usize].kind != SystemKind::Corrupt {
                continue;
            }
            // Lane distances from this system to every system (one search
            // for all the ships).
            let reach = if ships.is_empty() { Inline::new() } else { self.ship_distances(t.hex) };
            for &(h, keys, seat) in &ships {
                let d = reach.iter().find(|x| x.0 == h).map_or(u8::MAX, |x| x.1);
                // Corrupt rule, made deterministic: nearest the ship with the
                // most Keys, then the lowest seat.
                let key = (d, std::cmp::Reverse(keys), seat, t.hex);
                if best.as_ref().is_none_or(|b| key < b.0) {
                    best = Some((key, t.hex));
                }
            }
            if ships.is_empty() && best.is_none() {
                best = Some(((0, std::cmp::Reverse(0), 0, t.hex), t.hex));
            }
        }
        let Some((_, hex)) = best else { return };
        self.pb.avatars[i].place = AvatarPlace::Board { hex };
        self.pb.avatars[i].damage = 0;
        let id = c.avatars[self.pb.avatars[i].card as usize].id.clone();
        ev.push(Event::AvatarArrived { avatar: id, hex });
    }

    /// An Avatar stops in `hex` and engages the ships there that are not
    /// hidden; in the Corruption phase each rolls a Damage Roll (p. 16).
    fn avatar_engages(&mut self, hex: Hex, in_phase: bool, ev: &mut Vec<Event>) {
        let seats: Vec<Seat> = self.alive().filter(|s| s.hex == hex && !s.hidden).map(|s| s.seat).collect();
        if seats.is_empty() {
            return;
        }
        for &s in &seats {
            self.ship_mut(s).engaged = true;
        }
        ev.push(Event::Engaged { seats: seats.clone(), hex, cause: crate::event::EngageCause::Avatar });
        if in_phase {
            for s in seats {
                self.damage_roll(s, ev);
            }
        }
    }

    /// Whether the Avatar `i` is engaged with a player or fleet.
    fn avatar_engaged(&self, i: usize) -> bool {
        match self.pb.avatars[i].place {
            AvatarPlace::Board { hex } => self.alive().any(|s| s.hex == hex && s.engaged && !s.hidden),
            _ => false,
        }
    }

    fn quarries(&self) -> Vec<Quarry> {
        let mut out: Vec<Quarry> = Vec::new();
        for s in self.alive() {
            if let Some(f) = s.fleet
                && let Some(q) = out.iter_mut().find(|q| q.fleet && self.ship(q.seats[0]).fleet == Some(f))
            {
                q.seats.push(s.seat);
                q.keys += s.keys.len();
                q.health += s.health as u32;
                q.hidden &= s.hidden;
                continue;
            }
            out.push(Quarry {
                hex: s.hex,
                seats: std::iter::once(s.seat).collect(),
                fleet: s.fleet.is_some(),
                keys: s.keys.len(),
                health: s.health as u32,
                hidden: s.hidden,
            });
        }
        out
    }

    /// Avatars move in numerical order (p. 17). `rift` sends them to the
    /// Main Rift instead of the players (p. 12).
    pub(crate) fn move_avatars(&mut self, in_phase: bool, rift: bool, ev: &mut Vec<Event>) {
        let c = self.content();
        let mut order: Vec<usize> = (0..self.pb.avatars.len()).collect();
        order.sort_by_key(|&i| c.avatars[self.pb.avatars[i].card as usize].number);
        let rift_hex =
            self.pb.tiles.iter().find(|t| c.tiles[t.tile as usize].kind == SystemKind::MainRift).map(|t| t.hex);
        let rush = rift || self.pb.corruption.rift_rush;
        for i in order {
            if self.pb.outcome.is_some() {
                return;
            }
            let AvatarPlace::Board { hex: from } = self.pb.avatars[i].place else { continue };
            if self.avatar_engaged(i) {
                continue;
            }
            let face = c.avatar_die[self.hid.rng.below(6) as usize];
            let modifier = self.pb.corruption.movement_this_turn + self.pb.corruption.movement_permanent;
            let moves = (face.moves as i8 + modifier).max(0) as u8;
            let id = c.avatars[self.pb.avatars[i].card as usize].id.clone();
            ev.push(Event::AvatarDieRolled { avatar: id.clone(), moves, wormhole: face.wormhole });
            // Systems held by other engaged Avatars are never entered.
            let blocked: Vec<Hex> = (0..self.pb.avatars.len())
                .filter(|&j| j != i && self.avatar_engaged(j))
                .filter_map(|j| match self.pb.avatars[j].place {
                    AvatarPlace::Board { hex } => Some(hex),
                    _ => None,
                })
                .collect();
            let bfs = self.avatar_bfs(from, face.wormhole, &blocked);
            let dist = |h: Hex| bfs.iter().find(|x| x.0 == h).map(|x| x.1);
            let (target, engage) = if rush { (rift_hex, true) } else { self.choose_quarry(i, &blocked, &dist) };
            let Some(target) = target else { continue };
            if dist(target).is_none() {
                continue;
            }
            // Path back from the target.
            let mut back: Inline<Hex, { crate::hex::MAX_TILES }> = Inline::new();
            back.push(target);
            while let Some(&last) = back.last() {
                if last == from || back.len() >= crate::hex::MAX_TILES {
                    break;
                }
                match bfs.iter().find(|x| x.0 == last) {
                    Some(&(_, _, prev)) if prev != last => back.push(prev),
                    _ => break,
                }
            }
            let path: Inline<Hex, { crate::hex::MAX_TILES }> = back.iter().rev().copied().collect(); // from ... target
            let mut walked = Vec::new();
            let mut at = from;
            let mut stopped = false;
            // Already sharing the system with players: engage at once.
            if self.players_here(from) && engage {
                stopped = true;
            }
            // A wormhole face lets the Avatar take a wormhole "on top of his
            // normal moves" (p. 17): from rules revision 3 that one hop is
            // free; before, it was one of the moves.
            let mut free_hop = face.wormhole && self.revised(3);
            let mut left = if stopped { 0 } else { moves };
            for &step in path.iter().skip(1) {
                if stopped {
                    break;
                }
                if free_hop && self.wormhole_hop(at, step) {
                    free_hop = false;
                } else if left == 0 {
                    break;
                } else {
                    left -= 1;
                }
                at = step;
                walked.push(step);
                if self.players_here(step) {
                    stopped = true;
                }
            }
            self.pb.avatars[i].place = AvatarPlace::Board { hex: at };
            if !walked.is_empty() {
                ev.push(Event::AvatarMoved { avatar: id, path: walked });
            }
            // The Damage Roll depends on the phase only: the rush the last
            // Key triggers happens in the Action phase (no roll, p. 12), but
            // an Avatar still heading for the Rift in a later Corruption
            // phase engages aggressively like any other (p. 16).
            if stopped && engage {
                self.avatar_engages(at, in_phase, ev);
            }
        }
    }

    fn players_here(&self, hex: Hex) -> bool {
        self.alive().any(|s| s.hex == hex && !s.hidden)
    }

    /// The FAQ's revised targeting: the closest player or fleet that is
    /// neither hidden nor engaged with another Avatar; ties by most Keys,
    /// then a single player with the least hull, then a fleet with the least
    /// hull, then the Corrupt rule (made deterministic: lowest seat). If all
    /// are engaged, the normal rules apply to all; if all are hidden, they
    /// are hunted but engaged only at their next turn (returns engage=false).
    fn choose_quarry(&self, me: usize, blocked: &[Hex], dist: &dyn Fn(Hex) -> Option<u8>) -> (Option<Hex>, bool) {
        let all = self.quarries();
        let engaged_elsewhere = |q: &Quarry| {
            q.seats.iter().any(|&s| self.ship(s).engaged)
                && (blocked.contains(&q.hex) || self.avatars_at(q.hex).any(|j| j != me))
        };
        let mut pool: Vec<&Quarry> = all.iter().filter(|q| !q.hidden && !engaged_elsewhere(q)).collect();
        let mut engage = true;
        if pool.is_empty() {
            pool = all.iter().filter(|q| !q.hidden).collect();
        }
        if pool.is_empty() {
            pool = all.iter().collect();
            engage = false;
        }
        let best = pool
            .into_iter()
            .filter_map(|q| dist(q.hex).map(|d| (d, q)))
            .min_by_key(|(d, q)| (*d, std::cmp::Reverse(q.keys), q.fleet, q.health, q.seats.iter().min().copied()));
        (best.map(|(_, q)| q.hex), engage)
    }
}
