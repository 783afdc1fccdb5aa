//! The landing being arranged and the mission under way, in words: the
//! planet's card and what it asks (squads, experience in its domains), who
//! was invited and who accepted, and each participant's squads and domain
//! against the requirement (permanent experience, plus what it could
//! spend), so "Land?" is answered knowing the odds. Public facts only: the
//! boards are face up.

use super::names;
use crate::ui::style;
use legio_engine::content::{Content, Domain};
use legio_engine::{Seat, Ship, View};
use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// The lines for `cols` columns (wrapped at words), empty when no landing
/// or mission is under way.
pub fn lines(v: &View, cols: usize) -> Vec<Line<'static>> {
    crate::ui::menu::wrap_lines(rows(v), cols, 4)
}

fn rows(v: &View) -> Vec<Line<'static>> {
    let pb = &v.public;
    let c = Content::get();
    let ship = |s: Seat| pb.ships.iter().find(|x| x.seat == s);
    if let Some(m) = &pb.mission {
        let Some(card) = c.extrasolar.get(usize::from(m.card)) else { return Vec::new() };
        let mut out = vec![Line::styled(
            format!(
                "Mission on {}: {} asks {} {} experience",
                names::planet(m.planet),
                card.name,
                card.experience,
                domains_text(&card.domains)
            ),
            style::title(),
        )];
        for (i, &s) in m.participants.iter().enumerate() {
            let Some(sh) = ship(s) else { continue };
            let d = m.domains.get(i).copied().flatten().or(card.domains.first().copied());
            let invest = match d {
                Some(d) => format!("{} {}", d_word(d), contribution(sh, d)),
                None => "no domain".into(),
            };
            out.push(Line::raw(format!("  {}: {invest}", names::commander(s))));
        }
        let state = if m.success && m.shortfall > 0 {
            format!("short by {}: the participants spend it, in turn order", m.shortfall)
        } else if m.success {
            "the experience is met: the mission succeeds".to_string()
        } else {
            "counting the experience".to_string()
        };
        out.push(Line::styled(format!("  {state}"), style::dim()));
        return out;
    }
    let Some(l) = &pb.landing else { return Vec::new() };
    let Some(planet) = pb.planets.get(usize::from(l.planet)).copied().flatten() else { return Vec::new() };
    let Some(card) = c.extrasolar.get(usize::from(planet.card)) else { return Vec::new() };
    let mut out = vec![Line::styled(
        format!(
            "Landing on {}: {} asks {} sq and {} {} experience",
            names::planet(l.planet),
            card.name,
            card.squads,
            card.experience,
            domains_text(&card.domains)
        ),
        style::title(),
    )];
    let mut crew: Vec<Seat> = vec![pb.active];
    crew.extend(l.accepted.iter().copied());
    let mut squads = 0u32;
    let mut best = vec![0u32; card.domains.len()];
    for &s in &crew {
        let Some(sh) = ship(s) else { continue };
        squads += u32::from(sh.tracks.squads);
        let doms: Vec<String> = card
            .domains
            .iter()
            .enumerate()
            .map(|(k, d)| {
                best[k] += u32::from(sh.permanent(*d));
                format!("{} {}", d_word(*d), contribution(sh, *d))
            })
            .collect();
        out.push(Line::raw(format!("  {}: {} sq, {}", names::commander(s), sh.tracks.squads, doms.join(", "))));
    }
    for &s in l.invited.iter().filter(|s| !l.accepted.contains(s)) {
        out.push(Line::styled(format!("  {}: invited, has not joined", names::commander(s)), style::dim()));
    }
    let have = card
        .domains
        .iter()
        .zip(&best)
        .map(|(d, b)| format!("{} {b}/{}", d_word(*d), card.experience))
        .collect::<Vec<_>>()
        .join(" or ");
    let ok = squads >= u32::from(card.squads);
    out.push(Line::styled(
        format!("  together: {squads}/{} sq{}; {have} before spending", card.squads, if ok { "" } else { " (short)" }),
        if ok { style::dim() } else { Style::new().fg(Color::LightRed) },
    ));
    out
}

fn domains_text(d: &[Domain]) -> String {
    d.iter().map(|x| d_word(*x)).collect::<Vec<_>>().join(" or ")
}

fn d_word(d: Domain) -> &'static str {
    match d {
        Domain::Diplomacy => "diplomacy",
        Domain::Capture => "capture",
    }
}

/// A ship's experience in a domain: "3 (+2 to spend)".
fn contribution(sh: &Ship, d: Domain) -> String {
    let adventurers = sh.experts.get(legio_engine::ExpertKind::Adventurer);
    let (permanent, spend) = if sh.px >= 12 {
        (sh.permanent(d) + adventurers, sh.experience[d as usize])
    } else {
        (sh.permanent(d), sh.experience[d as usize] + adventurers)
    };
    if spend > 0 { format!("{permanent} (+{spend} to spend)") } else { permanent.to_string() }
}
