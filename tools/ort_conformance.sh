#!/usr/bin/env bash
# Conformance of the .ort reader against ONNX Runtime (issue 17): ONNX Runtime (npm
# onnxruntime-node, tools/install_peer.sh) writes the .ort of every backend test model;
# our dump of each .ort must equal our dump of its .onnx after the normalizations ONNX
# Runtime applies (docs/ort-normalizations.md). Models ONNX Runtime cannot load are
# listed with its own error. The last line is `N passed, N failed`; exit 1 on a failure,
# 77 (a skip, with the reason) when node or the npm peer is missing.
#
#   tools/ort_conformance.sh [--subset N] [--peer DIR] [DIR]
# DIR defaults to ../shared/data/onnx-backend-1.23 (beside the repository) when present,
# else to the data set generated from the installed Python onnx (as tools/sweep.sh).
# --subset N: N models spread evenly over the sorted list (make test uses it).
# BUILD (default: build) names the build directory holding bin/dump-all.
#
#   tools/ort_conformance.sh run [--models-from DIR] [--file NAME] [--subset N] [--timeout S]
#                                [--peer DIR] [--out DIR] [--expect-refused] [DATA]
# The run part (issue 18): ONNX Runtime loads each model file (the original model.onnx,
# or DIR/<rel>/NAME that our writers made), runs it on test_data_set_0 and its outputs
# must equal the expected ones within the backend test's tolerance; see
# tools/ort/run_conformance.py --help and docs/ort.md.
#
#   tools/ort_conformance.sh writers [--subset N] [--peer DIR] [--parts P,P] [DATA]
# The writers' part (issue 18, conformance 1 to 3 on our outputs): our .onnx and .ort written
# from every model, read back by our reader (and the onnx package), run by ONNX Runtime, and
# our external .ort refused by it for its external data; see tools/ort/writers.py --help.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
if [ "${1:-}" = run ]; then
  shift
  exec "$PY" "$root/tools/ort/run_conformance.py" "$@"
fi
build=${BUILD:-build}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
if [ "${1:-}" = writers ]; then
  shift
  exec "$PY" "$root/tools/ort/writers.py" --build "$build" "$@"
fi

opts=()
data=""
while [ $# -gt 0 ]; do
  case "$1" in
    --help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --subset|--peer) [ $# -ge 2 ] || { echo "ort_conformance: $1 needs a value" >&2; exit 2; }
                     opts+=("$1" "$2"); shift 2 ;;
    -*) echo "ort_conformance: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$data" ] || { echo "ort_conformance: one DIR only" >&2; exit 2; }
       data=$1; shift ;;
  esac
done
if [ -z "$data" ]; then
  shared="$root/../shared/data/onnx-backend-1.23"
  if [ -d "$shared" ]; then
    data=$(cd "$shared" && pwd)
  else
    echo "ort_conformance: $shared is absent; using the data set generated from the installed Python onnx" >&2
    data=$("$PY" "$root/tools/gen_backend_data.py" "$build")
  fi
fi
[ -d "$data" ] || { echo "ort_conformance: no data directory $data" >&2; exit 2; }
[ -x "$build/bin/dump-all" ] || { echo "ort_conformance: $build/bin/dump-all is missing; build first" >&2; exit 2; }
exec "$PY" "$root/tools/ort/conformance.py" --build "$build" "${opts[@]}" "$data"
