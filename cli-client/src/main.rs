//! `xodus`: the terminal client for X-ODUS (commands being built; see issue 8).
fn main() {
    println!("xodus: not built yet");
}
