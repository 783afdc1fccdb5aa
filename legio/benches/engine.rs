//! Engine benchmark (placeholder, filled in below).
fn main() {}
