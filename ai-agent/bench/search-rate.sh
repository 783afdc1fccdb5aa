#!/bin/bash
# How many playouts the search plays in the default budget, and how fast
# it plays a fixed game. Two figures:
#  1. the seconds and decisions per second of one fixed all-MCTS game at a
#     fixed playout count (deterministic: every build plays the same
#     decisions, so only the time differs);
#  2. the playouts `--think-ms 500` plays, as a multiple of that count:
#     the search's samples per decision, decision by decision, under the
#     deadline and at the fixed count, over the first decisions of the
#     same game (the two games part ways once a decision differs).
# Run it on a quiet machine: figure 2 falls with load.
#   ai-agent/bench/search-rate.sh                # Hardened, 3 ships, 650
#   SHIPS=4 DIFFICULTY=casual ITERATIONS=400 ai-agent/bench/search-rate.sh
set -eu
ships="${SHIPS:-3}"
difficulty="${DIFFICULTY:-hardened}"
iterations="${ITERATIONS:-650}"
seed="${SEED:-7000}"
seconds="${SECONDS_CAP:-60}"
bin="${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/target/release}"
out=$(mktemp -d)
game=(selfplay --policy mcts --ships "$ships" --difficulty "$difficulty" --seed "$seed" --games 1 --jobs 1 --json)
start=$(date +%s.%N)
"$bin/xodus-ai" "${game[@]}" --iterations "$iterations" > "$out/fixed.json" 2> /dev/null
end=$(date +%s.%N)
python3 - "$out/fixed.json" "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
secs = float(sys.argv[3]) - float(sys.argv[2])
g = d["per_game"][0]
print(f"fixed game: {secs:.1f} s, {d['decisions_per_sec']:.2f} decisions/s; seed {g['seed']}, won {g['won']}, {g['rounds']} rounds, {g['keys']} Keys")
PY
RUST_LOG=xodus_ai::policy::mcts=trace timeout "$seconds" "$bin/xodus-ai" "${game[@]}" --think-ms 500 > /dev/null 2> "$out/timed.log" || true
RUST_LOG=xodus_ai::policy::mcts=trace timeout "$seconds" "$bin/xodus-ai" "${game[@]}" --iterations "$iterations" > /dev/null 2> "$out/fixed.log" || true
python3 - "$out/timed.log" "$out/fixed.log" "$iterations" <<'PY'
import re, sys
timed, fixed = ([int(x) for x in re.findall(r"samples=(\d+)", open(p).read())] for p in sys.argv[1:3])
n = min(len(timed), len(fixed))
if n == 0:
    sys.exit("no search decisions traced")
ratio = sum(timed[:n]) / sum(fixed[:n])
print(f"--think-ms 500 plays {ratio:.2f}x the samples of --iterations {sys.argv[3]} over {n} decisions: about {ratio * int(sys.argv[3]):.0f} playouts a decision")
PY
rm -rf "$out"
