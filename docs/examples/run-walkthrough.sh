#!/usr/bin/env bash
# The front-end guide's command-line game, end to end: starts the server
# built by `cargo build --workspace --bins` on a free port with a
# temporary data directory, plays a whole game with
# docs/examples/play-with-buf-curl.sh, sends a few messages on a Play
# stream, stops the server. Fails when any step does. Run by .ci/run.
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

# The log exists before the server starts: the background shell opens it
# only when it gets to run, and `sed` on a missing file would end the
# script (set -e) on a busy machine.
: >"$tmp/server.log"
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

# A Play stream from the command line: buf curl sends every JSON message
# read from stdin on one bidirectional stream and prints each answer. Here
# `open` for the first decider, its first option, then the same choice
# again: the answers must be the opened state, the accepted choice (seq 1)
# and a refusal with ABORTED (10), the stream staying open until stdin ends.
curl_json() {
  "$BUF" curl --schema "$tmp/api.binpb" --protocol grpc --http2-prior-knowledge -d "$2" \
    "http://$addr/tabletop.v1.GameService/$1"
}
game=$(curl_json CreateGame '{"gameType":"xodus","gameSetup":{"@type":"type.googleapis.com/xodus.v1.XodusSetup","shipCount":3,"seed":"8"}}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["game"]["gameId"])')
view=$(curl_json GetView "{\"gameId\":\"$game\"}")
read -r seat option < <(python3 -c '
import json, sys
d = json.loads(sys.argv[1])["state"]["decision"]
o = d["options"][0]
print(o["seats"][0], o["id"])' "$view")
token=$(curl_json ClaimSeat "{\"gameId\":\"$game\",\"seat\":$seat,\"claimant\":\"CLAIMANT_HUMAN\"}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
choice="{\"choice\":{\"expectedSeq\":\"0\",\"optionId\":\"$option\"}}"
printf '%s\n%s\n%s\n' "{\"open\":{\"gameId\":\"$game\",\"credentials\":{\"seat\":$seat,\"token\":\"$token\"}}}" "$choice" "$choice" |
  curl_json Play @- >"$tmp/play.json"
if ! python3 - "$tmp/play.json" <<'PY'
import json, sys
text, answers, at = open(sys.argv[1]).read(), [], 0
dec = json.JSONDecoder()
while text[at:].strip():
    at += len(text[at:]) - len(text[at:].lstrip())
    msg, at = dec.raw_decode(text, at)
    answers.append(msg)
kinds = [next(iter(a)) for a in answers]
assert kinds == ["opened", "accepted", "refused"], kinds
assert answers[1]["accepted"]["seq"] == "1", answers[1]
assert answers[2]["refused"]["code"] == 10, answers[2]
print("walkthrough: Play stream answered opened, accepted (seq 1), refused (ABORTED: %s)" % answers[2]["refused"]["message"])
PY
then
  echo "the Play stream did not answer as documented:" >&2
  cat "$tmp/play.json" >&2
  exit 1
fi

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
