//! Rules tests (filled in below).
