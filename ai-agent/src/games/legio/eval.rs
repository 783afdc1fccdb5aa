//! What a VII Legio game is worth to one seat: its own rank first (the
//! 10-PX gate included, a truncated game worth nothing), then its score
//! margin, never the table's total.
//!
//! A finished game is valued by its outcome. A game in progress by each
//! commander's *strength*, an estimate of where it will finish: PC, PX
//! (with a step at the 10-PX gate, rulebook "Fin de partie"), the
//! experience, crew and equipment that win missions, the Spatha
//! (promotion at 12 PC), the Imperator calls left, its objectives (met
//! end objectives at their PC), the active planets within its reach and
//! the mission under way. The seat's chance to beat each rival is a
//! logistic in the strength gap, sharper once the end is triggered.

use legio_engine::content::{Content, Domain, When};
use legio_engine::{ExpertKind, Game, Seat, Ship, Side};

/// PX worth in PC-equivalents (missions need PX to count at all).
const PX: f64 = 1.4;
/// The step at 10 PX: below it a commander's PC do not count.
const GATE: f64 = 7.0;
/// Per experience point on the table.
const EXPERIENCE: f64 = 0.5;
/// Per squad and per expert aboard.
const SQUAD: f64 = 0.6;
const EXPERT: f64 = 0.9;
/// Per level of each equipment.
const GEAR: f64 = 0.3;
/// The Spatha side (more cards, more crew).
const SPATHA: f64 = 4.0;
/// Per Imperator call still allowed.
const IMPERATOR_CALL: f64 = 0.8;
/// Per card in the active commander's hand (cards left at the end of the
/// turn cost 1 PC each, so a card is worth less than a point).
const HAND: f64 = 0.45;
/// Share of an active planet's PC counted as within reach.
const REACH: f64 = 0.35;
/// Per card of border crossings between a ship and a planet.
const TRAVEL: f64 = 0.45;
/// Logistic temperature of the strength gap, before and after the end.
const T_OPEN: f64 = 6.0;
const T_END: f64 = 2.0;
/// Weight of the score margin behind the rank.
const MARGIN: f64 = 0.01;

/// The value of `g` to `me`: about 0 (last) to 1 (first), plus a small
/// margin term; a truncated game is -0.5.
pub fn utility(g: &Game, me: Seat) -> f64 {
    let n = g.players();
    if let Some(o) = g.outcome() {
        if o.truncated {
            return -0.5;
        }
        let rank = if o.winners.contains(&me) {
            0
        } else {
            o.ranking.iter().position(|&s| s == me).unwrap_or(n.saturating_sub(1))
        };
        let mut u = 1.0 - rank as f64 / (n.saturating_sub(1).max(1)) as f64;
        if o.winners.is_empty() || !o.winners.contains(&me) && rank == 0 {
            u -= 0.5;
        }
        if !o.winners.contains(&me) {
            u = u.min(0.9);
        }
        let mine = o.scores.get(usize::from(me)).copied().unwrap_or(0) as f64;
        let best = (0..n).filter(|&s| s != usize::from(me)).filter_map(|s| o.scores.get(s)).max().copied().unwrap_or(0);
        return u + MARGIN * (mine - best as f64).clamp(-20.0, 20.0);
    }
    let strengths: Vec<f64> = (0..n as Seat).map(|s| strength(g, s)).collect();
    let mine = strengths[usize::from(me)];
    let t = if g.public().end.is_some() { T_END } else { T_OPEN };
    let rivals: Vec<f64> =
        strengths.iter().enumerate().filter(|(s, _)| *s != usize::from(me)).map(|(_, v)| *v).collect();
    if rivals.is_empty() {
        return 1.0;
    }
    let beaten: f64 = rivals.iter().map(|r| 1.0 / (1.0 + (-(mine - r) / t).exp())).sum::<f64>() / rivals.len() as f64;
    let best = rivals.iter().copied().fold(f64::MIN, f64::max);
    beaten + MARGIN * (mine - best).clamp(-20.0, 20.0)
}

/// Where `seat` stands, in PC-equivalents.
pub fn strength(g: &Game, seat: Seat) -> f64 {
    let c = Content::get();
    let pb = g.public();
    let s = &pb.ships[usize::from(seat)];
    let mut v = f64::from(s.pc) + PX * f64::from(s.px);
    if s.px >= 10 {
        v += GATE;
    }
    let memory = f64::from(c.side(s.side).memory.max(1));
    v += EXPERIENCE * s.experience.iter().map(|&e| f64::from(e).min(memory)).sum::<f64>();
    v += SQUAD * f64::from(s.tracks.squads) + EXPERT * f64::from(s.experts.total());
    let t = s.tracks;
    v += GEAR * f64::from(t.propulsors + t.lasers + t.decoder + t.detectors);
    if s.side == Side::Spatha {
        v += SPATHA;
    } else if s.pc >= 12 {
        // Promotion waits at the Star Base.
        v += SPATHA * 0.6 - TRAVEL * f64::from(travel(s.sector, legio_engine::content::BASE));
    }
    if s.tech.is_some() {
        v += 1.0;
    }
    let calls = g.config().imperator_calls().saturating_sub(s.imperator_calls);
    v += IMPERATOR_CALL * f64::from(calls.min(3));
    v += 1.5 * f64::from(s.x_cards.len() as u8);
    for &o in g.hidden_objectives(seat) {
        let def = &c.objectives[usize::from(o)];
        let have = f64::from(g.measure(seat, def.condition.kind));
        let need = f64::from(def.condition.n.max(1));
        let pc = f64::from(def.pc);
        v += match def.when {
            When::End if have >= need => pc,
            _ => 0.4 * pc * (have / need).min(1.0),
        };
    }
    if pb.active == seat && pb.outcome.is_none() {
        v += HAND * g.hand(seat).len() as f64;
    }
    v += reach(g, s);
    v += mission_share(g, seat);
    v
}

/// The active planet most worth reaching from where the ship is, less
/// the crossings on the way; 0 when none is.
fn reach(g: &Game, s: &Ship) -> f64 {
    let c = Content::get();
    let pb = g.public();
    if pb.mission.is_some() || s.sector >= 5 {
        return 0.0;
    }
    let mut best = 0.0f64;
    for planet in pb.planets.iter().flatten() {
        let card = &c.extrasolar[usize::from(planet.card)];
        let mut pc = f64::from(card.pc);
        if card.pile == legio_engine::content::Pile::A && s.side == Side::Spatha {
            pc /= 2.0;
        }
        let star = card.star.map_or(0.0, |st| PX * f64::from(st.px) * 0.5);
        let squads = f64::from(s.tracks.squads) + 1.0;
        let crew = (squads / f64::from(card.squads.max(1))).min(1.0);
        let have = card.domains.iter().map(|&d| experience_for(s, d)).max().unwrap_or(0);
        let skill = (f64::from(have) / f64::from(card.experience.max(1))).min(1.0);
        let value = REACH * (pc + star + 2.0 * PX) * crew * skill;
        let cost = TRAVEL * f64::from(travel(s.sector, planet.sector));
        best = best.max(value - cost);
    }
    best
}

/// Experience a ship can bring to a mission of domain `d`: permanent,
/// stored, and its adventurers.
pub fn experience_for(s: &Ship, d: Domain) -> u8 {
    s.permanent(d) + s.experience[d as usize] + s.experts.get(ExpertKind::Adventurer)
}

/// The PC a seat may expect from the mission under way or the landing
/// being arranged, before they are awarded.
fn mission_share(g: &Game, seat: Seat) -> f64 {
    let c = Content::get();
    let pb = g.public();
    if let Some(m) = &pb.mission {
        if !m.participants.contains(&seat) || pb.tasks.iter().all(|t| !matches!(t, legio_engine::Task::Award)) {
            return 0.0;
        }
        let parts = m.participants.len() as f64 + f64::from(u8::from(m.imperator.is_some()));
        let pc = f64::from(c.extrasolar[usize::from(m.card)].pc);
        let odds = if m.success {
            1.0
        } else if m.shortfall == 0 {
            0.9
        } else {
            0.5
        };
        return odds * pc / parts;
    }
    if let Some(l) = &pb.landing {
        let involved = pb.active == seat || l.accepted.contains(&seat);
        if let (true, Some(p)) = (involved, pb.planets[usize::from(l.planet)]) {
            let parts = 1.0 + l.accepted.len() as f64;
            return 0.6 * f64::from(c.extrasolar[usize::from(p.card)].pc) / parts + PX;
        }
    }
    0.0
}

/// Cards of border crossings from sector `a` to sector `b` by the
/// cheapest way (5 sectors; Sector X is left for the Star Base).
pub fn travel(a: u8, b: u8) -> u8 {
    let cost = &Content::get().nebula.cost;
    if a >= 5 {
        return 3 + if b == 0 { 0 } else { travel(0, b) };
    }
    let mut dist = [u8::MAX; 5];
    dist[usize::from(a)] = 0;
    // Bellman-Ford over five sectors.
    for _ in 0..5 {
        for x in 0..5 {
            for y in 0..5 {
                if let (Some(cxy), true) = (cost[x][y], dist[x] != u8::MAX) {
                    dist[y] = dist[y].min(dist[x].saturating_add(cxy));
                }
            }
        }
    }
    dist.get(usize::from(b)).copied().unwrap_or(u8::MAX).min(20)
}

/// Whether `seat` would win if the game ended now (10 PX or more, and
/// ahead of every other commander with 10 PX by PC then PX) and by how
/// many PC it leads the best of them (or every rival, none eligible).
pub fn lead_if_ended(g: &Game, seat: Seat) -> Option<i64> {
    let pb = g.public();
    let me = &pb.ships[usize::from(seat)];
    if me.px < 10 {
        return None;
    }
    let mut lead = i64::MAX;
    for s in pb.ships.iter().filter(|s| s.seat != seat) {
        let rival = i64::from(s.pc) + if s.px >= 10 { 0 } else { -5 };
        if s.px >= 10 && (s.pc, s.px) >= (me.pc, me.px) {
            return None;
        }
        lead = lead.min(i64::from(me.pc) - rival);
    }
    Some(lead)
}
