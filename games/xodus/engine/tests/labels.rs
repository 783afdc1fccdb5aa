//! What players read is English, not program output: over random full
//! games at 3 and 4 ships and every difficulty, no prompt or option label
//! shows a Rust debug shape (a new player's trial met "Keep Smuggler Tools
//! (ModuleDiscount { amount: 1 })" at a level-up).

use xodus_engine::{Difficulty, Game, GameConfig};

/// Marks of a value printed with `{:?}`.
const DEBUG_MARKS: &[&str] = &["{", "}", "Some(", "None", "::", "IgnoreMiss"];

#[test]
fn prompts_and_labels_never_show_debug_output() {
    let (mut checked, mut level_ups) = (0usize, 0usize);
    for seed in 0..24u64 {
        let difficulty = Difficulty::ALL[(seed % 3) as usize];
        let mut g = Game::new(GameConfig::random(seed, 3 + (seed % 2) as usize, difficulty)).expect("config");
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..20_000 {
            if g.outcome().is_some() {
                break;
            }
            let d = g.decision();
            for text in std::iter::once(&d.prompt).chain(d.options.iter().map(|o| &o.label)) {
                let mark = DEBUG_MARKS.iter().find(|m| text.contains(**m));
                assert!(mark.is_none(), "seed {seed}: {text:?} shows {mark:?}");
                checked += 1;
                level_ups += usize::from(text.starts_with("Keep "));
            }
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let o = &d.options[(pick % d.options.len() as u64) as usize];
            let (seat, id) = (o.seats[0], o.id.clone());
            g.apply(seat, &id).expect("an offered option");
        }
    }
    assert!(checked > 10_000, "only {checked} texts read");
    assert!(level_ups > 0, "no level-up choice was met");
}
