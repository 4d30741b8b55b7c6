#!/usr/bin/env bash
# Memcheck over the fuzz targets' replay binaries (README "Sanitizers": Valgrind where
# MemorySanitizer is not practical). A non-sanitized build runs one TARGET_replay under
#   valgrind --error-exitcode=1 --leak-check=full
# over every input of corpus/regression/, a bounded sample of corpus/TARGET/ and the
# committed hostile corpus (spec sections 1-7 on the inputs the project collected).
#
#   harness/valgrind/run_valgrind.sh REPLAY_BINARY TARGET
#
# Environment: VALGRIND (default valgrind); GAUNTLET_VALGRIND_SAMPLE, the most files
# taken from corpus/TARGET/ (default 1000, evenly spaced in name order, so the same
# files are taken every run while the corpus grows from campaigns).
# Hostile cases above 1 MB are left out: the two "accept-slow" models (100k nodes) take
# most of the time under Valgrind and add no code path the small cases lack.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '7p' "$0" | sed 's/^# *//' >&2; exit 2; }
replay=$1 target=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
sample=${GAUNTLET_VALGRIND_SAMPLE:-1000}

# Regular files only (the hostile corpus holds link loops and links that lead outside);
# notes beside the inputs are skipped, as the replay driver does.
list() { find "$@" -type f ! -name '*.txt' ! -name '*.md' ! -name '.*' 2>/dev/null | LC_ALL=C sort; }

inputs=()
mapfile -t -O "${#inputs[@]}" inputs < <(list "$root/corpus/regression")
mapfile -t -O "${#inputs[@]}" inputs < <(list "$root/corpus/$target" |
  awk -v n="$sample" '{ line[NR] = $0 } END { if (NR <= n) n = NR; for (k = 0; k < n; ++k) print line[1 + int(k * NR / n)] }')
mapfile -t -O "${#inputs[@]}" inputs < <(list "$root/hostile/corpus" -size -1025k ! -name '*.json')
[ "${#inputs[@]}" -gt 0 ] || { echo "run_valgrind: no inputs for $target" >&2; exit 2; }
echo "run_valgrind: $target over ${#inputs[@]} inputs"

# --error-exitcode makes any memcheck error (invalid read/write, uninitialised value in
# a branch, bad free) and any definite or possible leak fail the test; the replay driver
# names each file on stderr just before running it, so a report points at its input.
exec "${VALGRIND:-valgrind}" -q --error-exitcode=1 --leak-check=full "$replay" "${inputs[@]}"
