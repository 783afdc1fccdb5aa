//! `xodus-ai`: AI captains for X-ODUS (being built; see issue 7).
fn main() {
    println!("xodus-ai: not built yet");
}
