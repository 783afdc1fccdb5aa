//! The board and what is found on it: system tiles, Precursor Signals and
//! Exploration cards.

use xodus_engine::content::{
    Challenge, ExplorationDef, ExplorationOption, ExplorationType, ShipClass, SignalDef, SignalTier, SystemKind,
    TileDef,
};
use xodus_engine::text::effects::effects;
use xodus_engine::text::words::{count, list, paragraph};

/// The sides of a hexagon in the order of `TileDef::lanes`.
const SIDES: [&str; 6] = ["east", "north-east", "north-west", "west", "south-west", "south-east"];

/// A revealed system.
pub fn tile(t: &TileDef) -> String {
    let mut s = vec![kind(t)];
    let open: Vec<&str> = SIDES.iter().zip(t.lanes.chars()).filter(|(_, c)| *c == '1').map(|(s, _)| *s).collect();
    s.push(format!(
        "it has {}, to the {} before the tile is rotated",
        count(open.len() as u8, "hyperspace lane", "hyperspace lanes"),
        list(&open)
    ));
    if t.wormhole {
        s.push("a wormhole is open here".into());
    }
    if t.exploration {
        s.push("an Exploration marker is placed here when the system is revealed".into());
    }
    if let Some(key) = t.signal {
        s.push(format!("the Precursor Signal of Key {key} is found here"));
    }
    if t.ally {
        s.push("an Ally trades here".into());
    }
    if t.patrol > 0 {
        s.push(format!("a ship detected here meets a patrol of {}", count(t.patrol, "Enemy card", "Enemy cards")));
    }
    if t.surveillance {
        s.push("it is under surveillance: a ship that enters is always detected".into());
    }
    if t.stronger {
        s.push("its Enemies are drawn from the reserve instead of the deck".into());
    }
    if t.three_player_removed {
        s.push("this tile is left out of games with three ships".into());
    }
    paragraph(&s)
}

/// What kind of system the tile is.
fn kind(t: &TileDef) -> String {
    match t.kind {
        SystemKind::Allied => "an Allied system (blue): a safe place with no Detection Rolls".into(),
        SystemKind::Enemy => "an Enemy system (orange): a ship that enters makes a Detection Roll".into(),
        SystemKind::Corrupt => "a Corrupt system (red) holding a secondary rift; it cannot be explored".into(),
        SystemKind::MainRift => "the Main Rift, where the Precursor Keys are activated".into(),
    }
}

/// A Precursor Signal card.
pub fn signal(s: &SignalDef) -> String {
    let tier = match s.tier {
        SignalTier::Hazardous => "a Hazardous Precursor Signal (blue card)",
        SignalTier::Perilous => "a Perilous Precursor Signal (yellow card)",
        SignalTier::Lethal => "a Lethal Precursor Signal (red card)",
    };
    let mut out = vec![tier.to_string()];
    if !s.on_reveal.is_empty() {
        out.push(format!("when it is revealed, {}", effects(&s.on_reveal)));
    }
    out.push(challenge(&s.challenge));
    out.push("each instruction costs one Action".into());
    paragraph(&out)
}

/// How the Signal's Key is reached.
fn challenge(c: &Challenge) -> String {
    match c {
        Challenge::Repairs { amount } => format!(
            "Repairs: the card starts with {}; on each Repair instruction every ship of the group may pay \
             1 scrap to take one off, and the Key opens when none are left",
            count(*amount, "damage marker", "damage markers")
        ),
        Challenge::Tribute { amount } => format!(
            "Tribute: {} are owed; on each Offer instruction every ship of the group pays what it can, \
             and the Key opens once the whole tribute is paid",
            count(*amount, "scrap", "scraps")
        ),
        Challenge::Trial { amount, on_fail } => {
            let fail = if on_fail.is_empty() {
                String::new()
            } else {
                format!("; after a failed attempt, {}", effects(on_fail))
            };
            format!(
                "Trial: on each Attempt instruction the group makes a Skill Roll, and {} open the Key{fail}",
                count(*amount, "special", "specials")
            )
        }
        Challenge::Guardian { amount } => format!(
            "Guardian: an Assault instruction engages a guardian of level {amount} or higher, drawn from the \
             Enemy reserve (or the deck once the reserve is empty), and defeating it opens the Key"
        ),
    }
}

/// An Exploration card.
pub fn exploration(e: &ExplorationDef) -> String {
    let mut out = vec![match e.kind {
        ExplorationType::Analysis => "an Analysis card: the first option comes with the Explore action, each \
                                      further option costs one more Action, and no option may be taken twice"
            .to_string(),
        ExplorationType::Warning => "a Warning card: the group picks exactly one option".to_string(),
        ExplorationType::Danger => format!(
            "a Danger card: the group makes one Skill Roll together and needs {}; on a failure, {}",
            count(e.skill.unwrap_or(0), "special", "specials"),
            effects(&e.penalty)
        ),
    }];
    out.extend(e.options.iter().enumerate().map(|(i, o)| option(i + 1, o)));
    paragraph(&out)
}

/// One option of an Exploration card.
fn option(n: usize, o: &ExplorationOption) -> String {
    let mut head = format!("option {n}");
    if let Some(c) = o.class {
        head += &format!(", open only to a group with a {} ship", class(c));
    }
    match o.skill {
        Some(k) => {
            let fail = if o.penalty.is_empty() { "nothing happens".into() } else { effects(&o.penalty) };
            format!(
                "{head}, with a Skill Roll needing {}: on a success, {}; on a failure, {fail}",
                count(k, "special", "specials"),
                effects(&o.effects)
            )
        }
        None => format!("{head}: {}", effects(&o.effects)),
    }
}

/// A ship class by name.
pub(super) fn class(c: ShipClass) -> &'static str {
    match c {
        ShipClass::Warrior => "Warrior",
        ShipClass::Scholar => "Scholar",
        ShipClass::Rogue => "Rogue",
    }
}
