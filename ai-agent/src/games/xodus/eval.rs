//! A static evaluation of a state from the team's point of view (the game
//! is cooperative, so there is one value for every seat), in one unit: a
//! captain's Action. It estimates the work still between the crew and a
//! sealed Rift (systems to reveal, Signals to explore and solve, scraps to
//! gather, Keys to carry to the Main Rift) and subtracts it from what the
//! crew holds: Actions in hand, the ships' condition, and the Corruption
//! track, where every space lost to Avatars costs about a round of Actions.
//! Used by the heuristic (one-step look-ahead) and to cut MCTS playouts.

use crate::games::xodus::board::{Board, Distances};
use crate::games::xodus::tune;
use xodus_engine::content::{Challenge, Content, Effect, Face, SignalDef, SystemKind};
use xodus_engine::{AvatarPlace, Difficulty, Game, Phase, Public, Ship};

/// Value of a won game; a lost one is its negative plus progress.
pub const WIN: f64 = 1000.0;

/// Actions one space of the Corruption track stands for: about a round of
/// the crew's turns.
const SPACE: f64 = 8.0;
/// Actions a captain loses by hiding from an Avatar (the rest of a turn).
const LOST_TURN: f64 = 3.0;
/// Weight of the Avatars' expected cost in the evaluation.
const AVATAR_WEIGHT: f64 = 0.5;
/// Worth of an Action still in hand: spending it must buy more than this.
const IN_HAND: f64 = 0.5;
/// Cost of one jump of travel (a Rush makes three for two Actions).
const JUMP: f64 = 1.0;
/// Weight of a draw still needed from the System stack: finding the Main
/// Rift is the long pole of every game (it lies in the bottom pile), so a
/// reveal is worth more than the Action it costs.
const REVEAL: f64 = 1.0;
/// A jump a Key carrier still has to make to the Main Rift: more than a
/// plain jump, since a Key on the Rift is safe from wrecks and hunters.
const CARRIER_JUMP: f64 = 1.5;
/// Worth of a Key placed on the Main Rift, beyond the work it saves.
const KEY_SEALED: f64 = 3.0;
/// Extra weight of a Main Rift still in the stack.
const RIFT_UNFOUND: f64 = 6.0;
/// What a strain still owes before its end-of-turn Damage Roll (p. 7):
/// about two thirds of a health point, sometimes a Damaged card.
pub const STRAIN_OWED: f64 = 0.9;
/// Travel assumed towards a system nobody can reach yet.
const FAR: u8 = 5;

/// What the evaluation terms share: the board and each ship's distances.
struct Ctx<'a> {
    board: Board<'a>,
    /// Jump distances from each ship's system (by seat).
    dist: Vec<Distances>,
    /// Index of the Main Rift tile, once revealed.
    rift: Option<usize>,
    /// Jump distances from the Main Rift, once revealed.
    rift_dist: Distances,
    /// What a face-down Signal card is expected to ask for.
    unknown: Unknown,
}

/// The Signal cards a game deals its Signals from: the difficulty's pool
/// (rulebook p. 19), each tier's count spread evenly over the tier's
/// cards. Without a difficulty every card weighs the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignalMix(Option<Difficulty>);

impl SignalMix {
    /// Every card alike (a state whose difficulty is not known).
    pub const ANY: SignalMix = SignalMix(None);

    /// The pool of `difficulty`.
    pub fn of(difficulty: Difficulty) -> SignalMix {
        if tune::weight("pool_mix", 1.0) <= 0.0 {
            return SignalMix::ANY;
        }
        SignalMix(Some(difficulty))
    }

    /// How likely `card` is to be in the pool, relative to the others.
    fn weight(self, card: &SignalDef) -> f64 {
        let Some(d) = self.0 else { return 1.0 };
        let of_tier = Content::get().signals.iter().filter(|s| s.tier == card.tier).count().max(1);
        d.signal_pool(card.tier) as f64 / of_tier as f64
    }
}

/// What turning a Signal's card up costs the crew, in Actions: its reveal
/// effects (p. 12), paid once whoever explores it. A face-down card owes
/// it still; without it in the face-down price, exploring a Signal whose
/// reveal hurts would look like a loss however much the Key is needed
/// (at Heroic every lethal card hurts on reveal, and crews left Signal
/// systems face down for the rest of the game).
fn reveal_price(card: &SignalDef) -> f64 {
    card.on_reveal
        .iter()
        .map(|e| match e {
            Effect::AdvanceCorruption => SPACE,
            Effect::LoseHealth { amount } => f64::from(*amount),
            Effect::Damaged => 1.5,
            Effect::AvatarMovesUp | Effect::CreateRift | Effect::EndTurn => 1.0,
            _ => 0.0,
        })
        .sum()
}

/// What a face-down Signal card is expected to ask for: the mean over the
/// cards nobody has seen yet, weighted by the game's pool. Pricing it
/// below what a revealed card costs on average would make exploring a
/// Signal look like a loss, and the crew would leave Signal systems
/// unexplored for the rest of the game.
#[derive(Clone, Copy)]
struct Unknown {
    /// Actions its challenge takes, and its reveal's price.
    actions: f64,
    /// Scraps it asks for.
    scraps: f64,
    /// Chance it calls a second ship (a guardian, a hard trial).
    second_ship: f64,
}

/// Actions a face-down Signal is priced above its pool's mean: what not
/// knowing the card costs the crew (they cannot plan its scraps, its
/// second ship or its guardian). Without it a crew turns Signals up too
/// late; by self-play, the heuristic crew at Casual wins 56/500 with no
/// premium and 88/500 with this one (rules revision 1).
const UNSEEN_PREMIUM: f64 = 6.0;

/// The Signal cards nobody has seen in this game, by content index.
fn unseen_signals(pb: &Public) -> impl Iterator<Item = (u8, &'static SignalDef)> + '_ {
    let c = Content::get();
    (0..c.signals.len() as u8)
        .filter(|&i| !pb.signals.iter().any(|s| s.card == Some(i)))
        .map(move |i| (i, &c.signals[usize::from(i)]))
}

thread_local! {
    /// [`Unknown::compute`]'s answers by pool and cards seen: the search
    /// evaluates thousands of states a decision that have seen the same
    /// cards.
    static UNKNOWN_BY_SEEN: std::cell::RefCell<Vec<(SignalMix, u128, Unknown)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Entries [`UNKNOWN_BY_SEEN`] keeps.
const UNKNOWN_CACHED: usize = 8;

impl Unknown {
    /// What a face-down card is expected to cost, for the cards `pb` has
    /// seen (from the thread's cache when it has met them lately).
    fn new(pb: &Public, mix: SignalMix) -> Unknown {
        let mut seen = 0u128;
        for card in pb.signals.iter().filter_map(|s| s.card) {
            match 1u128.checked_shl(u32::from(card)) {
                Some(bit) => seen |= bit,
                None => return Unknown::compute(pb, mix),
            }
        }
        UNKNOWN_BY_SEEN.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some(hit) = cache.iter().find(|e| e.0 == mix && e.1 == seen) {
                return hit.2;
            }
            let fresh = Unknown::compute(pb, mix);
            if cache.len() >= UNKNOWN_CACHED {
                cache.pop();
            }
            cache.insert(0, (mix, seen, fresh));
            fresh
        })
    }

    fn compute(pb: &Public, mix: SignalMix) -> Unknown {
        let (mut total, mut actions, mut scraps, mut second) = (0.0, 0.0, 0.0, 0.0);
        for (_, card) in unseen_signals(pb) {
            let w = mix.weight(card);
            let (a, s) = challenge_work(&card.challenge, 0, false);
            total += w;
            actions += w * (a + tune::weight("reveal_price", 1.0) * reveal_price(card));
            scraps += w * s;
            second += if ships_for(&card.challenge) > 1 { w } else { 0.0 };
        }
        if total <= 0.0 {
            return Unknown { actions: 0.0, scraps: 0.0, second_ship: 0.0 };
        }
        let premium = tune::weight("unknown_extra", UNSEEN_PREMIUM);
        Unknown { actions: actions / total + premium, scraps: scraps / total, second_ship: second / total }
    }
}

impl<'a> Ctx<'a> {
    fn new(pb: &'a Public, mix: SignalMix) -> Ctx<'a> {
        let board = Board::new(pb);
        let dist =
            pb.ships.iter().map(|s| if s.defeated { Distances::from([]) } else { board.distances(s.hex) }).collect();
        let rift = (0..board.len()).find(|&i| board.is_main_rift(i));
        let rift_dist = rift.map(|r| board.distances(board.tile(r).hex)).unwrap_or_else(|| Distances::from([]));
        Ctx { board, dist, rift, rift_dist, unknown: Unknown::new(pb, mix) }
    }

    fn dist(&self, seat: u8, tile: usize) -> Option<u8> {
        self.dist.get(usize::from(seat)).and_then(|d| d.get(tile)).copied().flatten()
    }

    /// Travel and the Explore that activates Keys at the Main Rift, from tile `i`.
    fn delivery_from_tile(&self, i: usize) -> f64 {
        match self.rift {
            Some(_) => JUMP * f64::from(self.rift_dist.get(i).copied().flatten().unwrap_or(FAR)) + 1.0,
            None => JUMP * f64::from(FAR) + 1.0,
        }
    }
}

/// The Signal slots still to be found, and the draws from the System
/// stack expected before the Main Rift and every Signal system are out.
fn reveal_work(pb: &Public, cx: &Ctx) -> f64 {
    let remaining: f64 = pb.piles.iter().map(|p| f64::from(p.remaining)).sum();
    let unfound = unfound_signals(pb) as f64;
    let to_rift = if cx.rift.is_some() {
        0.0
    } else {
        pb.piles
            .iter()
            .map(|p| if p.bottom { (f64::from(p.remaining) + 1.0) / 2.0 } else { f64::from(p.remaining) })
            .sum()
    };
    let to_signals = remaining * unfound / (unfound + 1.0);
    // An unfound Rift is a hard requirement, not an average: it must be
    // dug out however deep it lies, so its absence weighs on its own.
    let missing_rift = if cx.rift.is_some() { 0.0 } else { RIFT_UNFOUND };
    to_rift.max(to_signals) + missing_rift
}

/// Signal slots whose system has not been revealed yet.
fn unfound_signals(pb: &Public) -> usize {
    pb.signals
        .iter()
        .filter(|s| !s.solved && s.card.is_none() && !pb.tiles.iter().any(|t| t.key_marker == Some(s.key)))
        .count()
}

/// A guardian still to be assaulted (once it is engaged in a fight the
/// group can win, the fight in progress is projected instead). Priced at
/// the effort and hull a fleet spends on it (4) until 2026-11-24, an
/// assault was worth no more than the fight it starts costs, so fleets
/// assaulted only for the gathering prior and disengaged at once: 100
/// traced Casual games solved 25 of 68 Sentinel Husks, with 0.4 assaults
/// per card revealed. Priced as the bottleneck it is (the crew can wait
/// for no other Key), fights for it are fought: 300 Casual games (seeds
/// 5000) won 23 instead of 12, with 2.93 Keys instead of 2.30; 10 and
/// 25 did worse than 16.
const GUARDIAN: f64 = 16.0;

/// Work every Key still to be accessed adds on top of its challenge: the
/// step from a solved challenge to a Key in hand is worth more than the
/// Actions the challenge still asks for, since the game is lost on the
/// last Key missing, not on Actions (300 Casual games with a guardian at
/// 10: 18 wins and 2.74 Keys with 5, 15 and 2.54 without).
const SOLVE_BONUS: f64 = 5.0;

/// Ship-Actions a Skill Roll asking for `amount` specials is expected to
/// take (a die shows a special about one time in three: two dice alone
/// rarely show two, so the harder trials want a fleet and several tries).
fn trial_actions(amount: u8) -> f64 {
    match amount {
        0 | 1 => 1.5,
        2 => 5.0,
        3 => 12.0,
        _ => 25.0,
    }
}

/// The work a Skill Roll still asking for `need` specials stands for.
fn trial_work(need: u8) -> f64 {
    tune::weight("trial_scale", 1.0) * trial_actions(need)
}

/// Whether a Skill Roll Signal is priced by the specials the crew still
/// has to roll, its skill bonus and Damaged sensors counted (on by
/// default; `skill_edge=0` prices it by the card's number alone).
fn edge_on() -> bool {
    tune::weight("skill_edge", 1.0) > 0.0
}

/// Actions a scrap still owed on a Tribute stands for (the visits to pay it).
const TRIBUTE_VISIT: f64 = 0.25;

fn challenge_work(challenge: &Challenge, progress: u8, guardian_engaged: bool) -> (f64, f64) {
    match challenge {
        Challenge::Repairs { amount } => {
            let left = f64::from(amount.saturating_sub(progress));
            (left, left)
        }
        // Paid in instalments, each a visit: a part payment must show as
        // progress, or scraps would sit in holds while the card waits.
        Challenge::Tribute { amount } => {
            let left = f64::from(amount.saturating_sub(progress));
            (1.0 + tune::weight("tribute_visit", TRIBUTE_VISIT) * left, left)
        }
        Challenge::Trial { amount, .. } => (trial_work(*amount), 0.0),
        Challenge::Guardian { .. } => (if guardian_engaged { 1.0 } else { tune::weight("guardian", GUARDIAN) }, 0.0),
    }
}

/// The work between the crew and a sealed Rift, in Actions; also returns
/// the scraps that work will ask for.
fn signal_work(pb: &Public, cx: &Ctx) -> (f64, f64) {
    let c = Content::get();
    let board = &cx.board;
    let mut work = 0.0;
    let mut scraps = 0.0;
    let activated: Vec<u8> = cx.rift.map(|r| board.tile(r).keys_activated.clone()).unwrap_or_default();
    // A guardian fight only counts as half won while it is worth fighting
    // on: a hopeless one will be left, and the guardian assaulted afresh.
    let winnable = fight_winnable(pb);
    for slot in &pb.signals {
        if activated.contains(&slot.key) || pb.ships.iter().any(|s| s.keys.contains(&slot.key)) {
            continue; // counted with the carriers below
        }
        work += tune::weight("solve_bonus", SOLVE_BONUS);
        let tile = (0..board.len()).find(|&i| board.tile(i).key_marker == Some(slot.key));
        match (slot.card.and_then(|i| c.signals.get(usize::from(i))), tile) {
            (Some(card), Some(_)) => {
                // Only a fight under way counts: a guardian left behind by
                // a retreat must be assaulted again.
                let engaged = winnable
                    && pb.fight.as_ref().is_some_and(|f| {
                        pb.board_enemies.iter().any(|e| e.guards_key == Some(slot.key) && e.hex == f.hex)
                    });
                let (mut a, s) = match &card.challenge {
                    // A skill bonus in the crew counts as specials already
                    // shown; Damaged sensors on every ship as specials owed.
                    Challenge::Trial { amount, .. } if edge_on() => {
                        let need = (i32::from(*amount) - crate::games::xodus::skill::crew_edge(pb)).clamp(0, 8) as u8;
                        (trial_work(need), 0.0)
                    }
                    _ => challenge_work(&card.challenge, slot.progress, engaged),
                };
                if let (Challenge::Trial { amount, on_fail }, Some(i), true) = (&card.challenge, tile, trial_odds_on())
                {
                    a = trial_plan(pb, cx, i, *amount, fail_health(on_fail)).1;
                }
                work += a + tile.map(|i| cx.delivery_from_tile(i)).unwrap_or(0.0);
                scraps += s;
            }
            (None, Some(i)) => {
                work += 1.0 + cx.unknown.actions + cx.delivery_from_tile(i);
                scraps += cx.unknown.scraps;
            }
            _ => {
                work += JUMP * 2.0 + 1.0 + cx.unknown.actions + JUMP * 3.0 + 1.0;
                scraps += cx.unknown.scraps;
            }
        }
    }
    for s in pb.ships.iter().filter(|s| !s.keys.is_empty()) {
        // A live carrier's travel is priced by the assignment; a wreck's
        // Keys must first be fetched and scavenged by someone else.
        let extra = match (s.defeated, cx.rift) {
            (false, Some(_)) => 0.0,
            (false, None) => JUMP * f64::from(FAR),
            (true, _) => JUMP * (f64::from(FAR) + 1.0) + 2.0,
        };
        work += extra + 1.0;
    }
    (work, scraps)
}

/// Worth of a ship's health: the first points keep it alive.
fn health_value(h: f64) -> f64 {
    if h <= 0.0 {
        return -25.0;
    }
    2.5 * h.min(2.0) + 1.0 * (h - 2.0).max(0.0)
}

/// Value of one ship's condition and of the Actions it still holds.
fn ship_value(s: &Ship) -> f64 {
    if s.defeated {
        return -25.0;
    }
    let c = Content::get();
    let in_hand = if s.played {
        0.0
    } else if s.turn_started {
        f64::from(s.actions_left)
    } else {
        f64::from(c.ship(s.kind).actions)
    };
    let owed = if s.strained && !s.played { STRAIN_OWED } else { 0.0 };
    health_value(f64::from(s.health)) - owed + IN_HAND * in_hand + 0.5 * f64::from(s.energy_total)
        - 1.0 * s.damaged.len() as f64
        + 0.6 * s.modules.len() as f64
        + 0.4 * f64::from(s.level)
}

/// Chance that an Avatar `d` moves away reaches its quarry this round.
fn reach_chance(d: i32) -> f64 {
    match d {
        i32::MIN..=0 => 1.0,
        1 => 5.0 / 6.0,
        2 => 0.5,
        3 => 1.0 / 6.0,
        _ => 0.0,
    }
}

/// Expected cost of Avatars: a system whose ships they reach will have to
/// give ground (a space of Corruption, once per system, or a turn lost per
/// ship by hiding) after a Damage Roll each. Each Avatar hunts the nearest ships; an Avatar about to arrive on
/// the mat appears on the Corrupt system nearest a ship.
fn avatar_danger(pb: &Public, cx: &Ctx) -> f64 {
    let board = &cx.board;
    // Systems holding ships an Avatar may hunt, with their crew size.
    let mut targets: Vec<(usize, usize, bool)> = Vec::new();
    let avatar_here = |hex| pb.avatars.iter().any(|a| a.place == AvatarPlace::Board { hex });
    for s in pb.ships.iter().filter(|s| !s.defeated && !s.hidden) {
        let Some(i) = board.index(s.hex) else { continue };
        // A ship already beside an Avatar cannot slip away: it is engaged
        // as its turn starts.
        let still_to_play = pb.phase == Phase::Action && !s.played && !s.engaged && !avatar_here(s.hex);
        match targets.iter_mut().find(|t| t.0 == i) {
            Some(t) => {
                t.1 += 1;
                t.2 &= still_to_play;
            }
            None => targets.push((i, 1, still_to_play)),
        }
    }
    if targets.is_empty() {
        return 0.0;
    }
    let bonus = i32::from(pb.corruption.movement_this_turn) + i32::from(pb.corruption.movement_permanent);
    let mut spared = vec![1.0; targets.len()];
    let hunt = |from: usize, extra: i32, spared: &mut Vec<f64>| {
        let dist = board.avatar_distances(from);
        let d: Vec<i32> =
            targets.iter().map(|t| dist.get(t.0).copied().flatten().map(i32::from).unwrap_or(99)).collect();
        let Some(&best) = d.iter().min() else { return };
        let n = d.iter().filter(|&&x| x == best).count() as f64;
        for (k, &dk) in d.iter().enumerate() {
            if dk == best {
                let p = if dk == 0 { 1.0 } else { reach_chance(dk - bonus - extra) };
                spared[k] *= 1.0 - p / n;
            }
        }
    };
    for a in &pb.avatars {
        let AvatarPlace::Board { hex } = a.place else { continue };
        if let Some(i) = board.index(hex) {
            hunt(i, 0, &mut spared);
        }
    }
    let next = pb.corruption.position.saturating_add(1);
    let arriving = pb.corruption.face_down.contains(&next)
        || pb.avatars.iter().any(|a| a.place == AvatarPlace::Mat { space: next });
    if arriving && pb.phase == Phase::Action {
        // It lands on the rift nearest a ship, then rolls its move.
        let rifts: Vec<usize> = (0..board.len()).filter(|&j| board.is_rift(j)).collect();
        let mut best: Option<(u8, usize)> = None;
        for &r in &rifts {
            let from_rift = board.distances(board.tile(r).hex);
            for t in &targets {
                let d = from_rift.get(t.0).copied().flatten().unwrap_or(99);
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, r));
                }
            }
        }
        if let Some((_, r)) = best {
            hunt(r, 0, &mut spared);
        }
    }
    let mut cost = 0.0;
    for (t, keep) in targets.iter().zip(&spared) {
        let p = 1.0 - keep;
        // Ships still to play this round can yet move away.
        let weight = if t.2 { tune::weight("to_play", 0.5) } else { 1.0 };
        // Met by an Avatar, the ships there flee (a space of Corruption)
        // or hide, each losing a turn (FAQ): whichever is cheaper.
        let n = t.1 as f64;
        cost +=
            weight * p * (SPACE.min(tune::weight("lost_turn", LOST_TURN) * n) + tune::weight("engage_roll", 1.0) * n);
    }
    cost
}

/// Exposure: ships sitting in a non-pacified Enemy system (detection at
/// the start of their next turn) or beside Enemy cards, worse when weak.
fn exposure_value(pb: &Public, cx: &Ctx) -> f64 {
    let board = &cx.board;
    let mut v = 0.0;
    for s in pb.ships.iter().filter(|s| !s.defeated) {
        let weak = 1.0 + f64::from(3u8.saturating_sub(s.health));
        let hostile = board.kind(s.hex) == Some(SystemKind::Enemy)
            && board.index(s.hex).is_some_and(|i| board.tile(i).pacified.is_none());
        if hostile && !s.hidden {
            v -= 0.6 * weak;
        }
        let foes = pb.board_enemies.iter().filter(|e| e.hex == s.hex).count() as f64;
        v -= 0.4 * foes * weak;
    }
    v
}

/// Expected hits and misses of one ship's Offense roll.
fn offense_odds(kind: xodus_engine::ShipKind) -> (f64, f64) {
    let c = Content::get();
    let mut hits = 0.0;
    let mut misses = 0.0;
    for color in c.ship(kind).dice {
        let faces = c.die(color);
        hits += faces.iter().filter(|f| **f == Face::Hit).count() as f64 / 6.0;
        misses += faces.iter().filter(|f| **f == Face::Miss).count() as f64 / 6.0;
    }
    (hits, misses)
}

/// Most tries a Skill Roll plan counts on (a card the crew's dice can
/// hardly pass is not worth more than this).
const TRIAL_TRIES_CAP: f64 = 30.0;

/// The cheapest group for a Skill Roll Signal on tile `tile`: for `k` =
/// 1, 2, ... the `k` free ships nearest to it, priced by their travel plus
/// the ship-Actions of the tries their dice need (a fleet's try costs
/// each member an Action) and the health failed tries cost. Returns the
/// group size and the tries' price (travel is counted by the assignment).
fn trial_plan(pb: &Public, cx: &Ctx, tile: usize, amount: u8, fail_health: f64) -> (usize, f64) {
    let mut near: Vec<(u8, xodus_engine::ShipKind)> = pb
        .ships
        .iter()
        .filter(|s| !s.defeated && s.keys.is_empty())
        .filter_map(|s| Some((cx.dist(s.seat, tile)?, s.kind)))
        .collect();
    near.sort_by_key(|n| n.0);
    let mut best: Option<(f64, usize, f64)> = None;
    for k in 1..=near.len().min(4) {
        let kinds: Vec<xodus_engine::ShipKind> = near[..k].iter().map(|n| n.1).collect();
        let p = crate::games::xodus::skill::kinds_odds(&kinds, amount);
        let tries = if p > 0.0 { (1.0 / p).min(TRIAL_TRIES_CAP) } else { TRIAL_TRIES_CAP };
        let price = k as f64 * tries + (tries - 1.0) * k as f64 * fail_health;
        let travel: f64 = near[..k].iter().map(|n| JUMP * f64::from(n.0)).sum();
        if best.is_none_or(|b| travel + price < b.0) {
            best = Some((travel + price, k, price));
        }
    }
    best.map(|b| (b.1, b.2)).unwrap_or((1, trial_actions(amount)))
}

/// Whether Skill Roll Signals are priced by the odds of the group that can
/// gather (experiment, off by default: `XODUS_AI_TUNE=trial_odds=1`).
fn trial_odds_on() -> bool {
    tune::weight("trial_odds", 0.0) > 0.0
}

/// Health a failed try costs each ship of the group (other effects count
/// half a point).
fn fail_health(on_fail: &[xodus_engine::content::Effect]) -> f64 {
    on_fail
        .iter()
        .map(|e| match e {
            xodus_engine::content::Effect::LoseHealth { amount } => f64::from(*amount),
            _ => 0.5,
        })
        .sum()
}

/// Attacks a group rolling `hits` a try needs to wear down a foe of
/// `health` already dealt `damage`, through its `shields` (p. 16: hits
/// beyond the shields come off its health; a group that barely gets
/// through still counts as one that sometimes does).
fn attacks_to_wear_down(health: u8, damage: u8, shields: u8, hits: f64) -> f64 {
    f64::from(health.saturating_sub(damage)) / (hits - f64::from(shields)).max(0.15)
}

/// The fight in progress, projected to its end: how many attacks the
/// group needs to clear the system at its expected hit rate, and what
/// the misses cost each ship meanwhile (the first value), against what
/// giving ground now costs, less the margin for staying (the second).
fn fight_outlook(pb: &Public) -> Option<(f64, f64)> {
    let f = pb.fight.as_ref()?;
    let c = Content::get();
    let members: Vec<&Ship> =
        f.seats.iter().filter_map(|&s| pb.ships.get(usize::from(s))).filter(|s| !s.defeated).collect();
    if members.is_empty() {
        return None;
    }
    let hits: f64 = members.iter().map(|s| offense_odds(s.kind).0).sum();
    let mut attacks = 0.0;
    // A fight with the Avatars only leaves the Enemy card there out.
    let enemies_here = pb.board_enemies.iter().filter(|e| e.hex == f.hex && !f.avatars_only);
    for e in enemies_here.clone() {
        if let Some(d) = c.enemies.get(usize::from(e.card)) {
            attacks += attacks_to_wear_down(d.health, e.damage, d.shields, hits);
        }
    }
    for a in &pb.avatars {
        if a.place == (AvatarPlace::Board { hex: f.hex })
            && let Some(d) = c.avatars.get(usize::from(a.card))
        {
            attacks += attacks_to_wear_down(d.health, a.damage, d.shields, hits);
        }
    }
    let attacks = attacks.min(30.0);
    let avatars_here = pb.avatars.iter().filter(|a| a.place == (AvatarPlace::Board { hex: f.hex })).count();
    let foes = enemies_here.count() + avatars_here;
    let mut fight_on = 0.0;
    let mut give_ground = 0.0;
    for s in &members {
        let h = f64::from(s.health);
        let loss = attacks * offense_odds(s.kind).1;
        fight_on += health_value(h - loss) - health_value(h);
        // Disengaging costs a Damage Roll per foe (p. 16).
        give_ground += health_value(h - DAMAGE_ROLL * foes as f64) - health_value(h);
    }
    if avatars_here > 0 {
        // Giving ground to an Avatar: a space of Corruption, or a turn
        // lost per ship by hiding (FAQ), whichever is cheaper.
        give_ground -= SPACE.min(LOST_TURN * members.len() as f64);
    }
    Some((fight_on, give_ground - tune::weight("staying", STAYING)))
}

/// The fight in progress: fought on if that costs less than giving
/// ground. The group can always disengage, so a lost fight is worth no
/// less than that, or the crew would shun every system an Enemy might
/// hold; staying is worth a little less than leaving now, so a hopeless
/// fight is left rather than fought to the last hull point.
fn fight_value(pb: &Public) -> f64 {
    fight_outlook(pb).map(|(on, floor)| on.max(floor)).unwrap_or(0.0)
}

/// Whether the fight in progress is worth fighting on (see [`fight_value`]).
fn fight_winnable(pb: &Public) -> bool {
    fight_outlook(pb).is_some_and(|(on, floor)| on >= floor)
}

/// Whether a fight is in progress and not worth fighting on: the group
/// is expected to lose more hull wearing its foes down than giving
/// ground now costs.
pub fn fight_hopeless(pb: &Public) -> bool {
    fight_outlook(pb).is_some_and(|(on, floor)| on < floor)
}

/// How much worse than disengaging now a hopeless fight is kept.
const STAYING: f64 = 2.0;

/// Health a Damage Roll costs on average (two dice, a miss costs one).
const DAMAGE_ROLL: f64 = 0.7;

/// A place that calls for ships: its tile, how many, and the scraps each
/// should bring.
struct Task {
    tile: usize,
    ships: usize,
    /// Chance that one more ship will be called (a face-down card).
    maybe_one_more: f64,
    scraps_each: f64,
}

/// The level of the guardian an Assault would draw now: the reserve's top
/// (its lowest level left), or the Enemy deck's most common level once
/// the reserve is spent.
fn next_guardian_level(pb: &Public) -> u8 {
    let lowest = |levels: &[u8; 4]| levels.iter().position(|&n| n > 0);
    if let Some(i) = lowest(&pb.reserve_levels) {
        return i as u8 + 1;
    }
    let most = (0..4).max_by_key(|&i| (pb.deck_levels[i], std::cmp::Reverse(i))).unwrap_or(0);
    most as u8 + 1
}

/// Ships a Signal's challenge calls for: a guardian or a hard trial wants
/// a fleet, the rest one ship.
fn ships_for(challenge: &Challenge) -> usize {
    match challenge {
        Challenge::Trial { amount, .. } if tune::weight("trial_ships", 0.0) > 0.0 => usize::from((*amount).clamp(1, 4)),
        Challenge::Trial { amount, .. } if *amount >= 3 => 2,
        Challenge::Guardian { .. } => 2,
        _ => 1,
    }
}

/// The places that call for ships, most advanced work first: revealed
/// Signals (trials and guardians want a fleet, long repairs two ships),
/// then Signal systems not yet explored.
fn tasks(pb: &Public, cx: &Ctx) -> Vec<Task> {
    let c = Content::get();
    let board = &cx.board;
    let mut open: Vec<(f64, Task)> = Vec::new();
    let unsolved = pb.signals.iter().filter(|s| !s.solved).count();
    // Ships free to join a fleet: afloat and not carrying Keys to the Rift.
    let crew = pb.ships.iter().filter(|s| !s.defeated && s.keys.is_empty()).count();
    for slot in pb.signals.iter().filter(|s| !s.solved) {
        let Some(i) = (0..board.len()).find(|&i| board.tile(i).key_marker == Some(slot.key)) else { continue };
        match slot.card.and_then(|k| c.signals.get(usize::from(k))) {
            Some(card) => {
                let (work, scraps) = challenge_work(&card.challenge, slot.progress, false);
                let mut ships = match &card.challenge {
                    Challenge::Guardian { .. } if tune::weight("guardian_level", 0.0) > 0.0 => {
                        usize::from(next_guardian_level(pb)).clamp(2, 4)
                    }
                    Challenge::Trial { amount, on_fail } if trial_odds_on() => {
                        trial_plan(pb, cx, i, *amount, fail_health(on_fail)).0
                    }
                    // As many of the nearest free ships as fair odds need.
                    Challenge::Trial { amount, .. } if crate::games::xodus::skill::plan_on() => {
                        let mut near: Vec<(u8, xodus_engine::Seat)> = crate::games::xodus::skill::free_ships(pb)
                            .map(|s| (cx.dist(s, i).unwrap_or(FAR), s))
                            .collect();
                        near.sort_unstable();
                        let seats: Vec<xodus_engine::Seat> = near.iter().map(|n| n.1).collect();
                        crate::games::xodus::skill::ships_called(pb, &seats, *amount)
                    }
                    _ => ships_for(&card.challenge),
                };
                // The last Key, behind a fight or a Skill Roll: the whole
                // free crew goes (experiment, off by default).
                if unsolved == 1 && ships > 1 && tune::weight("last_key_crew", 0.0) > 0.0 {
                    ships = ships.max(crew);
                }
                let each = scraps / ships as f64;
                open.push((work + scraps, Task { tile: i, ships, maybe_one_more: 0.0, scraps_each: each }));
            }
            None => {
                open.push((0.0, Task { tile: i, ships: 1, maybe_one_more: cx.unknown.second_ship, scraps_each: 0.0 }))
            }
        }
    }
    // A wreck carrying Keys: someone must go and scavenge them.
    for s in pb.ships.iter().filter(|s| s.defeated && !s.keys.is_empty()) {
        if let Some(i) = board.index(s.hex) {
            open.push((-1.0, Task { tile: i, ships: 1, maybe_one_more: 0.0, scraps_each: 0.0 }));
        }
    }
    open.sort_by(|a, b| a.0.total_cmp(&b.0));
    open.into_iter().map(|(_, t)| t).collect()
}

/// Travel the crew still has to make, in Actions: Key carriers to the
/// Main Rift, then each task takes the free ships nearest to it (a ship
/// short of the scraps a card asks for counts as farther), and ships left
/// over head for the frontier while systems remain to be found. A task no
/// ship can take costs a long trip.
fn travel_cost(pb: &Public, cx: &Ctx, searching: bool) -> f64 {
    let board = &cx.board;
    let mut free: Vec<&Ship> = pb.ships.iter().filter(|s| !s.defeated).collect();
    let mut cost = 0.0;
    if let Some(r) = cx.rift {
        free.retain(|s| {
            if s.keys.is_empty() {
                return true;
            }
            cost += tune::weight("carrier_jump", CARRIER_JUMP) * f64::from(cx.dist(s.seat, r).unwrap_or(FAR));
            false
        });
    }
    // A ship short of the scraps a card asks for must scavenge them first
    // (or a richer ship comes instead): the shortfall counts as distance.
    let short_price = tune::weight("short_scrap", 0.6);
    for task in tasks(pb, cx) {
        for _ in 0..task.ships {
            let pick = free
                .iter()
                .enumerate()
                .filter_map(|(k, s)| {
                    let d = f64::from(cx.dist(s.seat, task.tile)?);
                    let short = (task.scraps_each.min(4.0) - f64::from(s.scraps)).max(0.0);
                    Some((d + short_price * short, k))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            match pick {
                Some((d, k)) => {
                    cost += JUMP * d;
                    free.remove(k);
                }
                None => cost += JUMP * f64::from(FAR),
            }
        }
        if task.maybe_one_more > 0.0 {
            // The ship that may be called stays free for other work.
            let d = free.iter().filter_map(|s| cx.dist(s.seat, task.tile)).min().unwrap_or(FAR);
            cost += task.maybe_one_more * JUMP * f64::from(d);
        }
    }
    if searching && !board.is_empty() {
        let frontier = board.frontier();
        for s in free {
            let d = frontier.iter().filter_map(|&i| cx.dist(s.seat, i)).min().unwrap_or(0);
            cost += 0.3 * f64::from(d.min(8));
        }
    }
    cost
}

/// How far above a lost game a held Rift stands, in Actions, before the
/// work of retaking it: the crew can still beat what holds it.
const HELD_HOPE: f64 = 150.0;
/// Actions one attack still needed against the Rift's Avatars stands for
/// (each costs the fleet hull and is one more chance for others to come).
const RETAKE_ATTACK: f64 = 3.0;
/// Actions a ship outside the crew's fleet stands for while the Rift is
/// held: only a fleet's pooled dice get through an Avatar's shields.
const RETAKE_GATHER: f64 = 3.0;
/// Most retake work counted, so that a held Rift stays above a lost game.
const RETAKE_CAP: f64 = 120.0;

/// Whether a held Rift is scored by the work of retaking it (on by
/// default; `retake=0` scores every held Rift alike, as before).
fn retake_on() -> bool {
    tune::weight("retake", 1.0) > 0.0
}

/// A Rift an Avatar holds after the rush: worse than any game in
/// progress, better than a lost one by [`HELD_HOPE`] less the work of
/// retaking it ([`retake_work`]), plus the crew's condition and the fight
/// in progress, so that the captains gather, go in together and wear
/// the Avatars down instead of drifting while the Corruption rises.
fn held_rift_value(pb: &Public, cx: &Ctx, rift: usize) -> f64 {
    let ships: f64 = pb.ships.iter().map(ship_value).sum();
    let hope = HELD_HOPE - retake_work(pb, cx, rift).min(RETAKE_CAP) + 0.5 * ships + fight_value(pb);
    -WIN + hope.clamp(20.0, HELD_HOPE + 40.0)
}

/// The work between the crew and a Rift its Avatars hold, in Actions:
/// the attacks the whole crew needs to wear down each Avatar standing
/// there (its health left through its shields), half of those for each
/// Avatar on the board that may reach it by the next rush, each ship's
/// trip to the Rift, and each ship not yet in the crew's largest fleet.
fn retake_work(pb: &Public, cx: &Ctx, rift: usize) -> f64 {
    let c = Content::get();
    let rift_hex = cx.board.tile(rift).hex;
    let crew: Vec<&Ship> = pb.ships.iter().filter(|s| !s.defeated).collect();
    let hits: f64 = crew.iter().map(|s| offense_odds(s.kind).0).sum();
    let mut attacks = 0.0;
    for a in &pb.avatars {
        let AvatarPlace::Board { hex } = a.place else { continue };
        let Some(d) = c.avatars.get(usize::from(a.card)) else { continue };
        let needed = attacks_to_wear_down(d.health, a.damage, d.shields, hits).min(30.0);
        if hex == rift_hex {
            attacks += needed;
        } else if let Some(i) = cx.board.index(hex) {
            let far = cx.board.avatar_distances(i).get(rift).copied().flatten().map(i32::from).unwrap_or(99);
            attacks += 0.5 * reach_chance(far) * needed;
        }
    }
    let travel: f64 = crew.iter().map(|s| JUMP * f64::from(cx.dist(s.seat, rift).unwrap_or(FAR))).sum();
    // Only a fleet pools its dice against the shields (p. 16): each ship
    // outside the largest one has an invitation still to make.
    let largest = crew
        .iter()
        .map(|s| match s.fleet {
            Some(f) => crew.iter().filter(|o| o.fleet == Some(f)).count(),
            None => 1,
        })
        .max()
        .unwrap_or(0);
    let apart = (crew.len() - largest) as f64;
    RETAKE_ATTACK * attacks + travel + RETAKE_GATHER * apart
}

/// Whether an Avatar stands in the Main Rift's system at `hex`.
fn rift_held(pb: &Public, hex: xodus_engine::Hex) -> bool {
    pb.avatars.iter().any(|a| a.place == AvatarPlace::Board { hex })
}

/// Keys sealed or on their way, in `0..=keys`: the progress a lost game
/// still shows.
fn keys_progress(pb: &Public, cx: &Ctx) -> f64 {
    let activated = cx.rift.map(|i| cx.board.tile(i).keys_activated.len()).unwrap_or(0) as f64;
    let carried: usize = pb.ships.iter().map(|s| s.keys.len()).sum();
    activated + 0.5 * carried as f64
}

/// The team's value of a state: large and positive when won, large and
/// negative when lost (less negative with more progress), else the
/// estimate in Actions described at the top of this file.
pub fn evaluate(pb: &Public, mix: SignalMix) -> f64 {
    let mut total = 0.0;
    each_term(pb, mix, |_, v| total += v);
    total
}

/// [`evaluate`] of a game's state, face-down Signals priced by the game's
/// own pool.
pub fn evaluate_game(g: &Game) -> f64 {
    evaluate(g.public(), SignalMix::of(g.config().difficulty))
}

/// The evaluation term by term (their sum is [`evaluate`]): what a trace
/// prints to show why a policy preferred one option to another.
pub fn terms(pb: &Public, mix: SignalMix) -> Vec<(&'static str, f64)> {
    let mut out = Vec::new();
    each_term(pb, mix, |name, v| out.push((name, v)));
    out
}

/// Hands each named term of the evaluation to `f` (no allocation: the
/// evaluation runs for every option of every sample).
fn each_term(pb: &Public, mix: SignalMix, mut f: impl FnMut(&'static str, f64)) {
    let keys = pb.signals.len().max(1) as f64;
    let cx = Ctx::new(pb, mix);
    if let Some(o) = &pb.outcome {
        let prog = keys_progress(pb, &cx);
        f("outcome", if o.won { WIN - f64::from(o.round) } else { -WIN + 10.0 * prog / keys });
        return;
    }
    if pb.corruption.rift_rush {
        // Every Key is on the Rift and the Avatars rush to it (p. 12;
        // they keep heading there every Corruption phase). The Rift is
        // sealed at the end of an Action phase in which no Avatar holds
        // its system; one that does stays there until the crew beats it
        // (p. 16), so a held Rift is far worse than any game in progress
        // but better than a lost one, by how near the crew is to beating
        // what holds it. In the timeline's last round (the next advance of
        // the Corruption loses, p. 17) waiting loses too, so there a held
        // Rift is scored like any other state: any chance of a clear rush
        // is then worth taking.
        let held = cx.rift.is_some_and(|i| rift_held(pb, cx.board.tile(i).hex));
        let last_round = pb.corruption.position >= pb.corruption.rise;
        if !held && pb.phase == Phase::Action {
            f("outcome", WIN - f64::from(pb.round));
            return;
        }
        if !last_round {
            match cx.rift.filter(|_| held && retake_on()) {
                Some(rift) => f("outcome", held_rift_value(pb, &cx, rift)),
                None => f("outcome", -WIN + 10.0 * keys_progress(pb, &cx) / keys),
            }
            return;
        }
    }
    let reveal = reveal_work(pb, &cx);
    let (work, scraps_needed) = signal_work(pb, &cx);
    let scraps: f64 = pb.ships.iter().filter(|s| !s.defeated).map(|s| f64::from(s.scraps)).sum();
    let shortfall = (scraps_needed - scraps).max(0.0);
    let surplus = (scraps - scraps_needed).clamp(0.0, 8.0);
    let ships: f64 = pb.ships.iter().map(ship_value).sum();
    let sealed = cx.rift.map(|i| cx.board.tile(i).keys_activated.len()).unwrap_or(0) as f64;
    f("reveal", -REVEAL * reveal);
    f("signal_work", -work);
    f("scraps", 0.3 * surplus - shortfall);
    f("ships", ships);
    f("sealed", tune::weight("key_sealed", KEY_SEALED) * sealed);
    f("corruption", -SPACE * f64::from(pb.corruption.position));
    f("travel", -travel_cost(pb, &cx, reveal > 0.0));
    f("avatars", -tune::weight("avatar", AVATAR_WEIGHT) * avatar_danger(pb, &cx));
    f("exposure", exposure_value(pb, &cx));
    f("fight", fight_value(pb));
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use xodus_engine::content::SignalTier;
    use xodus_engine::{Avatar, GameConfig};

    /// The evaluation with every Signal card alike (these tests build
    /// their states by hand, with no pool to speak of).
    fn evaluate(pb: &Public) -> f64 {
        super::evaluate(pb, SignalMix::ANY)
    }

    fn start(seed: u64) -> Game {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
        // Let the first captain start its turn.
        let d = g.decision();
        let o = d.options.first().expect("an option").clone();
        g.apply(o.seats[0], &o.id).expect("start");
        g
    }

    /// `pb` with the Main Rift laid at `hex` holding every Key, the rush
    /// of the Avatars already made (rulebook p. 12).
    fn rushed(mut pb: Public, hex: xodus_engine::Hex) -> Public {
        let mut tile = pb.tiles[0].clone();
        tile.hex = hex;
        tile.tile = Content::get().main_rift();
        tile.keys_activated = pb.signals.iter().map(|s| s.key).collect();
        pb.tiles.push(tile);
        for s in &mut pb.signals {
            s.solved = true;
        }
        pb.corruption.rift_rush = true;
        pb
    }

    #[test]
    fn a_rush_the_avatars_miss_is_a_win_and_one_that_holds_the_rift_is_lost() {
        // Rulebook p. 12 (Activating the Keys): with every Key on the Rift
        // the Avatars rush it once, and the Rift is sealed at the end of
        // the Action phase if none of them stands in its system.
        let g = start(21);
        let hex = xodus_engine::Hex { q: 0, r: 2 };
        let clear = rushed(g.public().clone(), hex);
        assert!(clear.avatars.iter().all(|a| a.place != AvatarPlace::Board { hex }));
        assert!(evaluate(&clear) > WIN / 2.0, "a clear Rift scores {}", evaluate(&clear));
        let mut held = clear.clone();
        held.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex }, damage: 0 });
        assert!(evaluate(&held) < -WIN / 2.0, "a held Rift scores {}", evaluate(&held));
        // In the timeline's last round (p. 17) waiting loses as surely, so
        // a held Rift is no worse than any state still in progress.
        held.corruption.position = held.corruption.rise;
        assert!(evaluate(&held).abs() < WIN / 2.0, "a held Rift in the last round scores {}", evaluate(&held));
    }

    #[test]
    fn a_held_rift_is_worth_more_as_the_crew_closes_in_and_wears_its_avatar_down() {
        // Rulebook p. 12: the Rift is sealed at the end of an Action phase
        // in which no Avatar holds it; p. 16: a fleet can beat an Avatar.
        // A held Rift is no lost game: the crew that gathers on it and
        // wears its Avatar down is nearer the win than one that drifts.
        let g = start(22);
        let hex = xodus_engine::Hex { q: 0, r: 2 };
        let mut held = rushed(g.public().clone(), hex);
        held.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex }, damage: 0 });
        let mut lost = held.clone();
        lost.outcome = Some(xodus_engine::Outcome { won: false, cause: "corruption_risen".into(), round: 9 });
        assert!(evaluate(&held) > evaluate(&lost), "held {} against lost {}", evaluate(&held), evaluate(&lost));
        assert!(evaluate(&held) < -WIN / 2.0, "still far from a game in progress: {}", evaluate(&held));
        let mut worn = held.clone();
        worn.avatars.last_mut().expect("the avatar").damage = 4;
        assert!(evaluate(&worn) > evaluate(&held), "worn {} against fresh {}", evaluate(&worn), evaluate(&held));
        // A captain standing on the Rift, the Avatar a few systems away
        // from the others (the start system is two jumps off).
        let mut closer = held.clone();
        closer.ships[0].hex = hex;
        assert!(
            evaluate(&closer) > evaluate(&held),
            "closer {} against farther {}",
            evaluate(&closer),
            evaluate(&held)
        );
        // Two ships in one fleet pool their dice against the shields.
        let mut gathered = held.clone();
        gathered.ships[0].fleet = Some(1);
        gathered.ships[1].fleet = Some(1);
        assert!(
            evaluate(&gathered) > evaluate(&held),
            "a fleet {} against none {}",
            evaluate(&gathered),
            evaluate(&held)
        );
    }

    #[test]
    fn a_probe_takes_one_draw_off_the_work_left() {
        let g = start(11);
        let before = reveal_work(g.public(), &Ctx::new(g.public(), SignalMix::ANY));
        let d = g.decision();
        let probe = d.options.iter().find(|o| o.id.starts_with("probe:")).expect("a probe is offered");
        let mut g2 = g.clone();
        g2.apply(probe.seats[0], &probe.id).expect("probe");
        crate::games::xodus::policy::heuristic::complete_move(&mut g2);
        let after = reveal_work(g2.public(), &Ctx::new(g2.public(), SignalMix::ANY));
        assert!((before - after - 1.0).abs() < 1e-9, "before {before}, after {after}");
    }

    #[test]
    fn an_avatar_beside_the_ships_is_dangerous_and_far_away_is_not() {
        let g = start(12);
        let pb = g.public();
        assert_eq!(avatar_danger(pb, &Ctx::new(pb, SignalMix::ANY)), 0.0, "no Avatar, no danger");
        let mut near = pb.clone();
        let hex = near.ships[0].hex;
        near.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex }, damage: 0 });
        let cost = avatar_danger(&near, &Ctx::new(&near, SignalMix::ANY));
        assert!(cost >= SPACE, "an Avatar sharing the system costs a space at least: {cost}");
        assert!(evaluate(&near) < evaluate(pb));
    }

    #[test]
    fn a_strain_owes_its_damage_roll_and_unspent_actions_count() {
        let g = start(13);
        let pb = g.public();
        let mut strained = pb.clone();
        strained.ships[0].strained = true;
        assert!(ship_value(&strained.ships[0]) < ship_value(&pb.ships[0]));
        let mut spent = pb.clone();
        spent.ships[0].actions_left = spent.ships[0].actions_left.saturating_sub(1);
        assert!(ship_value(&spent.ships[0]) < ship_value(&pb.ships[0]));
    }

    #[test]
    fn scraps_count_while_signals_still_need_them() {
        let g = start(14);
        let pb = g.public();
        let mut richer = pb.clone();
        richer.ships[1].scraps += 3;
        // Four face-down Signals ask for scraps: each one held saves an Action.
        let gain = evaluate(&richer) - evaluate(pb);
        assert!(gain > 2.5, "three scraps are worth about three Actions: {gain}");
    }

    #[test]
    fn a_lost_game_scores_below_any_game_in_progress() {
        let g = start(15);
        let mut lost = g.public().clone();
        lost.outcome = Some(xodus_engine::Outcome { won: false, cause: "corruption_risen".into(), round: 9 });
        assert!(evaluate(&lost) < evaluate(g.public()) - 500.0);
    }

    /// A fight just begun by captain 0 alone in `hex`.
    pub(crate) fn lone_fight(hex: xodus_engine::Hex) -> xodus_engine::Fight {
        xodus_engine::Fight {
            hex,
            seats: vec![0],
            pacify: false,
            defeated: 0,
            decoys: 0,
            decoy_pacifies: false,
            begun: false,
            relayed: Vec::new(),
            avatars_only: false,
        }
    }

    #[test]
    fn a_hopeless_fight_is_worth_giving_ground_not_the_ship() {
        // Rulebook p. 16: a group may always disengage (a Damage Roll per
        // foe; a space of Corruption, or a hidden turn, from an Avatar). A
        // lone ship facing a fresh Avatar is not projected to its wreck.
        let g = start(16);
        let mut pb = g.public().clone();
        let hex = pb.ships[0].hex;
        pb.avatars.push(Avatar { card: 1, place: AvatarPlace::Board { hex }, damage: 0 });
        pb.fight = Some(lone_fight(hex));
        let v = fight_value(&pb);
        let floor = -(LOST_TURN + STAYING) - 2.0 * DAMAGE_ROLL;
        assert!(v >= floor - 1e-9, "{v} below the cost of giving ground ({floor})");
        assert!(v < -LOST_TURN, "staying must cost more than hiding now: {v}");
    }

    /// A public state from `start(seed)` where captain 0 fights, alone,
    /// the guardian of Key 1 in its own system: Enemy card `enemy`, with
    /// `damage` markers on it.
    fn guardian_fight(seed: u64, enemy: u8, damage: u8) -> Public {
        let c = Content::get();
        let g = start(seed);
        let mut pb = g.public().clone();
        let hex = pb.ships[0].hex;
        let card = c
            .signals
            .iter()
            .position(|s| matches!(s.challenge, Challenge::Guardian { .. }))
            .expect("a guardian Signal in the content");
        let slot = pb.signals.iter_mut().find(|s| s.key == 1).expect("Key 1");
        slot.card = Some(card as u8);
        if let Some(t) = pb.tiles.iter_mut().find(|t| t.hex == hex) {
            t.key_marker = Some(1);
        }
        pb.board_enemies.push(xodus_engine::BoardEnemy { card: enemy, hex, damage, guards_key: Some(1) });
        pb.fight = Some(lone_fight(hex));
        pb
    }

    #[test]
    fn a_hopeless_guardian_fight_is_not_half_a_solved_signal() {
        // Rulebook p. 16: a group may always disengage, and a guardian left
        // behind must be assaulted again (p. 12). A fight the group cannot
        // win earns the Signal no progress; before, it did, and a fleet of
        // two attacked a level-4 guardian it could not scratch (two
        // shields) until both ships were wrecks (traced, seed 3008).
        let c = Content::get();
        let strongest =
            (0..c.enemies.len()).max_by_key(|&i| (c.enemies[i].shields, c.enemies[i].health)).expect("enemies") as u8;
        let hopeless = guardian_fight(16, strongest, 0);
        assert!(!fight_winnable(&hopeless), "a lone ship against {:?}", c.enemies[usize::from(strongest)].name);
        let mut not_engaged = hopeless.clone();
        not_engaged.fight = None;
        let cx = Ctx::new(&hopeless, SignalMix::ANY);
        assert_eq!(signal_work(&hopeless, &cx).0, signal_work(&not_engaged, &Ctx::new(&not_engaged, SignalMix::ANY)).0);

        // A guardian one hit from its end is worth fighting, and the fight
        // counts as progress on the Signal.
        let weakest =
            (0..c.enemies.len()).min_by_key(|&i| (c.enemies[i].shields, c.enemies[i].health)).expect("enemies");
        let last_hit = c.enemies[weakest].health.saturating_sub(1);
        let nearly_won = guardian_fight(16, weakest as u8, last_hit);
        assert!(fight_winnable(&nearly_won));
        let mut left = nearly_won.clone();
        left.fight = None;
        assert!(
            signal_work(&nearly_won, &Ctx::new(&nearly_won, SignalMix::ANY)).0
                < signal_work(&left, &Ctx::new(&left, SignalMix::ANY)).0
        );
    }

    #[test]
    fn a_fleet_assaulting_a_guardian_it_can_beat_is_well_ahead_of_leaving_it() {
        // Rulebook p. 3 (a level-N Enemy is a fair fight for N ships) and
        // p. 12 (a Signal's Key opens once its condition is met). Two ships
        // against a fresh level-2 guardian: the fight costs some hull, and
        // wins the Key the crew cannot do without. With the guardian priced
        // at 4 Actions the two states scored within a point of each other,
        // and traced fleets assaulted, then disengaged before the first
        // attack (seed 1027, rounds 2 to 4).
        let c = Content::get();
        let level_two = c.enemies.iter().position(|e| e.level == 2).expect("a level-2 Enemy") as u8;
        let mut engaged = guardian_fight(16, level_two, 0);
        let hex = engaged.ships[0].hex;
        engaged.ships[1].hex = hex;
        if let Some(f) = engaged.fight.as_mut() {
            f.seats = vec![0, 1];
        }
        assert!(fight_winnable(&engaged), "two ships against {}", c.enemies[usize::from(level_two)].name);
        let mut left = engaged.clone();
        left.fight = None;
        let gain = evaluate(&engaged) - evaluate(&left);
        assert!(gain > 5.0, "the assault gains only {gain}");
    }

    #[test]
    fn skill_roll_odds_follow_the_dice_faces() {
        use xodus_engine::ShipKind::*;
        // Red shows a special on 1 face of 6, blue on 2, yellow on 3
        // (content/dice.toml); a Skill Roll counts specials (FAQ).
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(crate::games::xodus::skill::kinds_odds(&[Warship], 2), 1.0 / 18.0), "red and blue");
        assert!(close(crate::games::xodus::skill::kinds_odds(&[Explorer], 2), 1.0 / 6.0), "blue and yellow");
        assert!(close(crate::games::xodus::skill::kinds_odds(&[Warship], 0), 1.0));
        assert!(close(crate::games::xodus::skill::kinds_odds(&[Warship], 3), 0.0), "two dice never show three");
        let crew = crate::games::xodus::skill::kinds_odds(&[Warship, Explorer, PirateShip, ProtoShip], 2);
        assert!(crew > 0.75 && crew < 1.0, "eight dice show two specials most of the time: {crew}");
    }

    #[test]
    fn a_skill_roll_is_planned_for_the_group_whose_dice_pass_it_cheapest() {
        let g = start(3);
        let pb = g.public();
        let cx = Ctx::new(pb, SignalMix::ANY);
        // Every ship starts in the same system: no travel, dice only.
        let here = cx.board.index(pb.ships[0].hex).expect("start tile");
        let (lone, lone_price) = trial_plan(pb, &cx, here, 1, 0.0);
        assert_eq!(lone, 1, "one special: a lone try is cheapest ({lone_price})");
        let (ships, price) = trial_plan(pb, &cx, here, 2, 0.0);
        assert!(ships >= 2, "two specials: a fleet ({ships} ships, {price})");
        assert!(
            price < 1.0 / crate::games::xodus::skill::kinds_odds(&[pb.ships[0].kind], 2),
            "cheaper than the first captain alone"
        );
        let (ships, _) = trial_plan(pb, &cx, here, 3, 1.0);
        assert!(ships >= 2, "three specials: never alone ({ships})");
    }

    #[test]
    fn a_part_payment_of_a_tribute_is_progress() {
        // Rulebook p. 12 (Precursor Signals: not solved in one go): scraps
        // paid stay on the card, so each payment must bring the Key closer
        // in the evaluation.
        let tribute = Challenge::Tribute { amount: 7 };
        let (before, scraps_before) = challenge_work(&tribute, 0, false);
        let (after, scraps_after) = challenge_work(&tribute, 3, false);
        assert!(after < before, "{after} Actions left after paying 3, {before} before");
        assert_eq!(scraps_before - scraps_after, 3.0);
    }

    #[test]
    fn a_face_down_signal_is_priced_at_the_mean_of_the_cards_unseen() {
        // Exploring a Signal must not look like a loss on average: the
        // estimate before the card is seen is the mean after, its reveal
        // effects (p. 12) included.
        let g = start(17);
        let pb = g.public();
        let u = Unknown::new(pb, SignalMix::ANY);
        let unseen: Vec<(f64, f64)> = unseen_signals(pb)
            .map(|(_, card)| {
                let (a, s) = challenge_work(&card.challenge, 0, false);
                (a + reveal_price(card), s)
            })
            .collect();
        let n = unseen.len() as f64;
        let mean_actions: f64 = unseen.iter().map(|w| w.0).sum::<f64>() / n + UNSEEN_PREMIUM;
        let mean_scraps: f64 = unseen.iter().map(|w| w.1).sum::<f64>() / n;
        assert!((u.actions - mean_actions).abs() < 1e-9 && (u.scraps - mean_scraps).abs() < 1e-9);
        assert!(u.second_ship > 0.0 && u.second_ship < 1.0, "guardians and hard trials call a fleet");
    }

    #[test]
    fn a_face_down_signal_is_priced_from_the_difficultys_pool() {
        // Rulebook p. 19: Casual deals its Signals from hazardous and
        // perilous cards, Heroic from lethal and perilous ones. A Heroic
        // face-down card priced like a Casual one made every reveal look
        // like a loss, and crews left Signal systems face down.
        let g = start(17);
        let pb = g.public();
        let casual = Unknown::new(pb, SignalMix::of(Difficulty::Casual));
        let heroic = Unknown::new(pb, SignalMix::of(Difficulty::Heroic));
        let c = Content::get();
        let mean_over = |tiers: &[SignalTier]| {
            let cards: Vec<&SignalDef> = c.signals.iter().filter(|s| tiers.contains(&s.tier)).collect();
            let w = |s: &SignalDef| {
                let d = if tiers.contains(&SignalTier::Lethal) { Difficulty::Heroic } else { Difficulty::Casual };
                d.signal_pool(s.tier) as f64 / c.signals.iter().filter(|x| x.tier == s.tier).count() as f64
            };
            let total: f64 = cards.iter().map(|s| w(s)).sum();
            cards.iter().map(|s| w(s) * (challenge_work(&s.challenge, 0, false).0 + reveal_price(s))).sum::<f64>()
                / total
                + UNSEEN_PREMIUM
        };
        assert!((casual.actions - mean_over(&[SignalTier::Hazardous, SignalTier::Perilous])).abs() < 1e-9);
        assert!((heroic.actions - mean_over(&[SignalTier::Lethal, SignalTier::Perilous])).abs() < 1e-9);
        assert!(
            heroic.actions > casual.actions + 3.0,
            "lethal cards ask more: {} against {}",
            heroic.actions,
            casual.actions
        );
        assert!(heroic.second_ship > casual.second_ship, "and call fleets more often");
    }

    #[test]
    fn a_signal_whose_reveal_advances_the_corruption_owes_a_space_until_it_is_turned_up() {
        // The Avatar's Lair advances the Corruption when revealed (our
        // card, p. 12 "on reveal" effects): that space is owed as long as
        // the card is face down, so turning it up does not look like a
        // loss of a space on top of the work it asks.
        let lair = Content::get().signals.iter().find(|s| s.id == "avatar_lair").expect("the Lair");
        assert_eq!(reveal_price(lair), SPACE);
        let quiet = Content::get().signals.iter().find(|s| s.on_reveal.is_empty()).expect("a quiet card");
        assert_eq!(reveal_price(quiet), 0.0);
    }

    /// The value of `pb` averaged over every card a face-down Signal slot
    /// may hold (each with its reveal paid), against its value with the
    /// card unknown.
    fn reveal_gap(pb: &Public, key: u8) -> f64 {
        let slot = pb.signals.iter().position(|s| s.key == key).expect("slot");
        let unseen: Vec<(u8, &SignalDef)> = unseen_signals(pb).collect();
        let mut mean = 0.0;
        for &(card, def) in &unseen {
            let mut seen = pb.clone();
            seen.signals[slot].card = Some(card);
            mean += (evaluate(&seen) - reveal_price(def)) / unseen.len() as f64;
        }
        mean - evaluate(pb)
    }

    #[test]
    fn a_face_down_signal_is_worth_what_its_card_is_worth_on_average() {
        // Rulebook p. 12 (Precursor Signals): exploring the system turns
        // its card face up. Averaged over the cards the crew cannot see,
        // turning it up must never look like a loss: an estimate lower
        // before the reveal than after it teaches the crew to leave Signals
        // face down (it did, when a face-down card was priced at 5 Actions
        // and one ship while guardians and hard trials call two). It gains
        // the Explore Action and at most the unseen premium on top.
        let g = start(18);
        let mut pb = g.public().clone();
        // Put a Signal system on the board far from the crew: the second
        // ship a guardian calls must come a long way.
        let far = xodus_engine::Hex { q: 0, r: 3 };
        let mut tile = pb.tiles[0].clone();
        tile.hex = far;
        tile.key_marker = Some(pb.signals[0].key);
        tile.keys_activated.clear();
        pb.tiles.push(tile);
        // The face-down price also counts the Explore Action still to be
        // spent (1) and the premium for not knowing the card.
        let gap = reveal_gap(&pb, pb.signals[0].key);
        assert!(gap > 0.5, "turning the card up must pay on average, not {gap:.2}");
        assert!(gap < 1.5 + UNSEEN_PREMIUM, "and by no more than the Action and the premium, not {gap:.2}");
    }
}
