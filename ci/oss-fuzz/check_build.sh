#!/usr/bin/env bash
# ctest oss_fuzz_build: ci/oss-fuzz/build.sh run the way OSS-Fuzz's build step runs it ($SRC,
# $OUT and $WORK folders; clang; ASan and the fuzzer's coverage hooks in CFLAGS and CXXFLAGS;
# $LIB_FUZZING_ENGINE), with the local clang, in a scratch folder. Then every target of
# corpus/*.options must be in $OUT with its dictionary, options and seed archive, and each
# fuzzer must run every seed of its archive once (-runs=0) without a finding.
#
#   ci/oss-fuzz/check_build.sh [SCRATCH]      (default: a temporary folder, removed after)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$scratch"' EXIT
command -v clang++ > /dev/null || { echo "check_build: clang++ is not installed; skipped"; exit 77; }

export SRC=$scratch/src OUT=$scratch/out WORK=$scratch/work
mkdir -p "$SRC" "$OUT" "$WORK"
export CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer
sanitize="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope"
export CFLAGS="$sanitize -fsanitize=fuzzer-no-link" CXXFLAGS="$sanitize -fsanitize=fuzzer-no-link"
log=$scratch/build.log
"$root/ci/oss-fuzz/build.sh" > "$log" 2>&1 || { tail -30 "$log"; echo "check_build: build.sh failed"; exit 1; }

failed=0
for options in "$root"/corpus/*.options; do
  t=$(basename "$options" .options)
  if [ ! -x "$OUT/$t" ]; then
    if [ "$t" = fuzz_diff_protobuf ] && grep -q "fuzz_diff_protobuf skipped" "$log"; then
      echo "check_build: $t skipped by build.sh: $(grep -m1 'fuzz_diff_protobuf skipped' "$log")"
      continue
    fi
    echo "check_build: FAIL $t is not in \$OUT"; failed=1; continue
  fi
  for f in "$t.dict" "$t.options" "${t}_seed_corpus.zip"; do
    [ -s "$OUT/$f" ] || { echo "check_build: FAIL $OUT/$f is missing"; failed=1; }
  done
  seeds=$WORK/seeds-$t && mkdir -p "$seeds" && unzip -q -o "$OUT/${t}_seed_corpus.zip" -d "$seeds"
  # The replay of every seed, with the target's options as OSS-Fuzz passes them.
  if (cd "$OUT" && ASAN_OPTIONS=detect_leaks=1 "./$t" -runs=0 -dict="$t.dict" "$seeds" > "$WORK/$t.log" 2>&1); then
    echo "check_build: ok $t ($(find "$seeds" -type f | wc -l) seeds)"
  else
    tail -20 "$WORK/$t.log"; echo "check_build: FAIL $t on its seeds"; failed=1
  fi
done
exit $failed
