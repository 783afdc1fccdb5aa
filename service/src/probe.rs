//! Measurement hooks for the benchmark (`examples/bench.rs`): what the
//! durable store costs on its own, without the game or the transport, so
//! the bench can print the fastest a choice could ever be acknowledged.

use crate::model::{EntryKind, EntryRecord, GameRecord, OpenTo, SeatRecord, Status};
use crate::store::{GameStore, SqliteStore, StoreError};
use std::path::Path;
use std::time::{Duration, Instant};

/// Opens a fresh SQLite store in `dir` (as the server opens it: WAL,
/// `synchronous=FULL`, its page size, its writer polling for up to
/// `poll` between requests), stores one game, then appends `n`
/// choices to it one after another, each durable before the next begins.
/// Returns each append's latency, in order.
pub fn serial_appends(dir: &Path, n: usize, poll: Duration) -> Result<Vec<Duration>, StoreError> {
    let store = SqliteStore::open_dir(dir, poll)?;
    let game = GameRecord {
        id: "g-probe".into(),
        game_type: "probe".into(),
        config_json: "{}".into(),
        created_ms: 0,
        status: Status::Open,
        forked_from: None,
        idle_timeout_s: 0,
        seats: (0..4).map(|seat| SeatRecord { seat, open_to: OpenTo::Any, claim: None }).collect(),
        creator_hash: None,
        ended_ms: None,
        resamples: Vec::new(),
        seed_chosen: false,
        clock: None,
    };
    store.create_game(&game, &[])?;
    let mut latencies = Vec::with_capacity(n);
    for seq in 1..=n as u64 {
        let entry = EntryRecord {
            played_by: None,
            clock_ms: None,
            seq,
            kind: EntryKind::Choice,
            seat: (seq % 4) as u8,
            option_id: "move:s12".into(),
            at_ms: seq as i64,
        };
        let t = Instant::now();
        store.append_entry(&game.id, &entry)?;
        latencies.push(t.elapsed());
    }
    Ok(latencies)
}

#[cfg(test)]
mod tests {
    #[test]
    fn serial_appends_are_all_stored() {
        let dir = std::env::temp_dir().join(format!("xodus-probe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let lat = super::serial_appends(&dir, 5, std::time::Duration::ZERO).expect("appends");
        assert_eq!(lat.len(), 5);
        let stored = crate::store::SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("reopen");
        let games = crate::store::GameStore::load_all(&stored).expect("load");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(games.iter().map(|g| g.entries.len()).collect::<Vec<_>>(), [5]);
    }
}
