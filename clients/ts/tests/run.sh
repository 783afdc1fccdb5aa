#!/usr/bin/env bash
# The client package's tests: installs the npm workspace (npm ci), builds
# the package (code generation, type check, the tests bundled for Node),
# then runs tests/*.test.ts with node's test runner. The tests start their
# own xodus-server (a temporary data directory, a free port) and talk to it
# over gRPC-Web from Node. Needs `cargo build -p xodus-server` (the binary
# is taken from $XODUS_BIN_DIR, by default target/debug).
set -euo pipefail
pkg="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$pkg/../.." && pwd)"
export XODUS_BIN_DIR="${XODUS_BIN_DIR:-$root/target/debug}"
cd "$pkg"
npm ci --no-audit --no-fund --loglevel=error
npm run build --silent
node --test --test-concurrency=1 --test-reporter=spec tests/.build/*.test.mjs
