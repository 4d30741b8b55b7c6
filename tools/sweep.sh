#!/usr/bin/env bash
# The backend-test sweep (spec section 8): imports every model.onnx under DIR with the
# importer (build/bin/dump-all, one process), dumps the same models with the Python onnx
# package (tools/onnx_dump.py, one process), and compares the dumps. The per-model table
# goes to $BUILD/sweep/<data set>/table.tsv; the last line is `N passed, N failed`
# (`, N skipped` with the reasons' file). Exit 1 on any failure.
#
#   tools/sweep.sh [DIR]     also: make sweep DATA=DIR
# DIR defaults to ../shared/data/onnx-backend-1.23 (beside the repository) when present,
# else to the data set generated from the installed Python onnx into
# $BUILD/backend-data-<onnx version>/ (generated once, then cached).
# BUILD (default: build) names the build directory holding bin/dump-all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$root/$build" ;; esac

if [ "${1:-}" = "--help" ] || [ $# -gt 1 ]; then
  sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
  [ $# -gt 1 ] && exit 2 || exit 0
fi

data=${1:-}
if [ -z "$data" ]; then
  shared="$root/../shared/data/onnx-backend-1.23"
  if [ -d "$shared" ]; then
    data=$(cd "$shared" && pwd)
  else
    echo "sweep: $shared is absent; using the data set generated from the installed Python onnx" >&2
    data=$("$PY" "$root/tools/gen_backend_data.py" "$build")
  fi
fi
if [ ! -d "$data" ]; then
  echo "sweep: no data directory $data" >&2
  exit 2
fi
dump_all="$build/bin/dump-all"
if [ ! -x "$dump_all" ]; then
  echo "sweep: $dump_all is missing; build first (make build, or BUILD=...)" >&2
  exit 2
fi

out="$build/sweep/$(basename "$data")"
rm -rf "$out"
mkdir -p "$out"
now() { date +%s.%N; }

# dump-all exits 1 when it refused a model: that is a result for the table, not an error.
t0=$(now)
rc=0
"$dump_all" "$data" "$out/cpp" > "$out/cpp.log" || rc=$?
t1=$(now)
if [ "$rc" -gt 1 ]; then
  cat "$out/cpp.log" >&2
  echo "sweep: dump-all failed with exit $rc" >&2
  exit 2
fi
"$PY" "$root/tools/onnx_dump.py" --dir "$data" "$out/py" > "$out/py.log"
t2=$(now)

echo "sweep: $data"
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
"$PY" "$root/sweep/report.py" "$out" "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")"
