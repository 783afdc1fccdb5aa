#!/bin/bash
# Long-haul durability loop (not in CI): CYCLES (default 1,000) times, four
# players submit choices to four games on a real release xodus-server
# (SQLite, its defaults), which is `kill -9`'d after a random 20-300 ms and
# started again on the same data; every choice acknowledged before a kill
# must be in the history after the restart, at its seq, with its option.
# Prints the counts every 50 cycles and at the end.
#
#   scripts/kill-loop.sh [CYCLES]
set -eu
cd "$(dirname "$0")/.."
cargo build --release --bins
KILL_CYCLES=${1:-1000} cargo test --release --test service_crash -- --ignored --nocapture kill9_loop
