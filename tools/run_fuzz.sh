#!/usr/bin/env bash
# One fuzzing campaign on one target (issue 6; ARCHITECTURE.md "Fuzzing").
#
#   tools/run_fuzz.sh TARGET [--seconds S] [--jobs N] [--engine libfuzzer|afl] [--no-merge]
#   tools/run_fuzz.sh TARGET --compare-mutator RUNS [--seeds DIR]
#       coverage after RUNS executions from the same seeds (default corpus/TARGET/),
#       with and without the custom mutator
#
# Runs over corpus/TARGET/ with corpus/TARGET.dict and corpus/TARGET.options, merges
# new coverage back into corpus/TARGET/ (libFuzzer -merge=1), minimizes every crash and
# files it under corpus/regression/TARGET/ with a note holding the command that
# reproduces it, and prints one summary line: execs/s, coverage, new inputs, crashes.
# AFL++ runs one main (-M) and N-1 secondary (-S) instances on the same target.
# --no-merge leaves corpus/TARGET/ as it is (a smoke run, e.g. make report): new inputs are
# counted, not kept; crashes are still filed.
# Binaries come from tools/setup_fuzz.sh (FUZZ_BUILD, default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
target=$1; shift
seconds=60 jobs=1 engine=libfuzzer compare_runs="" seeds_dir="" merge=1
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --compare-mutator) compare_runs=$2; shift 2 ;;
    --seeds) seeds_dir=$2; shift 2 ;;
    --no-merge) merge=0; shift ;;
    -h|--help) usage ;;
    *) echo "run_fuzz: unknown argument $1" >&2; usage ;;
  esac
done

build=${FUZZ_BUILD:-build-fuzz}
bin=$build/bin/$target
corpus=corpus/$target
regression=corpus/regression/$target
[ -x "$bin" ] || { echo "run_fuzz: $bin missing; run tools/setup_fuzz.sh first" >&2; exit 2; }
mkdir -p "$corpus" "$regression"

# corpus/TARGET.options ([libfuzzer] key = value) as libFuzzer flags; the dict path is
# relative to corpus/, as OSS-Fuzz expects it next to the binary.
lf_opts=()
if [ -f "corpus/$target.options" ]; then
  while IFS='=' read -r key value; do
    key=$(echo "$key" | tr -d ' '); value=$(echo "$value" | sed 's/^ *//; s/ *$//')
    case $key in ''|'['*|'#'*) continue ;; dict) value="corpus/$value" ;; esac
    lf_opts+=("-$key=$value")
  done < "corpus/$target.options"
fi

work=$PWD/$build/campaigns/$target-$(date +%Y%m%d-%H%M%S)
mkdir -p "$work/new" "$work/artifacts"

count_files() { find "$1" -type f 2>/dev/null | wc -l; }

# Files one crashing input: minimized, named after what broke, with its reproducer.
file_crash() {
  local input=$1 min=$work/min-$(basename "$1")
  "$bin" "${lf_opts[@]}" -minimize_crash=1 -runs=20000 -exact_artifact_path="$min" "$input" \
    > "$work/minimize.log" 2>&1 || true
  [ -s "$min" ] || cp "$input" "$min"
  local report what slug sha dest
  report=$("$bin" "${lf_opts[@]}" "$min" 2>&1 || true)
  what=$(echo "$report" | grep -m1 -oE 'FUZZ INVARIANT BROKEN: [^:]*|SUMMARY: [A-Za-z]+Sanitizer: [a-z-]+[^/]*|ERROR: libFuzzer: [a-z-]+' || echo "crash")
  # The first frame inside the importer says where it broke.
  where=$(echo "$report" | grep -m1 -oE 'in (onnximport::)?[A-Za-z_:]+.* /[^ ]*importer/src/[^ :]*' | sed -E 's|.*/importer/src/||; s|\.[a-z]+$||' || true)
  slug=$(echo "$what ${where:-}" | sed -E 's/FUZZ INVARIANT BROKEN: //; s/SUMMARY: [A-Za-z]+Sanitizer: //; s/ERROR: libFuzzer: //' |
         tr 'A-Z' 'a-z' | tr -c 'a-z0-9' '-' | sed -E 's/-+/-/g; s/^-//; s/-$//' | cut -c1-60)
  sha=$(sha1sum "$min" | cut -c1-8)
  dest=$regression/${slug:-crash}-$sha
  cp "$min" "$dest"
  {
    echo "target: $target"
    echo "found: $(date -u +%Y-%m-%dT%H:%M:%SZ) by tools/run_fuzz.sh ($engine)"
    echo "reproduce: $bin $dest"
    echo "replay (no fuzzer): build/bin/${target}_replay $dest"
    echo "report:"
    echo "$report" | grep -E 'INVARIANT|ERROR|SUMMARY|#[0-9]+ 0x' | head -20 | sed 's/^/  /'
  } > "$dest.txt"
  echo "run_fuzz: crash filed as $dest"
}

stat_of() { grep -m1 -oE "$1: *[0-9.]+" "$2" 2>/dev/null | grep -oE '[0-9.]+$' || echo 0; }

if [ -n "$compare_runs" ]; then
  # Same seeds, same dictionary, same seed for the RNG, same number of executions.
  for variant in "$target" "${target}_plain"; do
    [ -x "$build/bin/$variant" ] || { echo "run_fuzz: $build/bin/$variant missing" >&2; exit 2; }
    out=$work/compare-$variant; mkdir -p "$out"
    "$build/bin/$variant" "${lf_opts[@]}" -seed=1 -runs="$compare_runs" -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/" "$out" "${seeds_dir:-$corpus}" > "$work/compare-$variant.log" 2>&1 || true
    covft=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/compare-$variant.log" | tail -1)
    echo "$variant: runs=$compare_runs $covft new_inputs=$(count_files "$out") execs/s=$(stat_of stat::average_exec_per_sec "$work/compare-$variant.log")"
  done
  exit 0
fi

before=$(count_files "$corpus")
crashes=0
case $engine in
  libfuzzer)
    log=$work/fuzz.log
    if [ "$jobs" -le 1 ]; then
      "$bin" "${lf_opts[@]}" -max_total_time="$seconds" -print_final_stats=1 -timeout=25 \
        -artifact_prefix="$work/artifacts/" "$work/new" "$corpus" > "$log" 2>&1 || true
    else
      # -jobs/-workers: N processes, each logging to fuzz-K.log in the working directory.
      root=$PWD
      (cd "$work" && "$root/$bin" "${lf_opts[@]/-dict=corpus\//-dict=$root/corpus/}" \
         -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" -print_final_stats=1 -timeout=25 \
         -artifact_prefix="$work/artifacts/" "$work/new" "$root/$corpus" > /dev/null 2>&1 || true)
      cat "$work"/fuzz-*.log > "$log" 2>/dev/null || true
    fi
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | awk '{s += $2} END {print s + 0}')
    rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | awk '{s += $2} END {print s + 0}')
    covft=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    for f in "$work"/artifacts/crash-* "$work"/artifacts/leak-* "$work"/artifacts/timeout-* "$work"/artifacts/oom-*; do
      [ -f "$f" ] || continue
      crashes=$((crashes + 1)); file_crash "$f"
    done
    new_dirs=("$work/new")
    ;;
  afl)
    aflbin=$build/afl/bin/$target
    [ -x "$aflbin" ] || { echo "run_fuzz: $aflbin missing; run tools/setup_fuzz.sh --afl" >&2; exit 2; }
    out=$work/afl
    export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
    dict=(); [ -f "corpus/$target.dict" ] && dict=(-x "corpus/$target.dict")
    maxlen=$(grep -oE 'max_len *= *[0-9]+' "corpus/$target.options" 2>/dev/null | grep -oE '[0-9]+$' || echo 65536)
    # AFL++ wants small seeds: the ones within max_len.
    seeds=$work/afl-seeds; mkdir -p "$seeds"
    find "$corpus" -type f -size -"$((maxlen / 1024 + 1))"k -exec cp {} "$seeds/" \;
    pids=()
    afl-fuzz -M main -i "$seeds" -o "$out" "${dict[@]}" -V "$seconds" -m none -t 2000 -- "$aflbin" \
      > "$work/afl-main.log" 2>&1 & pids+=($!)
    for k in $(seq 1 $((jobs - 1))); do
      afl-fuzz -S "secondary$k" -i "$seeds" -o "$out" "${dict[@]}" -V "$seconds" -m none -t 2000 -- "$aflbin" \
        > "$work/afl-secondary$k.log" 2>&1 & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done
    execs=0 rate=0
    for s in "$out"/*/fuzzer_stats; do
      [ -f "$s" ] || continue
      execs=$((execs + $(awk -F: '/^execs_done/ {gsub(/ /,"",$2); print $2}' "$s")))
      rate=$(awk -F: -v r="$rate" '/^execs_per_sec/ {gsub(/ /,"",$2); print r + $2}' "$s")
    done
    covft="bitmap_cvg $(awk -F: '/^bitmap_cvg/ {gsub(/ /,"",$2); print $2}' "$out/main/fuzzer_stats" 2>/dev/null)"
    for f in "$out"/*/crashes/id:* "$out"/*/hangs/id:*; do
      [ -f "$f" ] || continue
      crashes=$((crashes + 1)); file_crash "$f"
    done
    new_dirs=("$out"/*/queue)
    ;;
  *) echo "run_fuzz: unknown engine $engine" >&2; exit 2 ;;
esac

# Keep what adds coverage (seeds first, so existing files are preferred).
if [ "$merge" -eq 1 ]; then
  "$bin" "${lf_opts[@]}" -merge=1 "$corpus" "${new_dirs[@]}" > "$work/merge.log" 2>&1 || true
  after=$(count_files "$corpus")
else
  found=0
  for d in "${new_dirs[@]}"; do found=$((found + $(count_files "$d"))); done
  after=$((before + found))
fi
summary="$target: engine=$engine seconds=$seconds jobs=$jobs execs=${execs:-0} execs/s=${rate:-0} ${covft:-cov: ? ft: ?} new_inputs=$((after - before)) crashes=$crashes"
echo "$summary"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $summary" >> "$build/campaigns/summary.log"
[ "$crashes" -eq 0 ]
