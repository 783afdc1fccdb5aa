//! VII Legio content in words, from the engine's content files: card,
//! planet, sector and objective names and short descriptions. Shared by
//! the screen's panels and the plain text report; no drawing here.

use legio_engine::content::{Content, Domain, Measure, Risk, When};
use legio_engine::{ExpertKind, PLANETS, Seat, Side, Tech};

/// "S1".."S5", or "X" for Sector X.
pub fn sector(s: u8) -> String {
    if usize::from(s) < 5 { format!("S{}", s + 1) } else { "X".to_string() }
}

/// A planet token's name, capitalised ("Alpha").
pub fn planet(p: u8) -> String {
    let name = PLANETS.get(usize::from(p)).copied().unwrap_or("?");
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A commander by seat, as the server's event lines and seat roles name
/// it: "Commander 2" for seat 1.
pub fn commander(seat: Seat) -> String {
    legio_wire::events::commander(seat)
}

/// A commander's short mark: "C2" for seat 1.
pub fn short(seat: Seat) -> String {
    format!("C{}", u32::from(seat) + 1)
}

/// An Exploration card's name.
pub fn card(i: u8) -> &'static str {
    Content::get().exploration.get(usize::from(i)).map_or("?", |d| d.name.as_str())
}

/// An Exploration card with what it teaches and risks: "Unknown Beacon
/// (+1 dip, signal)".
pub fn card_long(i: u8) -> String {
    let Some(d) = Content::get().exploration.get(usize::from(i)) else { return "?".into() };
    let xp = d.xp.map(|x| format!("+{} {}, ", x.amount, domain_short(x.domain))).unwrap_or_default();
    format!("{} ({xp}{})", d.name, risk(d.risk))
}

/// A risk symbol in a few words.
pub fn risk(r: Risk) -> String {
    match r {
        Risk::Signal => "signal".into(),
        Risk::Discard { cards } => format!("discard {cards}"),
        Risk::XenoShip { lasers, .. } => format!("Xeno ship {lasers} laser{}", if lasers == 1 { "" } else { "s" }),
        Risk::OzOre { pc, px } => {
            let gains: Vec<String> =
                [(pc, "PC"), (px, "PX")].iter().filter(|(n, _)| *n > 0).map(|(n, w)| format!("+{n} {w}")).collect();
            format!("Oz ore {}", gains.join(" "))
        }
        Risk::Discovery => "discovery: a planet".into(),
        Risk::Drift => "drift: back to S1".into(),
        Risk::Hazard => "hazard: a damage roll".into(),
    }
}

/// "dip" or "cap".
pub fn domain_short(d: Domain) -> &'static str {
    match d {
        Domain::Diplomacy => "dip",
        Domain::Capture => "cap",
    }
}

/// An Extrasolar card's name.
pub fn extrasolar(i: u8) -> &'static str {
    Content::get().extrasolar.get(usize::from(i)).map_or("?", |d| d.name.as_str())
}

/// An Extrasolar card with its mission: "Aeriformes (3 sq, 3 cap, 3 PC)".
pub fn extrasolar_long(i: u8) -> String {
    let Some(d) = Content::get().extrasolar.get(usize::from(i)) else { return "?".into() };
    if d.domains.is_empty() {
        return d.name.clone();
    }
    let domains: Vec<&str> = d.domains.iter().map(|x| domain_short(*x)).collect();
    format!("{} ({} sq, {} {}, {} PC)", d.name, d.squads, d.experience, domains.join("/"), d.pc)
}

/// An Imperator card: "2 sq, 3 exp, 2 PC".
pub fn imperator(i: u8) -> String {
    match Content::get().imperator.get(usize::from(i)) {
        Some(d) => format!("{} sq, {} exp, {} PC", d.squads, d.experience, d.pc),
        None => "?".into(),
    }
}

/// An objective's name.
pub fn objective(i: u8) -> &'static str {
    Content::get().objectives.get(usize::from(i)).map_or("?", |d| d.name.as_str())
}

/// An objective with its condition and reward: "Cartographer's Ledger:
/// 3 trophies, 3 PC when achieved".
pub fn objective_long(i: u8) -> String {
    let Some(d) = Content::get().objectives.get(usize::from(i)) else { return "?".into() };
    let n = d.condition.n;
    let what = match d.condition.kind {
        Measure::Trophies => format!("{n} trophies"),
        Measure::ZoneBTrophies => format!("{n} zone B trophies"),
        Measure::SapiensTrophies => format!("{n} sapiens trophies"),
        Measure::WildTrophies => format!("{n} wild trophies"),
        Measure::Experts => format!("{n} experts"),
        Measure::Lasers => format!("{n} lasers"),
        Measure::Propulsors => format!("{n} propulsors"),
        Measure::Px => format!("{n} PX"),
        Measure::Experience => format!("{n} experience"),
        Measure::Spatha => "a Spatha".into(),
        Measure::SectorX => "Sector X visited".into(),
        Measure::ImperatorCalls => format!("{n} Imperator calls"),
    };
    let when = match d.when {
        When::Achieved => "when achieved",
        When::End => "at the end",
    };
    format!("{}: {what}, {} PC {when}", d.name, d.pc)
}

/// "Frombola" or "Spatha".
pub fn side(s: Side) -> &'static str {
    match s {
        Side::Frombola => "Frombola",
        Side::Spatha => "Spatha",
    }
}

/// "Holodeck" or "Nanoprobes".
pub fn tech(t: Tech) -> &'static str {
    match t {
        Tech::Holodeck => "Holodeck",
        Tech::Nanoprobes => "Nanoprobes",
    }
}

/// One letter per expert kind: D(iplomat), A(dventurer), H(unter).
pub fn expert_letter(k: ExpertKind) -> char {
    match k {
        ExpertKind::Diplomat => 'D',
        ExpertKind::Adventurer => 'A',
        ExpertKind::Hunter => 'H',
    }
}

/// A game-end cause in words.
pub fn cause(c: &str) -> String {
    match c {
        "declared" => "end declared".into(),
        "fifteen_px" => "15 PX reached".into(),
        "imperator_25" => "the Imperator reached 25".into(),
        "no_planet_left" => "no planet left to discover".into(),
        "round_limit" => "round limit".into(),
        other => other.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_content() {
        assert_eq!(sector(0), "S1");
        assert_eq!(sector(5), "X");
        assert_eq!(planet(1), "Beta");
        assert_eq!(card(0), "Unknown Beacon");
        assert!(card_long(0).starts_with("Unknown Beacon (+1 dip"), "{}", card_long(0));
        assert!(extrasolar_long(0).starts_with("Aeriformes (3 sq"), "{}", extrasolar_long(0));
        assert!(objective_long(0).contains("3 trophies"), "{}", objective_long(0));
        assert_eq!(card(200), "?");
    }
}
