//! What a VII Legio commander says at the table, about landings only: why
//! it declines an invitation (from the face-up boards: the squads and the
//! experience the planet's card asks against what the crew would bring),
//! and, accepting an invitation or inviting a commander, what it brings.
//! Nothing it says comes from its hand or its objectives: only public
//! tracks and face-up cards.

use crate::players::Remark;
use legio_engine::content::{Content, Domain};
use legio_engine::{Seat, View};
use tabletop::legio_pb::{LegioSignal, LegioSignalKind};

/// The remark after `seat` picked `picked` on `view`, if it has one.
pub fn remark(view: &View, seat: Seat, picked: &str) -> Option<Remark> {
    let pb = &view.public;
    let landing = pb.landing.as_ref()?;
    let planet = pb.planets.get(usize::from(landing.planet)).copied().flatten()?;
    let card = Content::get().extrasolar.get(usize::from(planet.card))?;
    let ship = |s: Seat| pb.ships.iter().find(|x| x.seat == s);
    let sector = Some(u32::from(planet.sector));
    if picked == "decline" {
        // The crew if it joined: the active commander, those who accepted,
        // and this one.
        let mut crew: Vec<Seat> = vec![pb.active];
        crew.extend(landing.accepted.iter().copied());
        crew.push(seat);
        let squads: u32 = crew.iter().filter_map(|&s| ship(s)).map(|s| u32::from(s.tracks.squads)).sum();
        let best = |d: Domain| crew.iter().filter_map(|&s| ship(s)).map(|s| u32::from(s.permanent(d))).sum::<u32>();
        let experience = card.domains.iter().map(|&d| best(d)).max().unwrap_or(0);
        let why = if squads < u32::from(card.squads) {
            format!("{} needs {} squads and even with mine we would bring {squads}", card.name, card.squads)
        } else if experience < u32::from(card.experience) {
            format!("{} asks {} experience and together we would have {experience}", card.name, card.experience)
        } else {
            format!("{} is worth less to me than my other plans", card.name)
        };
        let signal = LegioSignal { kind: LegioSignalKind::Declined as i32, sector };
        return Some(Remark {
            text: format!("Declined: {why}."),
            signal: Some(tabletop::any::pack(&signal)),
            intent: false,
            to_seat: Some(u32::from(pb.active)),
        });
    }
    if picked == "accept" {
        let mine = ship(seat)?;
        return Some(Remark {
            text: format!("Accepted: I bring {} squads to {}.", mine.tracks.squads, card.name),
            signal: None,
            intent: false,
            to_seat: Some(u32::from(pb.active)),
        });
    }
    let invited: Seat = picked.strip_prefix("invite:")?.parse().ok()?;
    let mine = ship(seat)?;
    let signal = LegioSignal { kind: LegioSignalKind::IWillInvite as i32, sector };
    Some(Remark {
        text: format!("Join my landing on {}: I bring {} squads.", card.name, mine.tracks.squads),
        signal: Some(tabletop::any::pack(&signal)),
        intent: false,
        to_seat: Some(u32::from(invited)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use legio_engine::{Game, GameConfig, Viewer};

    /// Over random games, every remark at a landing names no card of the
    /// speaker's hand or objectives (by id or by name).
    #[test]
    fn a_remark_names_no_secret_of_the_speaker() {
        let c = Content::get();
        let mut remarks = 0;
        for seed in 0..40u64 {
            let mut g = Game::new(GameConfig::new(3, seed)).expect("game");
            for step in 0..3_000u64 {
                if g.outcome().is_some() {
                    break;
                }
                let d = g.decision();
                let Some(seat) = d.seat else { break };
                let view = g.view(Viewer::Seat(seat));
                let mine: Vec<&legio_engine::ChoiceOption> = d.options.iter().collect();
                if mine.is_empty() {
                    break;
                }
                for o in &mine {
                    let Some(r) = remark(&view, seat, &o.id) else { continue };
                    remarks += 1;
                    let secrets = view.mine.as_ref().expect("a seat's view");
                    for &card in &secrets.hand {
                        let e = &c.exploration[usize::from(card)];
                        assert!(!r.text.contains(&e.name) && !r.text.contains(&e.id), "{}: {}", e.name, r.text);
                    }
                    for &o in &secrets.objectives {
                        let ob = &c.objectives[usize::from(o)];
                        assert!(!r.text.contains(&ob.name) && !r.text.contains(&ob.id), "{}: {}", ob.name, r.text);
                    }
                }
                let pick = &mine[usize::try_from(step.wrapping_mul(2_654_435_761) % mine.len() as u64).unwrap_or(0)];
                g.apply(seat, &pick.id).expect("a legal option");
            }
        }
        assert!(remarks > 0, "some landings were met");
    }
}
