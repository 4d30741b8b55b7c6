#!/usr/bin/env bash
# Source-based coverage of importer/: builds with clang -fprofile-instr-generate
# -fcoverage-mapping into build-fuzzcov/, runs every CTest test (the Boost suites, the
# hostile corpus, and the fuzz replay binaries over corpus/regression/ and every seed
# corpus corpus/TARGET/), then writes an llvm-cov HTML report and a one-line summary of
# line and branch coverage of importer/.
# Environment: COV_BUILD (default build-fuzzcov), JOBS (default: nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_deps.sh clang llvm

build=${COV_BUILD:-build-fuzzcov}
jobs=${JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Debug -DGAUNTLET_COVERAGE=ON
fi
cmake --build "$build" -j "$jobs"

profiles=$PWD/$build/profiles
rm -rf "$profiles" && mkdir -p "$profiles"
# %m keeps one file per binary, %p one per process: parallel tests never share a file.
(cd "$build" && LLVM_PROFILE_FILE="$profiles/%p-%m.profraw" ctest -j "$jobs" --output-on-failure) || \
  echo "coverage: some tests failed (coverage still reported)" >&2
llvm-profdata merge -sparse "$profiles"/*.profraw -o "$build/coverage.profdata"

objects=()
for b in "$build"/bin/*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  if [ ${#objects[@]} -eq 0 ]; then objects+=("$b"); else objects+=(-object "$b"); fi
done
importer=$PWD/importer
llvm-cov show -format=html -output-dir="$build/coverage-html" -show-branches=count \
  -instr-profile="$build/coverage.profdata" "${objects[@]}" "$importer" > /dev/null
llvm-cov export -summary-only -instr-profile="$build/coverage.profdata" "${objects[@]}" "$importer" \
  > "$build/coverage-summary.json"
summary=$(/usr/bin/python3 - "$build/coverage-summary.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["data"][0]["totals"]
def f(k): return f'{t[k]["percent"]:.1f}% ({t[k]["covered"]}/{t[k]["count"]})'
print(f'coverage importer/: lines {f("lines")}, branches {f("branches")}, functions {f("functions")}')
PY
)
echo "$summary" | tee "$build/coverage-summary.txt"
echo "coverage: HTML report in $build/coverage-html/index.html"
