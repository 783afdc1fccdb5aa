#!/bin/bash
# Long-haul fuzz (not in CI): REQUESTS (default 1,000,000) malformed and
# hostile requests (random bytes to every RPC, typed requests with random
# field values, FollowGames with random follows) from 8 clients at once
# against a real release xodus-server. Fails on any INTERNAL or UNKNOWN
# answer, on any change to two victim games whose tokens the fuzz never
# holds, or if the server died; prints the counts by method and status.
#
#   scripts/fuzz.sh [REQUESTS]
set -eu
cd "$(dirname "$0")/.."
cargo build --release --bins
FUZZ_REQUESTS=${1:-1000000} cargo test --release --test service_edges -- --ignored --nocapture long_fuzz
