//! Exponential backoff with a cap, for reconnecting after a server
//! restart or a network cut: 100 ms, 200 ms, 400 ms... up to 5 s, reset
//! after a success.

use std::time::Duration;

/// Reconnection delays.
#[derive(Clone, Debug)]
pub struct Backoff {
    next: Duration,
    max: Duration,
    /// Delays taken since the last reset.
    attempt: u32,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff::new(Duration::from_millis(100), Duration::from_secs(5))
    }
}

impl Backoff {
    /// Starts at `first`, doubles up to `max`.
    pub fn new(first: Duration, max: Duration) -> Backoff {
        Backoff { next: first, max, attempt: 0 }
    }

    /// The delay to wait now; the next one doubles.
    pub fn delay(&mut self) -> Duration {
        let d = self.next;
        self.bump();
        d
    }

    /// Counts one more failure without taking its delay (the caller waits
    /// some other schedule, such as the rate's backoff).
    pub fn bump(&mut self) {
        self.next = (self.next * 2).min(self.max);
        self.attempt = self.attempt.saturating_add(1);
    }

    /// Failures since the last reset.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// After a success: start again from the first delay.
    pub fn reset(&mut self) {
        *self = Backoff::new(Duration::from_millis(100), self.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_cap_and_resets() {
        let mut b = Backoff::new(Duration::from_millis(100), Duration::from_millis(500));
        let got: Vec<u128> = (0..5).map(|_| b.delay().as_millis()).collect();
        assert_eq!(got, vec![100, 200, 400, 500, 500]);
        b.reset();
        assert_eq!(b.delay().as_millis(), 100);
    }
}
