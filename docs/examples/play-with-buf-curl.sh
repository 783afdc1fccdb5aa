#!/usr/bin/env bash
# Plays one whole X-ODUS game against a running server from the command
# line with `buf curl` (gRPC over plain-text HTTP/2), the walkthrough of
# docs/frontend-guide.md. It starts no server.
#
#   docs/examples/play-with-buf-curl.sh HOST:PORT [SEED]
#
# It creates a 3-ship game with a fixed seed (default 7), claims the three
# seats, prints the names of the revealed tiles from the catalog, then
# repeats: look at the state, pick the first option that a seat in the
# decision's `deciders` may take, send it with the state's seq as
# expected_seq; until the state has an outcome. Last it prints the board's
# tiles, the outcome and the number of choices.
#
# Environment: BUF=path of the buf binary (default: buf on PATH, else the
# copy .ci/run installs); SCHEMA=a buf image or proto directory to read the
# schema from instead of server reflection (one round trip less per call);
# VERBOSE=1 prints every choice. JSON is read with jq when installed, else
# with python3.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 HOST:PORT [SEED]" >&2
  exit 2
fi
addr=$1
seed=${2:-7}
repo=$(cd "$(dirname "$0")/../.." && pwd)

# buf: $BUF, else the one on PATH, else the copy .ci/run installs (its
# native binary when present: it starts faster than the npm launcher).
if [ -z "${BUF:-}" ]; then
  if command -v buf >/dev/null 2>&1; then
    BUF=$(command -v buf)
  else
    for b in "$repo"/.ci/.tools/node_modules/@bufbuild/buf-*/bin/buf "$repo/.ci/.tools/node_modules/.bin/buf"; do
      if [ -x "$b" ]; then
        BUF=$b
        break
      fi
    done
  fi
fi
if [ -z "${BUF:-}" ] || [ ! -x "$BUF" ]; then
  echo "buf not found: run 'npm install --prefix .ci/.tools @bufbuild/buf@1.75.0' or set BUF" >&2
  exit 2
fi
schema=()
if [ -n "${SCHEMA:-}" ]; then schema=(--schema "$SCHEMA"); fi
# Each buf curl lives a fraction of a second: without Go's garbage
# collector a call costs about a fifth less (and a few MB more).
export GOGC=${GOGC:-off}

# json FILE JQ_FILTER PY_EXPR: the filter's raw output, from jq when it is
# installed, else the same from python3 (`d` is the document; a list prints
# one item a line).
if command -v jq >/dev/null 2>&1; then
  json() { jq -r "$2" "$1"; }
else
  json() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = eval(sys.argv[2])
for x in (r if isinstance(r, list) else [r]):
    print(x if isinstance(x, str) else json.dumps(x))
' "$1" "$3"
  }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# call METHOD JSON_BODY OUT_FILE: one unary RPC of tabletop.v1.GameService,
# the same as: grpcurl -plaintext -d "$2" "$addr" tabletop.v1.GameService/$1
# On an error buf prints {"code": ..., "message": ...} and exits non-zero.
call() {
  if ! "$BUF" curl ${schema[@]+"${schema[@]}"} --protocol grpc --http2-prior-knowledge -d "$2" \
    "http://$addr/tabletop.v1.GameService/$1" >"$3" 2>"$tmp/err"; then
    echo "$1 failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
}

# print_tiles VIEW_FILE: each revealed tile with its catalog name. Proto
# JSON leaves zero values out: a missing number is 0, "hex": {} is (0, 0).
print_tiles() {
  json "$1" '.state.gameState.tiles[] | "\(.tile // 0)\t\(.hex.q // 0),\(.hex.r // 0)\t\(.rotation // 0)"' \
    '["%d\t%d,%d\t%d" % (t.get("tile", 0), t["hex"].get("q", 0), t["hex"].get("r", 0), t.get("rotation", 0)) for t in d["state"]["gameState"]["tiles"]]' |
    while IFS=$'\t' read -r tile at rot; do
      echo "  ($at) rotation $rot: $(awk -F'\t' -v i="$tile" '$1 == i { print $2 }' "$tmp/tiles.tsv") [tile $tile]"
    done
}

# 1. A 3-ship game with a fixed seed. The setup is a xodus.v1.XodusSetup
#    packed in a google.protobuf.Any: "@type" names it; a uint64 is a string.
call CreateGame "{\"gameType\":\"xodus\",\"gameSetup\":{\"@type\":\"type.googleapis.com/xodus.v1.XodusSetup\",\"shipCount\":3,\"seed\":\"$seed\"}}" "$tmp/create.json"
game=$(json "$tmp/create.json" '.game.gameId' 'd["game"]["gameId"]')
echo "game $game, seed $seed, ships: $(json "$tmp/create.json" '[.game.seats[].role] | join(", ")' '", ".join(s["role"] for s in d["game"]["seats"])')"

# 2. Claim the three seats; keep each seat's token.
tokens=()
for seat in 0 1 2; do
  call ClaimSeat "{\"gameId\":\"$game\",\"seat\":$seat,\"claimant\":\"CLAIMANT_HUMAN\"}" "$tmp/claim.json"
  tokens[seat]=$(json "$tmp/claim.json" '.token' 'd["token"]')
done
echo "claimed seats 0, 1 and 2"

# 3. The catalog (the same for every X-ODUS table: a front-end caches it),
#    then the revealed tiles by name, as a spectator sees them.
call GetCatalog '{"gameType":"xodus"}' "$tmp/catalog.json"
json "$tmp/catalog.json" '.entries[] | select(.category == "tile") | "\(.index // 0)\t\(.name)"' \
  '["%d\t%s" % (e.get("index", 0), e["name"]) for e in d["entries"] if e["category"] == "tile"]' >"$tmp/tiles.tsv"
call GetView "{\"gameId\":\"$game\"}" "$tmp/state.json"
echo "revealed tiles:"
print_tiles "$tmp/state.json"

# 4. Play. Pick, in the state, the first option that a seat in `deciders`
#    may take (option.seats), and send it with SubmitChoice, expected_seq
#    being the state's seq. SubmitChoiceResponse.state is the state after
#    the choice, the same GameState a GetView by that seat returns, so the
#    loop reads the next decision from it: one round trip a choice.
pick_jq='.state as $s
  | if $s.outcome then "over"
    else ($s.decision.deciders // []) as $deciders
      | first($s.decision.options[] | . as $o | ($o.seats // [])[]
              | select(. as $x | $deciders | index($x) != null) | [., $o.id, $o.label])
      | "\(.[0])\t\($s.seq // "0")\t\($s.gameState.round // 0)\t\(.[1])\t\(.[2])"
    end'
pick_py='(lambda s: "over" if s.get("outcome") else next(
  "%d\t%s\t%d\t%s\t%s" % (seat, s.get("seq", "0"), s["gameState"].get("round", 0), o["id"], o["label"])
  for o in s["decision"]["options"] for seat in o.get("seats", [])
  if seat in s["decision"].get("deciders", [])))(d["state"])'
choices=0
last_round=0
while :; do
  line=$(json "$tmp/state.json" "$pick_jq" "$pick_py")
  [ "$line" = over ] && break
  IFS=$'\t' read -r seat seq round option label <<<"$line"
  if [ "$round" != "$last_round" ]; then
    echo "round $round (seq $seq)"
    last_round=$round
  fi
  if [ "${VERBOSE:-0}" = 1 ]; then echo "  seq $seq, seat $seat: $option ($label)"; fi
  call SubmitChoice "{\"gameId\":\"$game\",\"credentials\":{\"seat\":$seat,\"token\":\"${tokens[seat]}\"},\"expectedSeq\":\"$seq\",\"optionId\":\"$option\"}" "$tmp/state.json"
  choices=$((choices + 1))
  if [ "$choices" -ge 5000 ]; then
    echo "no outcome after $choices choices" >&2
    exit 1
  fi
done

echo "the board at the end:"
print_tiles "$tmp/state.json"
echo "outcome: $(json "$tmp/state.json" '.state.outcome | "\(.kind), won \(.won // false), cause \(.cause), round \(.round // 0)"' \
  '(lambda o: "%s, won %s, cause %s, round %d" % (o["kind"], str(o.get("won", False)).lower(), o.get("cause", ""), o.get("round", 0)))(d["state"]["outcome"])')"
echo "choices: $choices"
