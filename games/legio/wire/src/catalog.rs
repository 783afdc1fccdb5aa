//! VII Legio's content as the catalog front-ends read (GetCatalog): every
//! Exploration card, Extrasolar card (A, B and X), sector, expert, Secret
//! Objective, ship board side, Imperator card, damage-table face,
//! technology and planet token, with the index that states, events and
//! options use, its name, a rules text in our own words built from the
//! content data, and its data as JSON.

use legio_engine::content::*;
use legio_engine::{ExpertKind, PLANETS, Tech};
use tabletop::pb;

fn entry(category: &str, index: usize, id: &str, name: &str, details_json: String, text: String) -> pb::CatalogEntry {
    pb::CatalogEntry {
        category: category.into(),
        index: index as u32,
        id: id.into(),
        name: name.into(),
        details_json,
        text,
    }
}

fn json<T: serde::Serialize>(t: &T) -> String {
    serde_json::to_string(t).unwrap_or_default()
}

/// "1 card", "2 cards".
pub(crate) fn plural(n: impl Into<u32>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A domain's display name.
pub fn domain_name(d: Domain) -> &'static str {
    match d {
        Domain::Diplomacy => "Diplomacy",
        Domain::Capture => "Capture",
    }
}

/// An expert kind's display name.
pub fn expert_name(k: ExpertKind) -> &'static str {
    match k {
        ExpertKind::Diplomat => "Diplomat",
        ExpertKind::Adventurer => "Adventurer",
        ExpertKind::Hunter => "Hunter",
    }
}

/// A technology's display name.
pub fn tech_name(t: Tech) -> &'static str {
    match t {
        Tech::Holodeck => "Holodeck",
        Tech::Nanoprobes => "Nanoprobes",
    }
}

/// A sector's display name: "Sector 1" to "Sector 5", "Sector X".
pub fn sector_name(s: Sector) -> String {
    if s == SECTOR_X { "Sector X".into() } else { format!("Sector {}", u32::from(s) + 1) }
}

/// A planet token's display name ("planet beta").
pub fn planet_name(token: u8) -> String {
    format!("planet {}", PLANETS.get(usize::from(token)).unwrap_or(&"?"))
}

/// An Exploration card's name.
pub fn exploration_name(card: u8) -> String {
    Content::get().exploration.get(usize::from(card)).map_or_else(|| format!("card {card}"), |d| d.name.clone())
}

/// An Extrasolar card's name.
pub fn extrasolar_name(card: u8) -> String {
    Content::get().extrasolar.get(usize::from(card)).map_or_else(|| format!("contact {card}"), |d| d.name.clone())
}

/// A Secret Objective's name.
pub fn objective_name(o: u8) -> String {
    Content::get().objectives.get(usize::from(o)).map_or_else(|| format!("objective {o}"), |d| d.name.clone())
}

/// An Imperator card's name ("Imperator card 7"; the cards have no title).
pub fn imperator_name(card: u8) -> String {
    format!("Imperator card {}", u32::from(card) + 1)
}

/// What a damage-table loss takes, in words.
pub fn loss_text(l: Loss) -> &'static str {
    match l {
        Loss::Propulsor => "the ship loses one propulsor",
        Loss::Laser => "the ship loses one laser",
        Loss::Squad => "the ship loses one squad",
        Loss::Decoder => "the signal decoder falls back to 0",
        Loss::Nothing => "no harm done",
    }
}

fn exploration_text(d: &ExplorationDef) -> String {
    let risk = match d.risk {
        Risk::Signal => "An unknown signal: nothing to confront.".to_string(),
        Risk::Discard { cards } => {
            format!("Risk: discard {} more from your hand, face down.", plural(cards, "card", "cards"))
        }
        Risk::XenoShip { lasers, pc, px } => format!(
            "Risk: a hostile Xeno ship that takes {} to beat. Fight it (one damage roll per missing laser) or \
             avoid it with a risk detector; a ship that had a laser at the start of the fight and beats it \
             wins a trophy of {pc} PC and {px} PX.",
            plural(lasers, "laser", "lasers")
        ),
        Risk::OzOre { pc, px } => {
            format!("Oz ore: a commander with 3 PX or more mines it for {pc} PC and {px} PX.")
        }
        Risk::Discovery => "A discovery: an inhabited planet may be found in the ship's sector.".to_string(),
        Risk::Drift => "A drift: the ship is thrown straight back to the Star Base.".to_string(),
        Risk::Hazard => "A hazard: one roll on the damage table.".to_string(),
    };
    match d.xp {
        Some(x) => format!("{risk} Confronting it teaches {} {} experience.", x.amount, domain_name(x.domain)),
        None => format!("{risk} It teaches no experience."),
    }
}

fn extrasolar_text(d: &ExtrasolarDef) -> String {
    if d.pile == Pile::X {
        let g = d.gift.unwrap_or_default();
        let mut parts = Vec::new();
        if g.px > 0 {
            parts.push(format!("{} PX", g.px));
        }
        if g.pc > 0 {
            parts.push(format!("{} PC", g.pc));
        }
        if g.experience > 0 {
            parts.push(format!("{} experience in each domain", g.experience));
        }
        if g.lasers > 0 {
            parts.push(plural(g.lasers, "laser", "lasers"));
        }
        if g.propulsors > 0 {
            parts.push(plural(g.propulsors, "propulsor", "propulsors"));
        }
        return format!(
            "Sector X card: the commander who chooses it on entering Sector X gains {} (up to the board's limits).",
            parts.join(", ")
        );
    }
    let zone = if d.pile == Pile::A { "A" } else { "B" };
    let kind = if d.sapiens { "sapiens" } else { "non-sapiens" };
    let domains = d.domains.iter().map(|&x| domain_name(x)).collect::<Vec<_>>().join(" or ");
    let double = if d.double() { " (each participant names the domain it invests)" } else { "" };
    let star = d.star.map_or(String::new(), |s| {
        let crew = if s.crew > 0 {
            format!(" (from rules revision 1, at least {} of them)", plural(s.crew, "squad", "squads"))
        } else {
            String::new()
        };
        format!(
            " Star: each participant may leave {}{crew} on the planet for {} PX.",
            plural(s.leave, "personnel", "personnel"),
            s.px
        )
    });
    format!(
        "Zone {zone} contact, {kind}. Landing takes {}. The mission asks {} {domains} experience{double}; \
         success shares {} PC among the participants.{star}",
        plural(d.squads, "squad", "squads"),
        d.experience,
        d.pc
    )
}

fn measure_text(m: Measure, n: u8) -> String {
    match m {
        Measure::Trophies => {
            format!("hold at least {} of planets you discovered", plural(n, "Extrasolar card", "Extrasolar cards"))
        }
        Measure::ZoneBTrophies => {
            format!("hold at least {} of zone B planets you discovered", plural(n, "card", "cards"))
        }
        Measure::SapiensTrophies => {
            format!("hold at least {} of sapiens planets you discovered", plural(n, "card", "cards"))
        }
        Measure::WildTrophies => {
            format!("hold at least {} of non-sapiens planets you discovered", plural(n, "card", "cards"))
        }
        Measure::Experts => format!("have at least {} aboard", plural(n, "expert", "experts")),
        Measure::Lasers => format!("have at least {} installed", plural(n, "laser", "lasers")),
        Measure::Propulsors => format!("have at least {} installed", plural(n, "propulsor", "propulsors")),
        Measure::Px => format!("reach {n} PX"),
        Measure::Experience => format!("have at least {n} points on your experience table, both domains together"),
        Measure::Spatha => "command a Spatha (be promoted)".into(),
        Measure::SectorX => "have gone to Sector X".into(),
        Measure::ImperatorCalls => format!("have called the Imperator at least {}", plural(n, "time", "times")),
    }
}

fn objective_text(d: &ObjectiveDef) -> String {
    let when = match d.when {
        When::Achieved => "Revealed as soon as it is achieved",
        When::End => "Revealed at the end of the game",
    };
    format!("Secret Objective. {when}: {}. Worth {} PC.", measure_text(d.condition.kind, d.condition.n), d.pc)
}

fn side_text(d: &SideDef) -> String {
    let t = |x: &Tracks| {
        format!(
            "{} propulsors, {} lasers, decoder {}, {} detectors, {} squads",
            x.propulsors, x.lasers, x.decoder, x.detectors, x.squads
        )
    };
    let cards = d.cards.iter().map(u8::to_string).collect::<Vec<_>>().join("/");
    format!(
        "Ship board side. Starts from its grey boxes ({}) and goes up to {}. With 0 to {} propulsors it draws \
         {cards} Exploration cards a turn. Holds up to {} ({} embarked when this side is taken); its experience \
         table holds {} points per domain.",
        t(&d.start),
        t(&d.max),
        d.max.propulsors,
        plural(d.experts_cap, "expert", "experts"),
        d.experts_at_start,
        d.memory
    )
}

fn sector_text(c: &Content, s: usize) -> String {
    let n = &c.nebula;
    if s == usize::from(SECTOR_X) {
        return format!(
            "The heart of the nebula. Any ship may enter it for {} and leave it for {}, always to the Star Base; \
             a commander who enters chooses one of the X cards.",
            plural(n.x.enter_cost, "card", "cards"),
            plural(n.x.leave_cost, "card", "cards")
        );
    }
    let def = &n.sectors[s];
    let zone = if def.zone == Pile::A { "A" } else { "B" };
    let borders: Vec<String> = (0..5)
        .filter_map(|t| n.cost[s][t].map(|k| format!("{} ({})", sector_name(t as u8), plural(k, "card", "cards"))))
        .collect();
    let base = if s == usize::from(BASE) { " The Star Base lies here." } else { "" };
    format!(
        "Exploration zone {zone}.{base} Planets discovered at most: {} with 2 commanders, {} with 3, {} with 4. \
         Borders: {}.",
        def.planets[0],
        def.planets[1],
        def.planets[2],
        borders.join(", ")
    )
}

fn expert_text(k: ExpertKind) -> String {
    let what = match k {
        ExpertKind::Diplomat => "Adds one permanent point of Diplomacy experience to every mission.",
        ExpertKind::Adventurer => {
            "Adds one point of experience in either domain when spent; below 12 PX it leaves the ship once used."
        }
        ExpertKind::Hunter => "Adds one permanent point of Capture experience to every mission.",
    };
    format!("Expert ({} tokens in the supply). {what}", k.tokens())
}

fn tech_text(t: Tech) -> String {
    format!(
        "Technology, learnt at 6 PX (one of the two). Adds one permanent point of {} experience.",
        domain_name(t.domain())
    )
}

/// VII Legio's content, every category, from the engine's content data.
pub fn entries() -> Vec<pb::CatalogEntry> {
    let c = Content::get();
    let mut v = Vec::new();
    for (i, d) in c.exploration.iter().enumerate() {
        v.push(entry("exploration", i, &d.id, &d.name, json(d), exploration_text(d)));
    }
    for (i, d) in c.extrasolar.iter().enumerate() {
        v.push(entry("extrasolar", i, &d.id, &d.name, json(d), extrasolar_text(d)));
    }
    for (i, d) in c.nebula.sectors.iter().enumerate() {
        v.push(entry("sector", i, &d.id, &sector_name(i as u8), json(d), sector_text(c, i)));
    }
    v.push(entry("sector", usize::from(SECTOR_X), "x", "Sector X", json(&c.nebula.x), sector_text(c, 5)));
    for (i, k) in ExpertKind::ALL.into_iter().enumerate() {
        v.push(entry("expert", i, k.as_str(), expert_name(k), json(&k), expert_text(k)));
    }
    for (i, d) in c.objectives.iter().enumerate() {
        v.push(entry("objective", i, &d.id, &d.name, json(d), objective_text(d)));
    }
    for (i, d) in c.sides.iter().enumerate() {
        v.push(entry("ship", i, &d.id, &d.name, json(d), side_text(d)));
    }
    for (i, d) in c.imperator.iter().enumerate() {
        let text = format!(
            "Imperator card. Called to a mission, the Imperator lends {} and {} experience in the mission's \
             domain, and its own pawn scores {} PC.",
            plural(d.squads, "squad", "squads"),
            d.experience,
            d.pc
        );
        v.push(entry("imperator", i, &d.id, &imperator_name(i as u8), json(d), text));
    }
    for (i, l) in c.damage.iter().enumerate() {
        let face = i + 1;
        let text = format!("Damage table, d10 face {face}: {}.", loss_text(*l));
        v.push(entry("damage", i, &format!("d{face}"), &format!("Damage roll {face}"), json(l), text));
    }
    for (i, t) in [Tech::Holodeck, Tech::Nanoprobes].into_iter().enumerate() {
        let id = tech_name(t).to_lowercase();
        v.push(entry("tech", i, &id, tech_name(t), json(&t), tech_text(t)));
    }
    for (i, p) in PLANETS.iter().enumerate() {
        let text = "Active-planet token: marks a discovered planet and its face-up Extrasolar card until the \
                    planet is explored."
            .to_string();
        v.push(entry("planet", i, p, &planet_name(i as u8), json(p), text));
    }
    v
}
