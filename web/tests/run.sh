#!/usr/bin/env bash
# The web front-end's tests in a real browser: builds the page (npm ci, npm
# run build), starts the debug server serving it (--web-dir web/dist, a
# temporary data directory, a free port, --demo-games so that it hosts High
# Card too) and an AI daemon (xodus-ai --fill, heuristic policy; it plays VII
# Legio seats too, and any other game's with random legal picks), then runs
# tests/*.test.mjs (browser.test.mjs: X-ODUS and the shared parts;
# legio.test.mjs: VII Legio; generic.test.mjs: High Card on the generic
# table; talk.test.mjs: the talk panel of all three; hint.test.mjs: advice
# on request, served by that daemon, and refused by a second server the
# test starts with none) with node's test runner, driving Debian's
# headless Chromium through playwright-core.
# Arguments name test files to run instead of all of them
# (`web/tests/run.sh tests/talk.test.mjs`).
# Chromium is installed with apt-get when missing. Every process started here
# is stopped on exit, whatever happened. Needs `cargo build --workspace --bins`
# (the binaries are taken from $XODUS_BIN_DIR, by default target/debug).
set -euo pipefail
web="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$web/.." && pwd)"
bin="${XODUS_BIN_DIR:-$root/target/debug}"
cd "$web"

if ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi
chromium_bin="$(command -v chromium)"

npm ci --no-audit --no-fund --loglevel=error
npm run build --silent

tmp="$(mktemp -d)"
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    echo "--- server log (tail)"; tail -n 30 "$tmp/server.log" 2>/dev/null || true
    echo "--- ai log (tail)"; tail -n 30 "$tmp/ai.log" 2>/dev/null || true
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT INT TERM

port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
url="http://127.0.0.1:$port"
"$bin/xodus-server" --listen "127.0.0.1:$port" --data-dir "$tmp/data" --web-dir "$web/dist" --demo-games >"$tmp/server.log" 2>&1 &
pids+=($!)
serving() { node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/"; }
for _ in $(seq 1 300); do
  if serving; then break; fi
  kill -0 "${pids[0]}" 2>/dev/null || { echo "the server exited"; exit 1; }
  sleep 0.1
done
serving || { echo "the server does not serve the page at $url/"; exit 1; }

"$bin/xodus-ai" --server "$url" --fill --policy heuristic >"$tmp/ai.log" 2>&1 &
pids+=($!)

XODUS_BIN_DIR="$bin" XODUS_URL="$url" CHROMIUM="$chromium_bin" node --test --test-concurrency=1 --test-reporter=spec "${@:-tests/}"

# `XODUS_UPDATE_SCREENSHOT=1 web/tests/run.sh` refreshes the README's pictures
# (one per game) with the ones this run took mid-game.
if [ "${XODUS_UPDATE_SCREENSHOT:-}" = 1 ]; then
  cp tests/screenshots/table.png "$root/docs/screenshot.png"
  cp tests/screenshots/legio-table.png "$root/docs/screenshot-legio.png"
  echo "docs/screenshot.png and docs/screenshot-legio.png updated"
fi
