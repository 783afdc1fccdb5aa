#!/usr/bin/env bash
# The front-end guide's command-line game, end to end: starts the server
# built by `cargo build --workspace --bins` on a free port with a
# temporary data directory, plays a whole game with
# docs/examples/play-with-buf-curl.sh, stops the server. Fails when any
# step does. Run by .ci/run.
#
#   docs/examples/run-walkthrough.sh
#
# XODUS_SERVER=path picks another server binary (default
# target/debug/xodus-server).
set -euo pipefail
cd "$(dirname "$0")/../.."

server=${XODUS_SERVER:-target/debug/xodus-server}
if [ ! -x "$server" ]; then
  echo "no server at $server: run cargo build --workspace --bins" >&2
  exit 1
fi

# buf from the npm registry, as .ci/run installs it; its native binary when
# present (the npm launcher adds a Node start to every call).
BUF_VERSION=1.75.0
tools=.ci/.tools
if [ ! -x "$tools/node_modules/.bin/buf" ] || ! "$tools/node_modules/.bin/buf" --version | grep -qx "$BUF_VERSION"; then
  npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "@bufbuild/buf@$BUF_VERSION"
fi
BUF=$tools/node_modules/.bin/buf
for b in "$tools"/node_modules/@bufbuild/buf-*/bin/buf; do
  if [ -x "$b" ]; then BUF=$b; fi
done
export BUF

tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$server" --listen 127.0.0.1:0 --data-dir "$tmp/data" >"$tmp/server.log" 2>&1 &
pid=$!
addr=
for _ in $(seq 300); do
  addr=$(sed -n 's/^listening on //p' "$tmp/server.log")
  [ -n "$addr" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$addr" ]; then
  echo "the server did not start:" >&2
  cat "$tmp/server.log" >&2
  exit 1
fi
echo "walkthrough: server on $addr"

# Reflection answers (what grpcurl and buf curl rely on by default)...
methods=$("$BUF" curl --protocol grpc --http2-prior-knowledge --list-methods "http://$addr")
if ! grep -qx tabletop.v1.GameService/SubmitChoice <<<"$methods"; then
  echo "reflection does not list tabletop.v1.GameService/SubmitChoice:" >&2
  echo "$methods" >&2
  exit 1
fi
# ...but the game's ~340 calls read the schema from an image of proto/
# instead: one round trip less per call, about a fifth cheaper.
"$BUF" build -o "$tmp/api.binpb"

start=$(date +%s)
if ! SCHEMA=$tmp/api.binpb docs/examples/play-with-buf-curl.sh "$addr" 7; then
  echo "the walkthrough failed; server log:" >&2
  tail -20 "$tmp/server.log" >&2
  exit 1
fi
echo "walkthrough: a whole game in $(($(date +%s) - start)) s"

if ! kill -0 "$pid" 2>/dev/null; then
  echo "the server died during the walkthrough:" >&2
  tail -20 "$tmp/server.log" >&2
  exit 1
fi
kill "$pid"
status=0
wait "$pid" || status=$?
pid=
# Stopped by SIGTERM, the server shuts down cleanly: status 0 (143 if the
# signal killed it first).
if [ "$status" -ne 0 ] && [ "$status" -ne 143 ]; then
  echo "the server exited with status $status:" >&2
  tail -20 "$tmp/server.log" >&2
  exit 1
fi
echo "walkthrough: passed"
