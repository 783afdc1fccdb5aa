#!/bin/bash
# How fast hints come, seen from outside: a real xodus-server on
# 127.0.0.1:50312 with one `xodus-ai --fill` serving hints, and a game whose
# seats are all taken by this script (as humans), played by random options
# through `xodus act`; before each choice of a seat with several options the
# script asks `xodus hint` for it. Prints, per game, the hints asked, the
# agent's own think time (`think_ms` of the answer) and the whole round
# trip of `xodus hint`, p50 / p99 / max.
#   GAME=xodus (default; 3 ships) or GAME=legio (2 commanders).
#   HINTS=40 (default): hints asked.
# Needs the binaries (cargo build --release -p xodus-server -p xodus-cli -p
# xodus-ai) in target/release or in $BIN, and python3. Extra arguments go to
# xodus-ai, e.g. `--think-ms 200` (the default budget is 500 ms).
set -u
bin="${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/target/release}"
game="${GAME:-xodus}"
hints="${HINTS:-40}"
url=http://127.0.0.1:50312
work=$(mktemp -d)
cd "$work" || exit 1
"$bin/xodus-server" --listen 127.0.0.1:50312 --data-dir ./data > server.log 2>&1 &
server=$!
sleep 1
"$bin/xodus-ai" --server "$url" --fill --policy heuristic "$@" > ai.log 2>&1 &
agent=$!
trap 'kill $agent $server 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
X="$bin/xodus" URL="$url" GAME="$game" HINTS="$hints" python3 - <<'EOF'
import json, os, random, subprocess, time

x, url, game, want = os.environ["X"], os.environ["URL"], os.environ["GAME"], int(os.environ["HINTS"])
rng = random.Random(5)

def run(*args):
    out = subprocess.run([x, *args, "--server", url], capture_output=True, text=True)
    return out.returncode, out.stdout

def new_game():
    flags = ["--game", "legio", "--players", "2"] if game == "legio" else ["--ships", "3"]
    _, gid = run("create", *flags, "--seed", str(rng.randrange(1 << 30)), "--id-only")
    gid = gid.strip()
    seats = 2 if game == "legio" else 3
    return gid, [run("join", gid, "--seat", str(s))[1].strip() for s in range(seats)]

gid, tokens = new_game()
took, trip, last = [], [], {}
while len(took) < want:
    moved = False
    for seat, token in enumerate(tokens):
        code, out = run("view", gid, "--seat", str(seat), "--token", token)
        if code != 0:
            continue
        view = json.loads(out)
        d = view.get("decision") or {}
        deciders = d.get("deciders") or ([d["seat"]] if d.get("seat") is not None else [])
        if seat not in deciders:
            continue
        options = [o["id"] for o in d.get("options", []) if seat in o.get("seats", [seat])]
        if not options:
            continue
        if len(options) > 1 and time.monotonic() - last.get(seat, 0) > 2.1:
            t = time.monotonic()
            code, out = run("hint", gid, "--seat", str(seat), "--token", token)
            last[seat] = time.monotonic()
            if code == 0:
                trip.append((time.monotonic() - t) * 1000)
                took.append(json.loads(out)["think_ms"])
        run("act", gid, "--seat", str(seat), "--token", token, "--option", rng.choice(options))
        moved = True
    if not moved:
        gid, tokens = new_game()

def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]

print(f"{game}: {len(took)} hints; agent think p50 {pct(took, .5)} ms, p99 {pct(took, .99)} ms, max {max(took)} ms; "
      f"xodus hint round trip p50 {pct(trip, .5):.0f} ms, p99 {pct(trip, .99):.0f} ms, max {max(trip):.0f} ms")
EOF
