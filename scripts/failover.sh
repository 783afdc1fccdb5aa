#!/usr/bin/env bash
# The cluster failover test (tests/cluster_failover.rs) in release mode
# with bigger numbers: three xodus-server nodes on one throwaway
# PostgreSQL, GAMES live X-ODUS games (half played by two xodus-ai --fill
# agents, half by the test through random nodes, a few followed by a
# spectator on every node), KILLS kill -9s of the nodes in turn (each
# down past its lease, then restarted under the same id and port), then
# SECS seconds of play before the checks: no acknowledged choice lost,
# histories 1..n, spectators saw each seq once and in order, every node
# tells the same state, no game stuck. Prints the test's summary line and
# exits non-zero if a check failed.
#
#   scripts/failover.sh [GAMES=60] [KILLS=10] [SECS=30]
#
# From a fresh clone: builds what it needs (cargo build --release of the
# server and the agent, then the test). Needs PostgreSQL's server binaries
# (Debian/Ubuntu: apt-get install -y postgresql; XODUS_PG_BIN=DIR for
# others). TTL_MS=N changes the nodes' lease (default 3000). The full
# output stays in the file it names.
set -euo pipefail
games=${1:-60}
kills=${2:-10}
secs=${3:-30}
cd "$(dirname "$0")/.."
out=$(mktemp -t xodus-failover-XXXX.log)

echo "building (release): xodus-server, xodus-ai, the test" >&2
cargo build --release -p xodus-server -p xodus-ai >> "$out" 2>&1 || { tail -30 "$out" >&2; exit 1; }
cargo test --release --test cluster_failover --no-run >> "$out" 2>&1 || { tail -30 "$out" >&2; exit 1; }

echo "running: $games games, $kills kills, $secs s after the last restart (output: $out)" >&2
status=0
XODUS_SKIP_POSTGRES_TESTS=0 \
XODUS_FAILOVER_GAMES=$games XODUS_FAILOVER_KILLS=$kills XODUS_FAILOVER_SECS=$secs \
XODUS_FAILOVER_TTL_MS=${TTL_MS:-3000} \
  cargo test --release --test cluster_failover -- --nocapture >> "$out" 2>&1 || status=$?

grep -h "failover summary" "$out" || echo "no summary line: the test did not get that far" >&2
if [ "$status" -ne 0 ]; then
  grep -h -A8 "panicked at" "$out" >&2 || tail -30 "$out" >&2
  echo "FAILED (exit $status); full output: $out" >&2
  exit "$status"
fi
echo "passed; full output: $out" >&2
