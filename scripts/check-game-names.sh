#!/usr/bin/env bash
# Checks that no product code outside a game's own folder names a game: a
# game lives in games/<game>/ (rules, wire, host adapter) and in a games/
# folder of each tier (ai-agent/src/games/, cli-client/src/games/); each
# binary registers its games in one list inside those folders (the server's
# in server/src/lib.rs). The API crate's src/lib.rs and build.rs list the
# proto packages. Tests may name any game. Prints each offending line and
# exits 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."

pattern='xodus_(engine|wire|host|pb)|legio_(engine|wire|host|pb)|high_card|pb::(xodus|legio)|"(xodus|legio|high-card)"'
allowed='^(games/|[a-z-]+/src/games/|server/src/lib\.rs|src/lib\.rs|build\.rs)'

found=0
while IFS= read -r file; do
  [[ "$file" =~ $allowed ]] && continue
  # Code after a file's test module is test code.
  hits=$(awk '/^#\[cfg\(test\)\]/ { exit } { print FILENAME ":" FNR ": " $0 }' "$file" | grep -E "$pattern" || true)
  if [[ -n "$hits" ]]; then
    echo "$hits"
    found=1
  fi
done < <(git ls-files -- '*.rs' | grep -Ev '(^|/)(tests|benches|examples)/|(^|/)tests?\.rs$|_tests?\.rs$|/tests/')

if [[ $found -ne 0 ]]; then
  echo "check-game-names: the lines above name a game outside its folder or a registration list" >&2
  exit 1
fi
echo "check-game-names: no game named outside games/ folders and registration lists"
