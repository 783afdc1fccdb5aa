//! The agent's own request rate, and what it does when the server says it
//! is over the server's: every request first takes a slot of one shared
//! schedule (`per_second`, a burst of a tenth of a second's worth), so the
//! process as a whole stays under the rate it was given; a
//! RESOURCE_EXHAUSTED answer pushes the whole schedule back by a pause
//! with jitter (every task of the process slows down, not only the one
//! refused) and the refused request is retried after its own jittered
//! backoff, on the same connection: it never reconnects for it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One process's request schedule.
#[derive(Debug)]
pub struct Pace {
    /// Time between two requests (zero: no limit).
    interval: Duration,
    /// How far the schedule may lag behind now (the burst).
    burst: Duration,
    /// When the next request may go.
    next: Mutex<Instant>,
    /// Jitter source.
    jitter: Mutex<crate::rng::Rng>,
}

impl Pace {
    /// A schedule of `per_second` requests a second (0: unlimited).
    pub fn new(per_second: u32, seed: u64) -> Pace {
        let interval = if per_second == 0 { Duration::ZERO } else { Duration::from_secs(1) / per_second };
        let burst = interval * (per_second / 10).max(1);
        let now = Instant::now();
        Pace {
            interval,
            burst,
            // The first burst is free.
            next: Mutex::new(now.checked_sub(burst).unwrap_or(now)),
            jitter: Mutex::new(crate::rng::Rng::new(seed)),
        }
    }

    /// Waits for this request's slot.
    pub async fn wait(&self) {
        let Some(d) = self.reserve(Instant::now()) else { return };
        tokio::time::sleep(d).await;
    }

    /// Takes the next slot at `now`; how long to wait for it, if at all.
    fn reserve(&self, now: Instant) -> Option<Duration> {
        if self.interval.is_zero() && !self.paused(now) {
            return None;
        }
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let earliest = now.checked_sub(self.burst).unwrap_or(now);
        let slot = (*next).max(earliest);
        *next = slot + self.interval;
        slot.checked_duration_since(now).filter(|d| !d.is_zero())
    }

    fn paused(&self, now: Instant) -> bool {
        *self.next.lock().unwrap_or_else(|e| e.into_inner()) > now
    }

    /// The server answered RESOURCE_EXHAUSTED: the whole schedule waits a
    /// jittered pause, and the refused request's own delay is returned
    /// (`attempt` from 0: 50 ms doubling to 2 s, each between half and the
    /// whole of it).
    pub fn exhausted(&self, attempt: u32) -> Duration {
        let base = Duration::from_millis(50) * 2u32.saturating_pow(attempt.min(6));
        let base = base.min(Duration::from_secs(2));
        let d = self.jittered(base);
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let pause = Instant::now() + self.jittered(Duration::from_millis(100));
        *next = (*next).max(pause);
        d
    }

    /// Between half and the whole of `base`.
    pub fn jittered(&self, base: Duration) -> Duration {
        let mut r = self.jitter.lock().unwrap_or_else(|e| e.into_inner());
        let half = base / 2;
        half + Duration::from_micros(r.next_u64() % (half.as_micros() as u64 + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_spaced_after_the_burst() {
        let p = Pace::new(100, 1);
        let now = Instant::now();
        // A burst of a tenth of a second's worth goes at once.
        let waits: Vec<Option<Duration>> = (0..12).map(|_| p.reserve(now)).collect();
        assert!(waits[..10].iter().all(Option::is_none), "{waits:?}");
        assert_eq!(waits[11], Some(Duration::from_millis(10)), "{waits:?}");
        let unlimited = Pace::new(0, 1);
        assert_eq!(unlimited.reserve(Instant::now()), None, "unlimited");
    }

    #[test]
    fn a_refusal_slows_everyone_with_jitter() {
        let p = Pace::new(0, 7);
        let first = p.exhausted(0);
        assert!(first >= Duration::from_millis(25) && first <= Duration::from_millis(50), "{first:?}");
        assert!(p.exhausted(10) <= Duration::from_secs(2));
        assert!(p.reserve(Instant::now()).is_some(), "the schedule itself is paused");
        let a: Vec<Duration> = (0..8).map(|_| p.jittered(Duration::from_millis(400))).collect();
        assert!(a.iter().any(|d| *d != a[0]), "jitter varies: {a:?}");
    }
}
