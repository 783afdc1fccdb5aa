//! The engine's view as the typed `legio.v1.LegioState`, and a typed state
//! read back into an engine view (for clients that simulate or draw with
//! the engine: the AI commanders and the terminal client). The two are
//! inverse: a view written and read back is the same view, pending
//! decision included (tested over random games, for every viewer).

use crate::WireError;
use crate::enums::*;
use crate::step::{step, step_back, task, task_back};
use legio_engine::content::Tracks;
use legio_engine::*;
use tabletop::legio_pb as l;

/// The schema revision of `LegioState` this crate writes
/// (tabletop.v1.GameState.schema_version).
pub const SCHEMA_VERSION: u32 = 1;

/// The typed configuration (it has no seed field: whether a caller may
/// know the seed is the service's to say, in `GameSummary.seed`).
pub fn legio_config(c: &GameConfig) -> l::LegioConfig {
    l::LegioConfig { players: u32::from(c.players), round_limit: c.round_limit, rules_revision: c.rules_revision }
}

/// The typed outcome in full.
pub fn legio_outcome(o: &Outcome) -> l::LegioOutcome {
    l::LegioOutcome {
        scores: o.scores.clone(),
        px: wide(&o.px),
        ranking: wide(&o.ranking),
        winners: wide(&o.winners),
        cause: o.cause.clone(),
        round: o.round,
        truncated: o.truncated,
    }
}

fn outcome_back(o: &l::LegioOutcome) -> Result<Outcome, WireError> {
    Ok(Outcome {
        scores: o.scores.clone(),
        px: smalls(&o.px, "outcome.px")?,
        ranking: smalls(&o.ranking, "outcome.ranking")?,
        winners: smalls(&o.winners, "outcome.winners")?,
        cause: o.cause.clone(),
        round: o.round,
        truncated: o.truncated,
    })
}

fn tracks(t: &Tracks) -> l::Tracks {
    l::Tracks {
        propulsors: u32::from(t.propulsors),
        lasers: u32::from(t.lasers),
        decoder: u32::from(t.decoder),
        detectors: u32::from(t.detectors),
        squads: u32::from(t.squads),
    }
}

fn tracks_back(t: Option<&l::Tracks>) -> Result<Tracks, WireError> {
    let t = t.ok_or(WireError::Missing("ship.tracks"))?;
    Ok(Tracks {
        propulsors: small(t.propulsors, "tracks.propulsors")?,
        lasers: small(t.lasers, "tracks.lasers")?,
        decoder: small(t.decoder, "tracks.decoder")?,
        detectors: small(t.detectors, "tracks.detectors")?,
        squads: small(t.squads, "tracks.squads")?,
    })
}

fn experts(e: &Experts) -> l::Experts {
    l::Experts {
        diplomats: u32::from(e.get(ExpertKind::Diplomat)),
        adventurers: u32::from(e.get(ExpertKind::Adventurer)),
        hunters: u32::from(e.get(ExpertKind::Hunter)),
    }
}

fn experts_back(e: Option<&l::Experts>, field: &'static str) -> Result<Experts, WireError> {
    let e = e.ok_or(WireError::Missing(field))?;
    let mut out = Experts::default();
    *out.get_mut(ExpertKind::Diplomat) = small(e.diplomats, field)?;
    *out.get_mut(ExpertKind::Adventurer) = small(e.adventurers, field)?;
    *out.get_mut(ExpertKind::Hunter) = small(e.hunters, field)?;
    Ok(out)
}

/// Discovery markers `seat` has left, in a game whose rules limit them
/// (the engine's count: its active planets and trophies hold the others).
fn markers_left(v: &View, seat: Seat) -> Option<u32> {
    if v.config.rules_revision() < 1 {
        return None;
    }
    let p = &v.public;
    let ship = p.ships.get(usize::from(seat))?;
    let active = p.planets.iter().flatten().filter(|a| a.discoverer == seat).count();
    Some(u32::from(DISCOVERY_MARKERS).saturating_sub((active + ship.trophies.len()) as u32))
}

fn ship(s: &Ship, discovery_markers: Option<u32>) -> l::Ship {
    l::Ship {
        seat: u32::from(s.seat),
        side: side(s.side) as i32,
        sector: u32::from(s.sector),
        profile: u32::from(s.profile),
        tracks: Some(tracks(&s.tracks)),
        experts: Some(experts(&s.experts)),
        experience_diplomacy: u32::from(s.experience[0]),
        experience_capture: u32::from(s.experience[1]),
        tech: s.tech.map(|t| tech(t) as i32),
        imperator_calls: u32::from(s.imperator_calls),
        special_missions: u32::from(s.special_missions),
        pc: s.pc,
        px: u32::from(s.px),
        trophies: wide(&s.trophies),
        x_cards: wide(&s.x_cards),
        revealed_objectives: wide(&s.revealed),
        second_objective: s.second_objective,
        discovery_markers,
    }
}

fn ship_back(s: &l::Ship) -> Result<Ship, WireError> {
    Ok(Ship {
        seat: small(s.seat, "ship.seat")?,
        side: side_back(s.side)?,
        sector: small(s.sector, "ship.sector")?,
        profile: small(s.profile, "ship.profile")?,
        tracks: tracks_back(s.tracks.as_ref())?,
        experts: experts_back(s.experts.as_ref(), "ship.experts")?,
        experience: [
            small(s.experience_diplomacy, "ship.experience_diplomacy")?,
            small(s.experience_capture, "ship.experience_capture")?,
        ],
        tech: s.tech.map(|t| tech_back(t, "ship.tech")).transpose()?,
        imperator_calls: small(s.imperator_calls, "ship.imperator_calls")?,
        special_missions: small(s.special_missions, "ship.special_missions")?,
        pc: s.pc,
        px: small(s.px, "ship.px")?,
        trophies: smalls(&s.trophies, "ship.trophies")?,
        x_cards: smalls(&s.x_cards, "ship.x_cards")?,
        revealed: smalls(&s.revealed_objectives, "ship.revealed_objectives")?,
        second_objective: s.second_objective,
    })
}

fn counts(k: &Counts) -> l::HiddenCounts {
    l::HiddenCounts {
        deck: u32::from(k.deck),
        discarded: wide(&k.discarded),
        hands: wide(&k.hands),
        objectives: wide(&k.objectives),
        offers: wide(&k.offers),
        objective_pile: u32::from(k.objective_pile),
        pile_a: u32::from(k.piles[0]),
        pile_b: u32::from(k.piles[1]),
        pile_x: u32::from(k.pile_x),
        imperator_deck: u32::from(k.imperator_deck),
    }
}

fn counts_back(k: Option<&l::HiddenCounts>) -> Result<Counts, WireError> {
    let k = k.ok_or(WireError::Missing("counts"))?;
    Ok(Counts {
        deck: small(k.deck, "counts.deck")?,
        discarded: smalls(&k.discarded, "counts.discarded")?,
        hands: smalls(&k.hands, "counts.hands")?,
        objectives: smalls(&k.objectives, "counts.objectives")?,
        offers: smalls(&k.offers, "counts.offers")?,
        objective_pile: small(k.objective_pile, "counts.objective_pile")?,
        piles: [small(k.pile_a, "counts.pile_a")?, small(k.pile_b, "counts.pile_b")?],
        pile_x: small(k.pile_x, "counts.pile_x")?,
        imperator_deck: small(k.imperator_deck, "counts.imperator_deck")?,
    })
}

fn secrets(seat: Seat, p: &Private) -> l::LegioPrivate {
    l::LegioPrivate {
        seat: u32::from(seat),
        hand: wide(&p.hand),
        objectives: wide(&p.objectives),
        offer: wide(&p.offer),
        discarded: wide(&p.discarded),
        contact_a2: p.contacts[0].map(u32::from),
        contact_b: p.contacts[1].map(u32::from),
        pile_x: p.pile_x.as_ref().map(|x| l::XPile { cards: wide(x) }),
    }
}

fn secrets_back(p: &l::LegioPrivate) -> Result<Private, WireError> {
    let opt = |v: Option<u32>, f: &'static str| v.map(|v| small(v, f)).transpose();
    Ok(Private {
        hand: smalls(&p.hand, "secrets.hand")?,
        objectives: smalls(&p.objectives, "secrets.objectives")?,
        offer: smalls(&p.offer, "secrets.offer")?,
        discarded: smalls(&p.discarded, "secrets.discarded")?,
        contacts: [opt(p.contact_a2, "secrets.contact_a2")?, opt(p.contact_b, "secrets.contact_b")?],
        pile_x: p.pile_x.as_ref().map(|x| smalls(&x.cards, "secrets.pile_x")).transpose()?,
    })
}

/// The typed state of a view: the public board, the counts of the hidden
/// parts and, for a seat, its own secrets only.
pub fn legio_state(v: &View) -> l::LegioState {
    let p = &v.public;
    let viewer_seat = match v.viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    l::LegioState {
        viewer_seat: viewer_seat.map(u32::from),
        config: Some(legio_config(&v.config)),
        round: p.round,
        seq: p.seq,
        first: u32::from(p.first),
        active: u32::from(p.active),
        step: Some(step(&p.pending)),
        tasks: p.tasks.iter().map(task).collect(),
        ships: p.ships.iter().map(|s| ship(s, markers_left(v, s.seat))).collect(),
        turn: Some(l::TurnFlags {
            drawn: u32::from(p.turn.drawn),
            acted: p.turn.acted,
            decoded: p.turn.decoded,
            landed: p.turn.landed,
            exploration_over: p.turn.exploration_over,
        }),
        planets: p
            .planets
            .iter()
            .enumerate()
            .filter_map(|(token, a)| {
                a.map(|a| l::ActivePlanet {
                    token: token as u32,
                    sector: u32::from(a.sector),
                    card: u32::from(a.card),
                    discoverer: u32::from(a.discoverer),
                })
            })
            .collect(),
        explored: wide(&p.explored),
        contact_a1: p.contact_a1.map(u32::from),
        contact_a2_face_down: p.contact_down[0],
        contact_b_face_down: p.contact_down[1],
        contact_a2_decoded_by: wide(&p.contact_seen[0]),
        contact_b_decoded_by: wide(&p.contact_seen[1]),
        x_seen_by: wide(&p.x_seen_by),
        imperator: Some(l::Imperator {
            score: u32::from(p.imperator.score),
            card: p.imperator.card.map(u32::from),
            discard: wide(&p.imperator.discard),
        }),
        discard_up: wide(&p.discard_up),
        supply: Some(experts(&p.supply)),
        landing: p.landing.as_ref().map(|x| l::Landing {
            planet: u32::from(x.planet),
            invited: wide(&x.invited),
            accepted: wide(&x.accepted),
        }),
        mission: p.mission.as_ref().map(|m| l::Mission {
            planet: u32::from(m.planet),
            card: u32::from(m.card),
            participants: wide(&m.participants),
            imperator: m.imperator.map(u32::from),
            domains: m.domains.iter().map(|d| d.map_or(l::Domain::Unspecified, domain) as i32).collect(),
            shortfall: u32::from(m.shortfall),
            success: m.success,
            gained: m.gained.clone(),
        }),
        end_cause: p.end.clone(),
        outcome: p.outcome.as_ref().map(legio_outcome),
        counts: Some(counts(&v.counts)),
        secrets: match (viewer_seat, &v.mine) {
            (Some(s), Some(mine)) => Some(secrets(s, mine)),
            _ => None,
        },
    }
}

/// The engine view a typed state describes. The pending decision (for
/// its decider only) is recomputed by the engine from the public state and
/// the viewer's secrets, which is all its options depend on.
pub fn read_view(s: &l::LegioState) -> Result<View, WireError> {
    let cfg = s.config.as_ref().ok_or(WireError::Missing("config"))?;
    let config = GameConfig {
        players: small(cfg.players, "config.players")?,
        seed: 0,
        round_limit: cfg.round_limit,
        rules_revision: cfg.rules_revision,
    };
    let viewer = match s.viewer_seat {
        Some(seat) => Viewer::Seat(small(seat, "viewer_seat")?),
        None => Viewer::Spectator,
    };
    let mine = s.secrets.as_ref().map(secrets_back).transpose()?;
    let opt = |v: Option<u32>, f: &'static str| v.map(|v| small(v, f)).transpose();
    let mut planets: [Option<ActivePlanet>; 5] = [None; 5];
    for a in &s.planets {
        let slot = planets.get_mut(a.token as usize).ok_or(WireError::OutOfRange("planet.token"))?;
        *slot = Some(ActivePlanet {
            sector: small(a.sector, "planet.sector")?,
            card: small(a.card, "planet.card")?,
            discoverer: small(a.discoverer, "planet.discoverer")?,
        });
    }
    let turn = s.turn.as_ref().ok_or(WireError::Missing("turn"))?;
    let imperator = s.imperator.as_ref().ok_or(WireError::Missing("imperator"))?;
    let public = Public {
        round: s.round,
        seq: s.seq,
        first: small(s.first, "first")?,
        active: small(s.active, "active")?,
        pending: step_back(s.step.as_ref())?,
        tasks: s.tasks.iter().map(task_back).collect::<Result<_, _>>()?,
        ships: s.ships.iter().map(ship_back).collect::<Result<_, _>>()?,
        turn: TurnFlags {
            drawn: small(turn.drawn, "turn.drawn")?,
            acted: turn.acted,
            decoded: turn.decoded,
            landed: turn.landed,
            exploration_over: turn.exploration_over,
        },
        planets,
        explored: smalls(&s.explored, "explored")?.try_into().map_err(|_| WireError::OutOfRange("explored"))?,
        contact_a1: opt(s.contact_a1, "contact_a1")?,
        contact_down: [s.contact_a2_face_down, s.contact_b_face_down],
        contact_seen: [
            smalls(&s.contact_a2_decoded_by, "contact_a2_decoded_by")?,
            smalls(&s.contact_b_decoded_by, "contact_b_decoded_by")?,
        ],
        x_seen_by: smalls(&s.x_seen_by, "x_seen_by")?,
        imperator: Imperator {
            score: small(imperator.score, "imperator.score")?,
            card: opt(imperator.card, "imperator.card")?,
            discard: smalls(&imperator.discard, "imperator.discard")?,
        },
        discard_up: smalls(&s.discard_up, "discard_up")?,
        supply: experts_back(s.supply.as_ref(), "supply")?,
        landing: s
            .landing
            .as_ref()
            .map(|x| {
                Ok::<_, WireError>(Landing {
                    planet: small(x.planet, "landing.planet")?,
                    invited: smalls(&x.invited, "landing.invited")?,
                    accepted: smalls(&x.accepted, "landing.accepted")?,
                })
            })
            .transpose()?,
        mission: s
            .mission
            .as_ref()
            .map(|m| {
                Ok::<_, WireError>(Mission {
                    planet: small(m.planet, "mission.planet")?,
                    card: small(m.card, "mission.card")?,
                    participants: smalls(&m.participants, "mission.participants")?,
                    imperator: opt(m.imperator, "mission.imperator")?,
                    domains: m.domains.iter().map(|&d| domain_back(d, "mission.domains")).collect::<Result<_, _>>()?,
                    shortfall: small(m.shortfall, "mission.shortfall")?,
                    success: m.success,
                    gained: m.gained.clone(),
                })
            })
            .transpose()?,
        end: s.end_cause.clone(),
        outcome: s.outcome.as_ref().map(outcome_back).transpose()?,
    };
    let counts = counts_back(s.counts.as_ref())?;
    let mut view = View { viewer, config, public, counts, mine, decision: None };
    in_range(&view)?;
    if let (Viewer::Seat(me), Some(_)) = (viewer, &view.mine)
        && view.public.pending.seat() == Some(me)
    {
        view.decision = Some(Game::from_view(&view, 0).decision());
    }
    Ok(view)
}

/// Checks that every seat, sector, planet token and card of a view read
/// back lies within the game and its content, so that the engine (which
/// indexes with them) never panics on a state from outside.
fn in_range(v: &View) -> Result<(), WireError> {
    let c = legio_engine::content::Content::get();
    let n = usize::from(v.config.players);
    let p = &v.public;
    let check = |ok: bool, field: &'static str| if ok { Ok(()) } else { Err(WireError::OutOfRange(field)) };
    let all =
        |items: &[u8], below: usize, field: &'static str| check(items.iter().all(|&i| usize::from(i) < below), field);
    let (explo, extra, objs, imp) = (c.exploration.len(), c.extrasolar.len(), c.objectives.len(), c.imperator.len());
    check(v.config.validate().is_ok(), "config.players")?;
    check(p.ships.len() == n, "ships")?;
    let k = &v.counts;
    for (list, field) in [
        (&k.discarded, "counts.discarded"),
        (&k.hands, "counts.hands"),
        (&k.objectives, "counts.objectives"),
        (&k.offers, "counts.offers"),
    ] {
        check(list.len() == n, field)?;
    }
    for (i, ship) in p.ships.iter().enumerate() {
        check(usize::from(ship.seat) == i, "ship.seat")?;
        check(ship.sector <= legio_engine::content::SECTOR_X, "ship.sector")?;
        check(ship.profile <= 3, "ship.profile")?;
        all(&ship.trophies, extra, "ship.trophies")?;
        all(&ship.x_cards, extra, "ship.x_cards")?;
        all(&ship.revealed, objs, "ship.revealed_objectives")?;
    }
    all(&[p.first, p.active], n, "first")?;
    for a in p.planets.iter().flatten() {
        check(a.sector < legio_engine::content::SECTOR_X, "planet.sector")?;
        all(&[a.card], extra, "planet.card")?;
        all(&[a.discoverer], n, "planet.discoverer")?;
    }
    all(&p.contact_a1.into_iter().collect::<Vec<_>>(), extra, "contact_a1")?;
    all(&p.contact_seen[0], n, "contact_a2_decoded_by")?;
    all(&p.contact_seen[1], n, "contact_b_decoded_by")?;
    all(&p.x_seen_by, n, "x_seen_by")?;
    all(
        &p.imperator.card.into_iter().chain(p.imperator.discard.iter().copied()).collect::<Vec<_>>(),
        imp,
        "imperator",
    )?;
    all(&p.discard_up, explo, "discard_up")?;
    if let Some(x) = &p.landing {
        check(usize::from(x.planet) < PLANETS.len(), "landing.planet")?;
        all(&x.invited, n, "landing.invited")?;
        all(&x.accepted, n, "landing.accepted")?;
    }
    if let Some(m) = &p.mission {
        check(usize::from(m.planet) < PLANETS.len(), "mission.planet")?;
        all(&[m.card], extra, "mission.card")?;
        all(&m.participants, n, "mission.participants")?;
        all(&m.imperator.into_iter().collect::<Vec<_>>(), imp, "mission.imperator")?;
        check(m.domains.len() == m.participants.len(), "mission.domains")?;
        check(m.gained.len() == m.participants.len(), "mission.gained")?;
    }
    all(&p.pending.seat().into_iter().collect::<Vec<_>>(), n, "step.seat")?;
    match p.pending {
        Pending::Pay { purpose: Purpose::Risk(card), .. } | Pending::Combat { card, .. } => {
            all(&[card], explo, "step.card")?
        }
        Pending::Pay { purpose: Purpose::Move(to), .. } => {
            check(to < legio_engine::content::SECTOR_X, "purpose.sector")?
        }
        Pending::Pay { purpose: Purpose::Decode(slot), .. } => check(slot < 2, "purpose.slot")?,
        Pending::Contact { planet, .. } => check(usize::from(planet) < PLANETS.len(), "step.planet")?,
        _ => {}
    }
    for t in &p.tasks {
        all(&task_seat(t).into_iter().collect::<Vec<_>>(), n, "task.seat")?;
    }
    if let Some(mine) = &v.mine {
        check(matches!(v.viewer, Viewer::Seat(s) if usize::from(s) < n), "viewer_seat")?;
        all(&mine.hand, explo, "secrets.hand")?;
        all(&mine.discarded, explo, "secrets.discarded")?;
        all(&mine.objectives, objs, "secrets.objectives")?;
        all(&mine.offer, objs, "secrets.offer")?;
        all(&mine.contacts.iter().flatten().copied().collect::<Vec<_>>(), extra, "secrets.contacts")?;
        all(mine.pile_x.as_deref().unwrap_or_default(), extra, "secrets.pile_x")?;
    }
    Ok(())
}

/// The seat a task concerns, if any.
fn task_seat(t: &Task) -> Option<Seat> {
    match *t {
        Task::Confirm | Task::Experience | Task::Award | Task::Leave => None,
        Task::Profile(s)
        | Task::StartingExpert(s)
        | Task::Objective(s)
        | Task::StartTurn(s)
        | Task::Draw(s)
        | Task::Answer(s)
        | Task::Domain(s)
        | Task::Spend(s)
        | Task::Star(s)
        | Task::Dismiss(s)
        | Task::Tech(s)
        | Task::Promote(s)
        | Task::PromotionProfile(s)
        | Task::PromotionExpert(s) => Some(s),
    }
}
