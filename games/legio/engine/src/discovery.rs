//! Discovering a planet (rulebook "Découvrir une planète"): an active-planet
//! token goes to the ship's sector with a contact card, the face-up or the
//! face-down A contact in zone A (the slot refilled from the pile), the B
//! contact in zone B; the discoverer's marker goes on it (from revision 1 a
//! commander without a marker left discovers nothing).

use crate::content::Pile;
use crate::decision::Pending;
use crate::event::Event;
use crate::state::*;

/// Discovery markers a commander has (revision 1): 13 counters per colour
/// ("52 compteurs, 13 par couleur"), less the 7 the setup places on the
/// ship board (three equipment tracks, the Imperator counter, the squads,
/// the two rows of the experience table) and the one on the Xeno track. A
/// marker stays with its planet's card, so it is never given back.
pub const DISCOVERY_MARKERS: u8 = 5;

impl Game {
    /// Discovery markers `seat` still has: [`DISCOVERY_MARKERS`] less its
    /// active planets and its explored ones (their cards keep the marker).
    /// Only revision 1 games are limited by it.
    pub fn discovery_markers_left(&self, seat: Seat) -> u8 {
        let s = self.ship(seat);
        let active = self.pb.planets.iter().flatten().filter(|p| p.discoverer == seat).count();
        DISCOVERY_MARKERS.saturating_sub((active + s.trophies.len()).min(255) as u8)
    }

    /// Discovers a planet in `seat`'s sector, if the conditions hold.
    pub(crate) fn discover(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let sector = self.ship(seat).sector;
        if !self.can_discover_for(seat) {
            return;
        }
        let Some(planet) = self.pb.planets.iter().position(Option::is_none) else { return };
        let planet = planet as u8;
        match self.content().nebula.zone(sector) {
            Some(Pile::A) => match (self.pb.contact_a1.is_some(), self.pb.contact_down[0]) {
                (true, true) => self.pb.pending = Pending::Contact { seat, planet },
                (true, false) => self.contact_chosen(seat, planet, 0, ev),
                _ => self.contact_chosen(seat, planet, 1, ev),
            },
            _ => {
                let card = self.hid.contacts[1].take();
                self.refill(1);
                if let Some(card) = card {
                    self.place_planet(seat, planet, card, ev);
                }
            }
        }
    }

    /// Zone A: the face-up (0) or face-down (1) contact goes to the planet.
    pub(crate) fn contact_chosen(&mut self, seat: Seat, planet: u8, slot: u8, ev: &mut Vec<Event>) {
        let card = if slot == 0 { self.pb.contact_a1.take() } else { self.hid.contacts[0].take() };
        // An empty face-up slot takes the other A card, revealed; the
        // face-down slot takes the top of the pile.
        if self.pb.contact_a1.is_none()
            && let Some(next) = self.hid.contacts[0].take()
        {
            self.pb.contact_a1 = Some(next);
            ev.push(Event::ContactRevealed { card: next });
        }
        self.refill(0);
        if let Some(card) = card {
            self.place_planet(seat, planet, card, ev);
        }
    }

    /// A face-down slot (0 = A, 1 = B) takes the top of its pile if empty.
    fn refill(&mut self, slot: usize) {
        if self.hid.contacts[slot].is_none() {
            self.hid.contacts[slot] = self.hid.piles[slot].pop();
            self.pb.contact_seen[slot].clear();
        }
        self.pb.contact_down[slot] = self.hid.contacts[slot].is_some();
    }

    fn place_planet(&mut self, seat: Seat, planet: u8, card: u8, ev: &mut Vec<Event>) {
        let sector = self.ship(seat).sector;
        self.pb.planets[usize::from(planet)] = Some(ActivePlanet { sector, card, discoverer: seat });
        ev.push(Event::Discovered { seat, planet, sector, card });
        self.check_planets_exhausted(ev);
    }
}
