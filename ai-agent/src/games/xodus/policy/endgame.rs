//! The final seal (rulebook p. 12). Exploring the Main Rift with the last
//! Keys sends every free Avatar to the Rift at once, and one roll of the
//! Avatar die each decides whether the Rift is sealed at the end of the
//! Action phase. The look-ahead's four samples of that roll are too few to
//! stake a game on, so an option that seals is scored again over many
//! samples of the rush.

use super::heuristic::{complete_move, prior};
use crate::games::xodus::eval::evaluate_game;
use crate::rng::mix;
use xodus_engine::{Choice, ChoiceOption, Game, Seat, View};

/// Samples of the rush an option that seals the Rift is scored over.
pub const SEAL_SAMPLES: u64 = 32;

/// Whether taking `option` on `game` puts the last Keys on the Main Rift
/// (and so triggers the Avatars' rush).
pub fn seals_the_rift(game: &Game, seat: Seat, option: &ChoiceOption) -> bool {
    if !matches!(option.choice, Choice::Explore) || game.public().corruption.rift_rush {
        return false;
    }
    let mut g = game.clone();
    g.apply(seat, &option.id).is_ok() && g.public().corruption.rift_rush
}

/// Replaces the score of every option that seals the Rift by its mean over
/// [`SEAL_SAMPLES`] determinizations of `view` (seeded from `seed`), so the
/// choice to seal now or wait rests on the odds of the rush, not on four
/// rolls. Returns how many options were rescored.
pub fn rescore_seals(view: &View, seat: Seat, options: &[&ChoiceOption], scores: &mut [f64], seed: u64) -> usize {
    if !options.iter().any(|o| matches!(o.choice, Choice::Explore)) {
        return 0;
    }
    let probe = Game::from_view(view, mix(&[seed, 0x5ea1]));
    let mut rescored = 0;
    for (o, score) in options.iter().zip(scores.iter_mut()) {
        if !seals_the_rift(&probe, seat, o) {
            continue;
        }
        let mut total = 0.0;
        let mut n = 0u32;
        for k in 0..SEAL_SAMPLES {
            let game = Game::from_view(view, mix(&[seed, 0x5ea1, k]));
            let mut g = game.clone();
            if g.apply(seat, &o.id).is_ok() {
                complete_move(&mut g);
                total += evaluate_game(&g) + prior(&game, o);
                n += 1;
            }
        }
        if n > 0 {
            *score = total / f64::from(n);
            rescored += 1;
        }
    }
    rescored
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::xodus::policy::options_for;
    use xodus_engine::content::{Content, SystemKind};
    use xodus_engine::{Avatar, AvatarPlace, Difficulty, GameConfig, Hex, Viewer};

    /// Captain 0's turn, standing on the Main Rift (laid on the Starting
    /// System) with the last Key, the other three already on the Rift;
    /// an Avatar `avatar_at` jumps away, if any.
    fn last_key_at_the_rift(avatar_at: Option<Hex>) -> View {
        let mut g = Game::new(GameConfig::random(31, 4, Difficulty::Casual)).expect("game");
        let d = g.decision();
        let start = d.options.iter().find(|o| o.id == "start:0").expect("captain 0 may start").clone();
        g.apply(0, &start.id).expect("start");
        let mut view = g.view(Viewer::Seat(0));
        let pb = &mut view.public;
        let rift = pb.tiles.iter_mut().find(|t| t.hex == Hex::ORIGIN).expect("starting system");
        rift.tile = Content::get().main_rift();
        rift.lanes = 0b11_1111;
        rift.keys_activated = vec![1, 2, 3];
        for s in &mut pb.signals {
            s.solved = true;
        }
        pb.ships[0].keys = vec![4];
        pb.avatars.retain(|a| !matches!(a.place, AvatarPlace::Board { .. }));
        if let Some(hex) = avatar_at {
            // Lay an Allied system there, open on every side, so the
            // Avatar can walk in.
            let c = Content::get();
            let on_board: Vec<u8> = pb.tiles.iter().map(|t| t.tile).collect();
            let allied = (0..c.tiles.len() as u8)
                .find(|&i| c.tiles[usize::from(i)].kind == SystemKind::Allied && !on_board.contains(&i))
                .expect("an Allied tile off the board");
            let mut tile = pb.tiles[0].clone();
            tile.hex = hex;
            tile.tile = allied;
            tile.lanes = 0b11_1111;
            tile.keys_activated.clear();
            pb.tiles.push(tile);
            pb.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex }, damage: 0 });
        }
        // The pending decision is worked out afresh from the edited state.
        Game::from_view(&view, 1).view(Viewer::Seat(0))
    }

    fn explore_score(view: &View) -> (f64, usize) {
        let opts = options_for(view, 0);
        let explore: Vec<&ChoiceOption> = opts.into_iter().filter(|o| o.id == "explore").collect();
        assert_eq!(explore.len(), 1, "exploring the Rift is offered");
        let mut scores = vec![0.0];
        let n = rescore_seals(view, 0, &explore, &mut scores, 7);
        (scores[0], n)
    }

    #[test]
    fn sealing_with_no_avatar_in_reach_is_scored_as_the_win_it_is() {
        // p. 12: the Rift is sealed at the end of the Action phase when no
        // Avatar stands in it after their rush.
        let (score, rescored) = explore_score(&last_key_at_the_rift(None));
        assert_eq!(rescored, 1, "the last Key's Explore seals the Rift");
        assert!(score > crate::games::xodus::eval::WIN / 2.0, "score {score}");
    }

    #[test]
    fn sealing_beside_an_avatar_is_scored_by_the_odds_of_its_rush() {
        // p. 12 with p. 17: one system away, the Avatar die reaches the
        // Rift on five faces of six, and an Avatar that arrives holds it.
        let (score, rescored) = explore_score(&last_key_at_the_rift(Some(Hex { q: 1, r: 0 })));
        assert_eq!(rescored, 1);
        assert!(score < 0.0, "five chances in six to lose the game score {score}");
        assert!(score > -crate::games::xodus::eval::WIN, "the one chance in six still counts: {score}");
    }
}
