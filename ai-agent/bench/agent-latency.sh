#!/bin/bash
# How long a network agent thinks per decision, seen from outside: a real
# xodus-server on 127.0.0.1:50311, two all-AI games at once filled by one
# `xodus-ai --fill`, played to their end; prints the decisions and the
# p50 / p99 / max of the agent's own `think_ms` log field (each policy's
# time in its think slot, from the agent's "thought" lines).
#   GAME=xodus (default): three ships Casual and four ships Hardened.
#   GAME=legio: VII Legio, 2 and 4 commanders, every seat an AI rival.
# Needs the release binaries (cargo build --release -p xodus-server -p
# xodus-cli -p xodus-ai) in target/release or in $BIN, and python3. Extra
# arguments go to xodus-ai, e.g. `--policy heuristic` or `--think-ms 200`.
set -u
bin="${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/target/release}"
game="${GAME:-xodus}"
url=http://127.0.0.1:50311
work=$(mktemp -d)
cd "$work" || exit 1
"$bin/xodus-server" --listen 127.0.0.1:50311 --data-dir ./data > server.log 2>&1 &
server=$!
sleep 1
case "$game" in
  legio)
    g1=$("$bin/xodus" create --server "$url" --game legio --players 2 --ai-seats 0,1 --seed 11 --id-only)
    g2=$("$bin/xodus" create --server "$url" --game legio --players 4 --ai-seats 0,1,2,3 --seed 12 --id-only)
    ;;
  *)
    g1=$("$bin/xodus" create --server "$url" --ships 3 --ai-seats 0,1,2 --seed 11 --id-only)
    g2=$("$bin/xodus" create --server "$url" --ships 4 --difficulty hardened --ai-seats 0,1,2,3 --seed 12 --id-only)
    ;;
esac
RUST_LOG=xodus_ai=debug NO_COLOR=1 "$bin/xodus-ai" --server "$url" --fill "$@" > ai.log 2>&1 &
agent=$!
over() {
  "$bin/xodus" view "$1" --server "$url" | python3 -c "
import json, sys
d = json.load(sys.stdin)
o = d['outcome'] if 'outcome' in d else d.get('public', {}).get('outcome')
print(o is not None)"
}
start=$(date +%s)
for _ in $(seq 1 240); do
  sleep 5
  a=$(over "$g1")
  b=$(over "$g2")
  if [ "$a" = True ] && [ "$b" = True ]; then break; fi
done
echo "$game games over: $a $b; $(($(date +%s) - start)) s"
kill "$agent"
sleep 1
kill "$server"
sed 's/\x1b\[[0-9;]*m//g' ai.log | grep " thought" | sed 's/.*think_ms=\([0-9]*\).*/\1/' | sort -n | python3 -c "
import sys
v = [int(x) for x in sys.stdin]
n = len(v)
print('decisions', n, 'think ms p50', v[n // 2], 'p99', v[int(n * 0.99)], 'max', v[-1])"
echo "logs in $work"
