#!/bin/bash
# The crew's strength in one cell (difficulty x ships) at the default
# budget, before and after a change, on the same seeds: all-MCTS self-play
# at the fixed playout count that stands for `--think-ms 500` on a quiet
# core here (900 with 3 ships, 520 with 4: ai-agent/bench/search-rate.sh),
# so load does not change the figures and every game replays for its seed.
# Both arms run the same binary: "before" with XODUS_AI_TUNE=$BEFORE
# (default: none, the agent as shipped), "after" with XODUS_AI_TUNE=$AFTER
# (default trial_plan=1, the Skill Roll plan, off by default).
#   ai-agent/bench/cells.sh hardened 3            # seeds 7000-7023
#   SEED=7000 GAMES=48 JOBS=2 ai-agent/bench/cells.sh casual 4
# Prints each arm's wins with its Wilson 95% interval, Keys and Signals,
# then the games whose result differs. Needs target/release/xodus-ai (or
# $BIN) and python3. A 3-ship game takes about two minutes of one core.
set -eu
difficulty="${1:?difficulty: casual, hardened or heroic}"
ships="${2:?ships: 3 or 4}"
seed="${SEED:-7000}"
games="${GAMES:-24}"
jobs="${JOBS:-2}"
before="${BEFORE:-}"
after="${AFTER:-trial_plan=1}"
bin="${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/target/release}"
iterations=900
[ "$ships" = 4 ] && iterations=520
out=$(mktemp -d)
run() { # arm tune
  XODUS_AI_TUNE="$2" nice -n 19 "$bin/xodus-ai" selfplay --policy mcts --iterations "$iterations" \
    --ships "$ships" --difficulty "$difficulty" --seed "$seed" --games "$games" --jobs "$jobs" --json > "$out/$1.json"
}
echo "cell $difficulty-$ships, seeds $seed-$((seed + games - 1)), $iterations playouts a decision; before: XODUS_AI_TUNE=$before, after: XODUS_AI_TUNE=$after"
run before "$before"
run after "$after"
python3 - "$out/before.json" "$out/after.json" <<'EOF'
import json, sys
arms = [json.load(open(p)) for p in sys.argv[1:3]]
for name, a in zip(("before", "after"), arms):
    lo, hi = a["win_rate_ci95"]
    hard = {k: f'{v["solved"]}/{v["revealed"]}' for k, v in a["signals"].items() if v["solved"] < v["revealed"]}
    print(f'{name:6} {a["wins"]}/{a["games"]} won, {100 * a["win_rate"]:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%), '
          f'Keys {a["mean_keys"]:.2f}, rounds {a["mean_rounds"]:.1f}; Signals not always solved: {hard}')
b = {g["seed"]: g for g in arms[0]["per_game"]}
for g in arms[1]["per_game"]:
    old = b.get(g["seed"])
    if old and old["won"] != g["won"]:
        sign = "+" if g["won"] else "-"
        print(f'  {sign} seed {g["seed"]}: {" ".join(old["signals"])} -> {" ".join(g["signals"])}')
EOF
echo "raw JSON in $out"
