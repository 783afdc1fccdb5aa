#!/bin/bash
# Soak from outside: TABLES live all-AI 3-ship X-ODUS games (Casual, random
# seeds) on a real xodus-server, played by one `xodus-ai --fill --policy
# heuristic` holding an agent key (KEY=0: none, the agent's default flags
# against the server's default per-address caps), for SECONDS, with KILLS `kill -9`s of the
# server spread over the run (each restarted at once on the same data and
# port). Games are created with the `xodus` CLI, and topped up every 2 s
# as games finish, so TABLES stay live. With RAMP=R (seconds, default 0)
# the tables are brought up evenly over a first R seconds, so that games
# start and finish spread out as in a steady state, and the run lasts R +
# SECONDS: games finished are counted over the last SECONDS only, and the
# kills fall in them. Every 10 s it samples the RSS of
# the server and the agent and every game's seq (ListGames), and at the
# end prints: games finished (and per minute), games that went 30 s or
# more without a choice (all, and outside the 60 s after a kill), RSS at
# the start, a third in and at the end, and the ERROR and WARN lines of
# both logs and failed creates.
#
# With NODES=N (N > 1) the server is N nodes on one throwaway PostgreSQL
# (initdb in a temp dir; its binaries from /usr/lib/postgresql/*/bin or
# XODUS_PG_BIN), the agent is given every node, and each kill takes the
# next node in turn (restarted at once under its id and port); it then
# also prints, per kill, how long the survivors took to take its games
# over (from their logs), the live games each node owns at the end (from
# the leases table), and any game whose seq went back (a lost choice).
# PG=1 puts a single node on PostgreSQL too (the same run on one node).
#
#   [RAMP=R] [KEY=0] [NODES=3] ai-agent/bench/soak.sh [TABLES=60] [SECONDS=300] [KILLS=1] [extra xodus-ai flags...]
#
# Needs the release binaries (cargo build --release -p xodus-server -p
# xodus-ai -p xodus-cli --bins; BIN=DIR to use others) and python3. The
# logs and samples stay in the directory it prints.
set -u
tables=${1:-60}
seconds=${2:-300}
kills=${3:-1}
ramp=${RAMP:-0}
shift $(($# < 3 ? $# : 3))
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin=${BIN:-$root/target/release}
port=${PORT:-50321}
url=http://127.0.0.1:$port
work=$(mktemp -d -t xodus-soak-XXXX)
cd "$work" || exit 1
key="soak-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf 'soak %s\n' "$key" > agent-keys
chmod 600 agent-keys

nodes=${NODES:-1}
# PostgreSQL for N > 1 nodes, or with PG=1 for one (the same run's baseline).
shared=0
{ [ "$nodes" -gt 1 ] || [ "${PG:-0}" = 1 ]; } && shared=1
db=()
if [ "$shared" = 1 ]; then
  pgbin=${XODUS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
  [ -x "$pgbin/initdb" ] || { echo "NODES=$nodes needs PostgreSQL's server binaries (apt-get install -y postgresql)" >&2; exit 1; }
  pgdir=$(mktemp -d /tmp/xodus-soak-pg-XXXX)
  as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$pgdir"
  pgport=$((port + 100))
  as_pg "$pgbin/initdb" -D "$pgdir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync > pg-init.log 2>&1
  as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -o "-c listen_addresses=127.0.0.1 -c port=$pgport -c unix_socket_directories='$pgdir' -c max_connections=400" start > /dev/null
  trap 'as_pg "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate stop > /dev/null 2>&1; rm -rf "$pgdir"' EXIT
  db=(--database "postgres://postgres@127.0.0.1:$pgport/postgres" --metrics-listen)
fi
urls=$(for i in $(seq 1 "$nodes"); do printf 'http://127.0.0.1:%s,' $((port + i - 1)); done)
urls=${urls%,}
declare -a pids

start_node() { # node I (1-based)
  local i=$1 p=$((port + $1 - 1)) extra=()
  [ "$shared" = 1 ] && extra=("${db[@]}" "127.0.0.1:$((p + 200))" --node-id "n$i")
  "$bin/xodus-server" --listen "127.0.0.1:$p" --data-dir "./data$i" --agent-key-file ./agent-keys "${extra[@]}" >> "server$i.log" 2>&1 &
  pids[$i]=$!
  for _ in $(seq 1 100); do
    "$bin/xodus" list --server "http://127.0.0.1:$p" --json > /dev/null 2>&1 && return
    sleep 0.2
  done
  echo "node $i did not come up; see $work/server$i.log" >&2
}

start_server() { for i in $(seq 1 "$nodes"); do start_node "$i"; done; server=${pids[1]}; }

live_url() { # a node that answers now
  for i in $(seq 1 "$nodes"); do
    u="http://127.0.0.1:$((port + i - 1))"
    "$bin/xodus" list --server "$u" --json > /dev/null 2>&1 && { echo "$u"; return; }
  done
  echo "$url"
}

create() { # N games, 4 at a time
  [ "$1" -gt 0 ] || return 0
  seq 1 "$1" | xargs -P 4 -I{} sh -c \
    "'$bin/xodus' create --server '$(live_url)' --ships 3 --ai-seats 0,1,2 --id-only >> created.txt 2>> create-errors.txt || echo failed >> create-failed.txt"
}

live_count() { # live games now, or nothing if the server did not answer
  "$bin/xodus" list --server "$(live_url)" --json 2>/dev/null | python3 -c '
import json, sys
try:
    games = json.load(sys.stdin)
except Exception:
    sys.exit()
print(sum(1 for g in games if not any(w in str(g.get("status", "")).lower() for w in ("finish", "abandon"))))'
}

top_up() { # keeps TABLES games live (a finished game is replaced within 2 s), after the ramp
  while :; do
    sleep 2
    n=$(live_count)
    since=$(( $(date +%s) - start ))
    want=$tables
    [ "$since" -lt "$ramp" ] && want=$(( tables * since / ramp ))
    [ -n "$n" ] && [ "$want" -gt "$n" ] && create $((want - n))
  done
}

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

cat > tick.py <<'PY'
import json, sys, time
now, tables, path = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
kills = [float(l.split()[0]) for l in open("kills.txt") if l.strip()] if __import__("os").path.exists("kills.txt") else []
try:
    st = json.load(open(path))
except Exception:
    st = {"games": {}, "stalled": [], "stalled_outside_kills": []}
games = json.load(sys.stdin)
live = 0
finished = 0
for g in games:
    status = str(g.get("status", "")).lower()
    gid, seq = g["id"], int(g.get("seq", 0))
    if "finish" in status or "abandon" in status:
        finished += 1
        st["games"].pop(gid, None)
        continue
    live += 1
    seen = st["games"].get(gid)
    if seen is not None and seq < seen[0]:
        st.setdefault("went_back", []).append([gid, seen[0], seq])
    if seen is None or seen[0] != seq:
        st["games"][gid] = [seq, now]
    elif now - seen[1] >= 30:
        if gid not in st["stalled"]:
            st["stalled"].append(gid)
        # A stall that began within 60 s after a kill, or spans one.
        near_kill = any(k <= now and k + 60 >= seen[1] for k in kills)
        if not near_kill and gid not in st["stalled_outside_kills"]:
            st["stalled_outside_kills"].append(gid)
json.dump(st, open(path, "w"))
print(live, finished, len(st["stalled"]), len(st["stalled_outside_kills"]))
PY

start_server
echo "soak: $tables tables (ramp $ramp s), $seconds s, $kills kill -9; work dir $work"
t0=$(date +%s)
touch created.txt
[ "$ramp" -gt 0 ] || create "$tables"
echo "created $(wc -l < created.txt) games in $(( $(date +%s) - t0 )) s"
# The key goes by environment, not on the command line (which `ps` shows).
if [ "${KEY:-1}" = 0 ]; then
  RUST_LOG=info NO_COLOR=1 "$bin/xodus-ai" --server "$urls" --fill --policy heuristic "$@" > ai.log 2>&1 &
else
  TABLETOP_AGENT_KEY="$key" RUST_LOG=info NO_COLOR=1 "$bin/xodus-ai" --server "$urls" --fill --policy heuristic "$@" > ai.log 2>&1 &
fi
agent=$!
start=$(date +%s)
top_up &
topper=$!
finished_at_ramp=0
echo "t,server_rss_kb,agent_rss_kb,live,finished,stalled,stalled_outside_kills" > samples.csv
next_kill=1
while :; do
  sleep 10
  t=$(( $(date +%s) - start ))
  if [ "$next_kill" -le "$kills" ] && [ "$t" -ge $(( ramp + seconds * next_kill / (kills + 1) )) ]; then
    victim=$(( (next_kill - 1) % nodes + 1 ))
    kill -9 "${pids[$victim]}"; wait "${pids[$victim]}" 2>/dev/null
    echo "$(date +%s) $victim" >> kills.txt
    echo "t=$t s: kill -9 node $victim; restarting it"
    start_node "$victim"
    server=${pids[1]}
    next_kill=$((next_kill + 1))
  fi
  read -r live finished stalled stalled_out < <("$bin/xodus" list --server "$(live_url)" --json 2>/dev/null \
      | python3 tick.py "$(date +%s)" "$tables" state.json || echo "0 0 0 0")
  echo "$t,$(rss "$server"),$(rss "$agent"),$live,$finished,$stalled,$stalled_out" >> samples.csv
  echo "t=$t s: live $live, finished $finished, stalled>=30s $stalled ($stalled_out outside kills), rss server $(rss "$server") kB agent $(rss "$agent") kB"
  if [ "$ramp" -gt 0 ] && [ "$t" -ge "$ramp" ] && [ ! -e ramp-done.txt ]; then
    echo "$t $finished" > ramp-done.txt
    echo "t=$t s: the ramp is over; counting from here ($finished finished so far)"
  fi
  [ "$t" -ge $(( ramp + seconds )) ] && break
done
kill "$topper"; wait "$topper" 2>/dev/null
"$bin/xodus" list --server "$(live_url)" --json > final.json 2>/dev/null
if [ "$shared" = 1 ]; then
  # The live games each node owns (its leases of open or playing games).
  as_pg "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U postgres -At -F ' ' -c \
    "SELECT l.owner, count(*) FROM leases l JOIN games g ON g.id = l.game_id
      WHERE g.status IN ('open', 'playing') AND l.expires_at > now() GROUP BY l.owner ORDER BY l.owner" \
    2>/dev/null | while read -r owner n; do echo "node $owner owns $n live games at the end"; done >> owners.txt
fi
kill -TERM "$agent"; wait "$agent" 2>/dev/null
for i in $(seq 1 "$nodes"); do kill -TERM "${pids[$i]}"; wait "${pids[$i]}" 2>/dev/null; done
python3 - "$seconds" "$tables" <<'PY'
import csv, json, os, sys, re
secs, tables = int(sys.argv[1]), int(sys.argv[2])
rows = list(csv.DictReader(open("samples.csv")))
last = rows[-1]
fin = int(last["finished"])
if os.path.exists("ramp-done.txt"):
    # Counted over the measured window only, after the ramp.
    t_ramp, fin_ramp = (int(x) for x in open("ramp-done.txt").read().split())
    secs = int(last["t"]) - t_ramp
    fin -= fin_ramp
    print(f"after a {t_ramp} s ramp, over the next {secs} s:")
def col(name): return [int(r[name]) for r in rows]
srv, ai = col("server_rss_kb"), col("agent_rss_kb")
third = len(rows) // 3
def lines(path, word):
    try:
        return sum(1 for l in open(path, errors="replace") if re.search(r"\b%s\b" % word, l))
    except FileNotFoundError:
        return 0
def count(path):
    try: return sum(1 for _ in open(path))
    except FileNotFoundError: return 0
print(f"tables {tables}, {secs} s: finished {fin} ({fin * 60 / secs:.1f}/min), live at the end {last['live']}")
try:
    import json
    games = json.load(open("final.json"))
    choices = sum(int(g.get("seq", 0)) for g in games)
    done = [int(g.get("seq", 0)) for g in games if "finish" in str(g.get("status", "")).lower()]
    per_game = sum(done) / len(done) if done else 0
    total = max(int(last["t"]), 1)
    print(f"choices {choices} in {total} s ({choices / total:.0f}/s over the whole run); a finished game took {per_game:.0f} choices on average"
          + (f"; at this rate {choices / total * 60 / per_game:.1f} games/min in a steady state" if per_game else ""))
except Exception as e:
    print(f"no final game list: {e}")
print(f"games 30 s or more without a choice: {last['stalled']} ({last['stalled_outside_kills']} outside the 60 s after a kill)")
print(f"server RSS kB: start {srv[0]}, a third in {srv[third]}, end {srv[-1]}, max {max(srv)}")
print(f"agent RSS kB: start {ai[0]}, a third in {ai[third]}, end {ai[-1]}, max {max(ai)}")
import glob
logs = sorted(glob.glob("server*.log"))
errors = sum(lines(p, "ERROR") for p in logs)
warns = sum(lines(p, "WARN") for p in logs)
st = json.load(open("state.json")) if os.path.exists("state.json") else {}
print(f"games whose seq went back (an acknowledged choice lost): {len(st.get('went_back', []))}")
if os.path.exists("kills.txt"):
    from datetime import datetime
    def stamps(path, what):
        out = []
        for l in open(path, errors="replace"):
            if what in l:
                try:
                    out.append(datetime.fromisoformat(l.split()[0].replace("Z", "+00:00")).timestamp())
                except ValueError:
                    pass
        return out
    for line in open("kills.txt"):
        at, victim = (line.split() + ["1"])[:2]
        at = float(at)
        # The survivors take over what lapsed; the node, restarted under its
        # name at once, takes back its unexpired leases as it comes up.
        over = [t for p in logs if p != f"server{victim}.log" for t in stamps(p, "took the game over") if at <= t <= at + 60]
        back = [t for t in stamps(f"server{victim}.log", "took up a game whose lease names this node") if at <= t <= at + 15]
        moved = over + back
        if moved:
            print(f"kill of node {victim}: {len(back)} games taken back by it on restart, {len(over)} taken over by the others; "
                  f"the last {max(moved) - at:.1f} s after the kill")
        else:
            print(f"kill of node {victim}: no game moved")
if os.path.exists("owners.txt"):
    print(open("owners.txt").read().strip())
print(f"server logs: {errors} ERROR, {warns} WARN; "
      f"agent log: {lines('ai.log', 'ERROR')} ERROR, {lines('ai.log', 'WARN')} WARN; creates failed: {count('create-failed.txt')}")
PY
echo "logs and samples in $work"
