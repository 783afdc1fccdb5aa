//! The one place that enumerates legal options. Each pending decision lists
//! its options from public state plus the decider's own secrets (its hand,
//! its objectives on offer, the X pile it is looking at), never from what
//! the decider cannot see, so a state sampled from the decider's view
//! offers the same options.

use crate::content::{BASE, Pile, Risk, SECTOR_X};
use crate::decision::{Choice, ChoiceOption, Decision, Gear, Pending, Personnel, Purpose};
use crate::price::Price;
use crate::state::*;

impl Game {
    /// The pending decision with its legal options.
    pub fn decision(&self) -> Decision {
        let p = self.pb.pending;
        let (prompt, choices) = self.options();
        let options = choices
            .into_iter()
            .map(|choice| {
                let price = p.seat().map(|seat| self.price(seat, &choice)).unwrap_or_default();
                let label = self.priced_label(&choice, &price);
                ChoiceOption { id: choice.id(), label, choice, price }
            })
            .collect();
        Decision { kind: p.kind().into(), seat: p.seat(), prompt, options }
    }

    fn options(&self) -> (String, Vec<Choice>) {
        let c = self.content();
        match self.pb.pending {
            Pending::Settling | Pending::Over => ("The game is over".into(), Vec::new()),
            Pending::Profile { promotion, .. } => (
                if promotion { "Promotion: set a new command profile" } else { "Set your command profile" }.into(),
                (0..=3).map(Choice::Profile).collect(),
            ),
            Pending::Expert { seat, promotion } => (
                if promotion { "Promotion: embark an expert" } else { "Embark your starting expert" }.into(),
                self.expert_kinds_available(seat).into_iter().map(Choice::Expert).collect(),
            ),
            Pending::KeepObjective { seat } => (
                "Keep one Secret Objective".into(),
                self.hid.offers[usize::from(seat)].iter().map(|&o| Choice::Objective(o)).collect(),
            ),
            Pending::Draw { seat } => {
                let s = self.ship(seat);
                let available = self.hid.deck.len() + self.hid.discard_down.len() + self.pb.discard_up.len();
                let max = usize::from(s.max_draw(c)).min(available) as u8;
                (
                    "Draw Exploration cards (each one left in hand when your turn ends costs 1 PC)".into(),
                    (0..=max).map(Choice::Draw).collect(),
                )
            }
            Pending::Turn { seat } => ("Your move".into(), self.turn_options(seat)),
            Pending::Pay { seat, left, purpose } => (
                format!(
                    "Discard {} face down {}: pick which",
                    if left == 1 { "1 more card".to_string() } else { format!("{left} more cards") },
                    self.purpose_words(purpose)
                ),
                self.hand(seat).iter().map(|&k| Choice::Pay(k)).collect(),
            ),
            Pending::Contact { .. } => {
                ("Which zone A contact lands on the planet?".into(), vec![Choice::Contact(0), Choice::Contact(1)])
            }
            Pending::Combat { .. } => ("A Xeno ship: fight, or evade it".into(), vec![Choice::Fight, Choice::Evade]),
            Pending::Invite { .. } => {
                let mut v: Vec<Choice> = self.invitable().into_iter().map(Choice::Invite).collect();
                v.push(Choice::SendInvitations);
                ("Invite commanders of your sector".into(), v)
            }
            Pending::Answer { .. } => ("Join the landing?".into(), vec![Choice::Accept, Choice::Decline]),
            Pending::Confirm { .. } => ("Land?".into(), self.confirm_options()),
            Pending::Domain { .. } => {
                let card = self.pb.mission.as_ref().map_or(0, |m| m.card);
                (
                    "Name the domain you invest".into(),
                    c.extrasolar[usize::from(card)].domains.iter().map(|&d| Choice::Domain(d)).collect(),
                )
            }
            Pending::Spend { seat, amount } => (format!("Spend {amount} experience"), self.spend_options(seat, amount)),
            Pending::Star { seat } => {
                let mut v = vec![Choice::Stay];
                v.extend(self.star_options(seat));
                ("Leave personnel behind for PX?".into(), v)
            }
            Pending::Dismiss { seat } => {
                let s = self.ship(seat);
                let mut v = vec![Choice::Keep];
                v.extend(Personnel::ALL.into_iter().filter(|&p| self.count_of(s, p) > 0).map(Choice::Dismiss));
                ("Part with one personnel for 1 PX?".into(), v)
            }
            Pending::Tech { .. } => {
                ("6 PX: learn a technology".into(), vec![Choice::Tech(Tech::Holodeck), Choice::Tech(Tech::Nanoprobes)])
            }
            Pending::ChooseX { .. } => {
                ("Sector X: choose a card".into(), self.hid.pile_x.iter().map(|&x| Choice::XCard(x)).collect())
            }
        }
    }

    /// How many of a personnel kind a ship holds.
    pub(crate) fn count_of(&self, s: &Ship, p: Personnel) -> u8 {
        match p {
            Personnel::Squad => s.tracks.squads,
            Personnel::Expert(k) => s.experts.get(k),
        }
    }

    /// Cards to pay for one more level of `g` on this ship.
    pub(crate) fn equip_cost(&self, s: &Ship, g: Gear) -> u8 {
        if g == Gear::Propulsor && s.tracks.propulsors == 0 { 1 } else { 2 }
    }

    fn turn_options(&self, seat: Seat) -> Vec<Choice> {
        let c = self.content();
        let s = self.ship(seat);
        let hand = self.hand(seat);
        let h = hand.len();
        let t = self.pb.turn;
        let in_x = s.sector == SECTOR_X;
        let side = c.side(s.side);
        let mut v = Vec::new();
        if !t.acted && t.drawn >= 5 && h == usize::from(t.drawn) && self.can_discover_for(seat) {
            v.push(Choice::BigDiscover);
        }
        if !t.exploration_over {
            if h >= 3 {
                if s.tracks.squads < side.max.squads {
                    v.push(Choice::Recruit(Personnel::Squad));
                }
                for k in self.expert_kinds_available(seat) {
                    v.push(Choice::Recruit(Personnel::Expert(k)));
                }
            }
            for g in Gear::ALL {
                if self.level(s, g) < self.max_level(s, g) && h >= usize::from(self.equip_cost(s, g)) {
                    v.push(Choice::Equip(g));
                }
            }
            if in_x {
                if h >= usize::from(c.nebula.x.leave_cost) {
                    v.push(Choice::LeaveX);
                }
            } else {
                for to in 0..5u8 {
                    if let Some(cost) = c.nebula.cost[usize::from(s.sector)][usize::from(to)]
                        && h >= usize::from(cost)
                    {
                        v.push(Choice::Move(to));
                    }
                }
                if s.px >= 9 && s.special_missions == 0 && h >= usize::from(c.nebula.x.enter_cost) {
                    v.push(Choice::EnterX);
                }
            }
            if !t.decoded {
                for slot in 0..2u8 {
                    let i = usize::from(slot);
                    if self.pb.contact_down[i]
                        && s.tracks.decoder > slot
                        && !self.pb.contact_seen[i].contains(&seat)
                        && h > i
                    {
                        v.push(Choice::Decode(slot));
                    }
                }
            }
            if !in_x {
                for &k in hand {
                    if self.confrontable(seat, k) {
                        v.push(Choice::Explore(k));
                    }
                }
            }
            if s.sector == BASE && self.needs_repair(s) {
                v.push(Choice::Repair);
            }
        }
        if !t.landed && !in_x {
            for p in 0..5u8 {
                if self.landing_feasible(seat, p) {
                    v.push(Choice::Land(p));
                }
            }
        }
        if s.px >= 13 && self.pb.end.is_none() {
            v.push(Choice::DeclareEnd);
        }
        v.push(Choice::EndTurn);
        v
    }

    /// A gear's level on a ship.
    pub(crate) fn level(&self, s: &Ship, g: Gear) -> u8 {
        match g {
            Gear::Propulsor => s.tracks.propulsors,
            Gear::Laser => s.tracks.lasers,
            Gear::Decoder => s.tracks.decoder,
            Gear::Detector => s.tracks.detectors,
        }
    }

    fn max_level(&self, s: &Ship, g: Gear) -> u8 {
        let m = self.content().side(s.side).max;
        match g {
            Gear::Propulsor => m.propulsors,
            Gear::Laser => m.lasers,
            Gear::Decoder => m.decoder,
            Gear::Detector => m.detectors,
        }
    }

    /// Whether this card's risk can be confronted now.
    pub(crate) fn confrontable(&self, seat: Seat, card: u8) -> bool {
        let s = self.ship(seat);
        match self.content().exploration[usize::from(card)].risk {
            Risk::Signal | Risk::Drift | Risk::Hazard | Risk::XenoShip { .. } => true,
            Risk::Discard { cards } => self.hand(seat).len() > usize::from(cards),
            Risk::OzOre { .. } => s.px >= 3,
            Risk::Discovery => self.can_discover_for(seat),
        }
    }

    /// Whether `seat` can discover a planet in its sector now: the sector
    /// can take one and, from revision 1, `seat` has a discovery marker left.
    pub(crate) fn can_discover_for(&self, seat: Seat) -> bool {
        self.can_discover(self.ship(seat).sector) && (!self.revised(1) || self.discovery_markers_left(seat) > 0)
    }

    /// Whether a planet can be discovered in `sector` now (the limit read
    /// as "<", a free active token, a contact card for the zone).
    pub(crate) fn can_discover(&self, sector: u8) -> bool {
        let c = self.content();
        let Some(zone) = c.nebula.zone(sector) else { return false };
        let active = self.pb.planets.iter().flatten().filter(|p| p.sector == sector).count() as u8;
        let count = self.pb.explored[usize::from(sector)] + active;
        let token = self.pb.planets.iter().any(Option::is_none);
        let card = match zone {
            Pile::A => self.pb.contact_a1.is_some() || self.pb.contact_down[0],
            _ => self.pb.contact_down[1],
        };
        count < c.nebula.limit(sector, self.players()) && token && card
    }

    fn needs_repair(&self, s: &Ship) -> bool {
        let a = self.content().side(s.side).start;
        let t = s.tracks;
        if self.revised(1) {
            return t != a;
        }
        t.propulsors < a.propulsors
            || t.lasers < a.lasers
            || t.decoder < a.decoder
            || t.detectors < a.detectors
            || t.squads < a.squads
    }

    /// Other commanders that may be invited to the landing being arranged.
    pub(crate) fn invitable(&self) -> Vec<Seat> {
        let active = self.pb.active;
        let sector = self.ship(active).sector;
        let invited = self.pb.landing.as_ref().map(|l| l.invited.clone()).unwrap_or_default();
        self.order_from(active)
            .into_iter()
            .filter(|&s| s != active && self.ship(s).sector == sector && !invited.contains(&s))
            .collect()
    }

    fn landing_feasible(&self, seat: Seat, p: u8) -> bool {
        let Some(planet) = self.pb.planets[usize::from(p)] else { return false };
        let s = self.ship(seat);
        if planet.sector != s.sector {
            return false;
        }
        let others: u8 =
            self.pb.ships.iter().filter(|o| o.seat != seat && o.sector == s.sector).map(|o| o.tracks.squads).sum();
        let imperator = self.imperator_squads_available(seat);
        s.tracks.squads + others + imperator >= self.content().extrasolar[usize::from(planet.card)].squads
    }

    /// Squads the Imperator would bring to `seat`, if it may still call it.
    pub(crate) fn imperator_squads_available(&self, seat: Seat) -> u8 {
        match self.pb.imperator.card {
            Some(card) if self.ship(seat).imperator_calls < self.config.imperator_calls() => {
                self.content().imperator[usize::from(card)].squads
            }
            _ => 0,
        }
    }

    fn confirm_options(&self) -> Vec<Choice> {
        let Some(l) = &self.pb.landing else { return vec![Choice::Abort] };
        let Some(planet) = self.pb.planets[usize::from(l.planet)] else { return vec![Choice::Abort] };
        let active = self.pb.active;
        let need = self.content().extrasolar[usize::from(planet.card)].squads;
        let squads =
            self.ship(active).tracks.squads + l.accepted.iter().map(|&s| self.ship(s).tracks.squads).sum::<u8>();
        let mut v = Vec::new();
        if squads >= need {
            v.push(Choice::LandNow);
        }
        // Revision 1: after a refusal, another ship of the sector (one not
        // invited yet) may be asked.
        if self.revised(1) && l.invited.iter().any(|s| !l.accepted.contains(s)) {
            v.extend(self.invitable().into_iter().map(Choice::Invite));
        }
        let imp = self.imperator_squads_available(active);
        if imp > 0 && squads + imp >= need {
            v.push(Choice::LandWithImperator);
        }
        v.push(Choice::Abort);
        v
    }

    /// What a payment is for, in words: "to install a laser".
    fn purpose_words(&self, p: Purpose) -> String {
        match p {
            Purpose::Recruit(x) => format!("to recruit {}", article(x.as_str())),
            Purpose::Equip(g) => format!("to install {}", article(g.as_str())),
            Purpose::Move(to) => format!("to cross into Sector {}", to + 1),
            Purpose::EnterX => "to go to Sector X".into(),
            Purpose::LeaveX => "to leave Sector X".into(),
            Purpose::Decode(slot) => format!("to decode the {} contact", if slot == 0 { "A" } else { "B" }),
            Purpose::Risk(card) => format!("for the risk of {}", self.content().exploration[usize::from(card)].name),
        }
    }

    /// The option's label with its price in brackets, and for a card
    /// played to explore, what its risk does.
    fn priced_label(&self, ch: &Choice, price: &Price) -> String {
        let label = self.label(ch);
        let extra = match *ch {
            Choice::EndTurn if price.cards > 0 => {
                let left = if price.cards == 1 { "1 card".to_string() } else { format!("{} cards", price.cards) };
                format!("{left} left in hand: {} PC", price.pc)
            }
            Choice::Explore(k) => self.risk_words(k, price),
            _ => price.words(),
        };
        if extra.is_empty() { label } else { format!("{label} ({extra})") }
    }

    /// What playing Exploration card `k` face up exposes the ship to, and
    /// its price, in a few words: "drift: back to the Star Base".
    fn risk_words(&self, k: u8, price: &Price) -> String {
        let c = self.content();
        let card = &c.exploration[usize::from(k)];
        let risk = match card.risk {
            Risk::Signal => "signal: no risk".to_string(),
            Risk::Discard { .. } => format!("discard {}", price.words()),
            Risk::XenoShip { lasers, pc, px } => {
                let trophy: Vec<String> =
                    [(pc, "PC"), (px, "PX")].iter().filter(|(n, _)| *n > 0).map(|(n, w)| format!("+{n} {w}")).collect();
                let lasers = if lasers == 1 { "1 laser".to_string() } else { format!("{lasers} lasers") };
                format!("Xeno ship: needs {lasers}; trophy {}; costs a laser", trophy.join(" "))
            }
            Risk::OzOre { .. } => format!("Oz ore: {}", price.words()),
            Risk::Discovery => "discovery: a planet".to_string(),
            Risk::Drift => "drift: back to the Star Base".to_string(),
            Risk::Hazard => "hazard: a damage roll".to_string(),
        };
        match card.xp {
            Some(x) => format!("{risk}; +{} {} XP", x.amount, x.domain.as_str()),
            None => risk,
        }
    }

    fn label(&self, ch: &Choice) -> String {
        let c = self.content();
        let ex = |i: u8| c.exploration[usize::from(i)].name.as_str();
        match *ch {
            Choice::Profile(p) => format!("Profile: Diplomacy +{}, Capture +{p}", 3 - p),
            Choice::Expert(k) => format!("Embark {}", article(k.as_str())),
            Choice::Objective(o) => format!("Keep \"{}\"", c.objectives[usize::from(o)].name),
            Choice::Draw(0) => "Draw no card".into(),
            Choice::Draw(1) => "Draw 1 card".into(),
            Choice::Draw(n) => format!("Draw {n} cards"),
            Choice::BigDiscover => "Discard your whole draw to discover a planet".into(),
            Choice::Recruit(p) => format!("Recruit {}", article(p.as_str())),
            Choice::Equip(g) => format!("Install {}", article(g.as_str())),
            Choice::Move(s) => format!("Cross into Sector {}", s + 1),
            Choice::EnterX => "Go to Sector X".into(),
            Choice::LeaveX => "Leave Sector X for the Star Base".into(),
            Choice::Decode(s) => format!("Decode the face-down {} contact", if s == 0 { "A" } else { "B" }),
            Choice::Explore(k) => format!("Explore with {}", ex(k)),
            Choice::Land(p) => format!("Land on planet {}", PLANETS[usize::from(p)]),
            Choice::Repair => "Repair at the Star Base (ends your exploration)".into(),
            Choice::DeclareEnd => "Declare the end of the game".into(),
            Choice::EndTurn => "End your turn".into(),
            Choice::Pay(k) => format!("Discard {}", ex(k)),
            Choice::Contact(s) => if s == 0 { "The face-up A contact" } else { "The face-down A contact" }.into(),
            Choice::Fight => "Fight".into(),
            Choice::Evade => "Use a risk detector to evade".into(),
            // Commanders are numbered from 1 where the table names them.
            Choice::Invite(s) => format!("Invite Commander {}", u32::from(s) + 1),
            Choice::SendInvitations => "Send the invitations".into(),
            Choice::Accept => "Join the landing".into(),
            Choice::Decline => "Stay aboard".into(),
            Choice::LandNow => "Land".into(),
            Choice::LandWithImperator => "Land with the Imperator".into(),
            Choice::Abort => "Give up the landing".into(),
            Choice::Domain(d) => format!("Invest {}", d.as_str()),
            Choice::Spend { adventurers, points } => format!("Spend {adventurers} adventurer(s) and {points} point(s)"),
            Choice::Leave { counts: [s, d, a, h] } => {
                format!("Leave {s} squad(s), {d} diplomat(s), {a} adventurer(s), {h} hunter(s)")
            }
            Choice::Stay => "Leave nobody".into(),
            Choice::Dismiss(p) => format!("Part with {}", article(p.as_str())),
            Choice::Keep => "Keep everyone".into(),
            Choice::Tech(t) => format!("Learn {t:?}"),
            Choice::XCard(x) => format!("Take {}", c.extrasolar[usize::from(x)].name),
        }
    }
}

/// "a squad", "an adventurer": the word with its indefinite article.
fn article(word: &str) -> String {
    let vowel = word.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {}", if vowel { "an" } else { "a" }, word.replace('_', " "))
}

#[cfg(test)]
mod label_tests {
    #[test]
    fn labels_take_the_right_article() {
        assert_eq!(super::article("adventurer"), "an adventurer");
        assert_eq!(super::article("squad"), "a squad");
        assert_eq!(super::article("risk_detector"), "a risk detector");
    }
}
