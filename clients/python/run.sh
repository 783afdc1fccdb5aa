#!/usr/bin/env bash
# Proof from another language: generates a Python client from proto/ with
# grpcio-tools, starts the debug xodus-server on a free port with a
# throwaway data directory, and plays full games against it: X-ODUS with
# play.py, VII Legio with play_legio.py.
# Exits non-zero when anything fails. Run from anywhere; .ci/run calls it
# after `cargo build --workspace --bins`.
#
# Needs python3 (3.11) with venv, and PyPI for the first run: the packages
# in requirements.txt go into a virtualenv in .ci/.tools/pyenv (git ignores
# .ci/.tools), made again whenever requirements.txt or the Python changes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

python="${PYTHON:-python3}"
venv="$root/.ci/.tools/pyenv"
stamp="$venv/.requirements-stamp"
want="$("$python" -c 'import sys; print(sys.version)' | head -1) $(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "python client: installing requirements into $venv"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --only-binary=:all: -r "$here/requirements.txt"
  echo "$want" > "$stamp"
fi
py="$venv/bin/python"

# Generate the code from the .proto files alone (well-known types come with
# grpcio-tools).
gen="$here/gen"
rm -rf "$gen"
mkdir -p "$gen"
mapfile -t protos < <(cd proto && find . -name '*.proto' | sed 's|^\./||' | sort)
(cd proto && "$py" -m grpc_tools.protoc -I. --python_out="$gen" --pyi_out="$gen" \
  --grpc_python_out="$gen" "${protos[@]}")

server="${XODUS_SERVER:-$root/target/debug/xodus-server}"
if [ ! -x "$server" ]; then
  echo "python client: $server is missing; building it"
  cargo build --workspace --bins
fi

work="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Port 0: the server picks a free port and prints "listening on ADDR" first;
# it also listens on a Unix socket, which the second run below dials.
sock="$work/xodus.sock"
# The output file exists before the server starts (the background shell
# creates it only when it gets to run).
: >"$work/server.out"
"$server" --listen 127.0.0.1:0 --listen "unix:$sock" --data-dir "$work/data" --rate-limit 100000 \
  >"$work/server.out" 2>"$work/server.err" &
pid=$!
addr=""
for _ in $(seq 1 300); do
  addr="$(sed -n 's/^listening on //p' "$work/server.out" | head -1)"
  [ -n "$addr" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$addr" ]; then
  echo "python client: the server did not start" >&2
  cat "$work/server.out" "$work/server.err" >&2
  exit 1
fi

# play.py waits for the gRPC health check to say SERVING, then plays.
status=0
XODUS_PY_GEN="$gen" "$py" "$here/play.py" --server "$addr" "$@" || status=$?
# The same client over the Unix socket (gRPC's own `unix:PATH` target).
if [ "$status" -eq 0 ]; then
  XODUS_PY_GEN="$gen" "$py" "$here/play.py" --server "unix:$sock" --extra-games 0 --seed 3030 || status=$?
fi
# VII Legio: whole 2-, 3- and 4-seat games, secrecy checked at every step
# (of the arguments, it takes only --strict).
legio_args=()
for a in "$@"; do
  if [ "$a" = "--strict" ]; then legio_args+=(--strict); fi
done
if [ "$status" -eq 0 ]; then
  XODUS_PY_GEN="$gen" "$py" "$here/play_legio.py" --server "$addr" "${legio_args[@]}" || status=$?
fi
# Table talk (lines, signals, audiences, refusals, mutes, history) and
# hints, with an AI agent started from the same build as the server.
if [ "$status" -eq 0 ]; then
  XODUS_PY_GEN="$gen" "$py" "$here/talk.py" --server "$addr" --ai "$(dirname "$server")/xodus-ai" || status=$?
fi
if ! kill -0 "$pid" 2>/dev/null; then
  echo "python client: the server died during the run" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "python client: FAILED; server log:" >&2
  tail -n 40 "$work/server.err" >&2
fi
exit "$status"
