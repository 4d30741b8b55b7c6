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
# AFL++ runs one main (-M) and N-1 secondary (-S) instances on build-fuzz/afl/bin/TARGET
# with the seeds within the target's max_len; its new queue entries are merged with the
# libFuzzer binary, its crashes and hangs are filed only when the libFuzzer binary
# reproduces them; its summary gives edges found and queue size instead of cov/ft.
# --no-merge leaves corpus/TARGET/ as it is (a smoke run, e.g. make report): new inputs are
# counted, not kept; crashes are still filed.
# Binaries come from tools/setup_fuzz.sh (FUZZ_BUILD, default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage 0 ;; esac
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
# Only the [libfuzzer] section: [asan] and [ubsan] hold sanitizer options (ASAN_OPTIONS).
lf_opts=()
if [ -f "corpus/$target.options" ]; then
  section=""
  while IFS='=' read -r key value; do
    key=$(echo "$key" | tr -d ' '); value=$(echo "$value" | sed 's/^ *//; s/ *$//')
    case $key in '['*) section=$key; continue ;; ''|'#'*) continue ;; esac
    [ "$section" = "[libfuzzer]" ] || continue
    [ "$key" = dict ] && value="corpus/$value"
    lf_opts+=("-$key=$value")
  done < "corpus/$target.options"
  asan=$(sed -n '/^\[asan\]/,/^\[/{/=/p}' "corpus/$target.options" | tr -d ' ' | paste -sd: -)
  [ -z "$asan" ] || export ASAN_OPTIONS="$asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi

case $build in /*) ;; *) build=$PWD/$build ;; esac  # FUZZ_BUILD may be absolute
work=$build/campaigns/$target-$(date +%Y%m%d-%H%M%S)
mkdir -p "$work/new" "$work/artifacts"

filed_slugs=""
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
  # One file per kind of failure and place per campaign: AFL++ keeps every crashing
  # input with a new path, most of them the same bug.
  if [[ " $filed_slugs " == *" ${slug:-crash} "* ]]; then
    echo "run_fuzz: $input breaks the same way as a crash filed in this campaign (${slug:-crash}); not filed again"
    return
  fi
  filed_slugs="$filed_slugs ${slug:-crash}"
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
    command -v afl-fuzz > /dev/null || { echo "run_fuzz: afl-fuzz missing; run tools/setup_fuzz.sh --afl" >&2; exit 2; }
    out=$work/afl
    # A container: no CPU governor to inspect, a read-only core_pattern, cores shared with
    # other jobs (no pinning); a log file rather than the curses screen; the seeds are
    # already minimized, so calibrate them quickly.
    export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1
    # AFL++ sees signals, not exit codes: every sanitizer finding must abort. The limits are
    # libFuzzer's defaults (-rss_limit_mb=2048, -malloc_limit_mb=2048), so both engines call
    # the same inputs crashes. Leaks are left to the libFuzzer replay of each finding (a
    # persistent-mode process only checks at exit), and so are allocation stacks (unwinding
    # on every malloc costs a large share of the speed).
    export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:malloc_context_size=0:allocator_may_return_null=0:max_allocation_size_mb=2048:hard_rss_limit_mb=2048
    export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0
    dict=(); [ -f "corpus/$target.dict" ] && dict=(-x "corpus/$target.dict")
    maxlen=$(grep -oE 'max_len *= *[0-9]+' "corpus/$target.options" 2>/dev/null | grep -oE '[0-9]+$' || echo 65536)
    [ "$maxlen" -le 1048576 ] || maxlen=1048576
    # AFL++ wants small seeds: the ones within max_len (never above 1 MiB); the rest are
    # skipped, not truncated (a cut model only exercises the end-of-input refusal).
    seeds=$work/afl-seeds; mkdir -p "$seeds"
    find "$corpus" -maxdepth 1 -type f -size -"$((maxlen + 1))"c -exec cp -t "$seeds" {} +
    skipped=$(( $(count_files "$corpus") - $(count_files "$seeds") ))
    [ "$skipped" -eq 0 ] || echo "run_fuzz: $skipped seeds above $maxlen bytes left out of the AFL++ run" >&2
    [ "$(count_files "$seeds")" -gt 0 ] || printf '\x08\x07' > "$seeds/ir-version-only"
    # -G caps generated inputs at the libFuzzer max_len; -t 5000 ms (an ASan run of a
    # seed takes about 1 ms; hangs are confirmed against libFuzzer's -timeout=25 below).
    afl_args=(-i "$seeds" -o "$out" "${dict[@]}" -G "$maxlen" -V "$seconds" -m none -t 5000)
    pids=()
    trap 'kill "${pids[@]}" 2> /dev/null; exit 130' INT TERM
    afl-fuzz -M main "${afl_args[@]}" -- "$aflbin" > "$work/afl-main.log" 2>&1 & pids+=($!)
    # Secondaries differ in power schedule, so they do not all chase the same entries.
    schedules=(explore coe rare lin quad exploit)
    for k in $(seq 1 $((jobs - 1))); do
      afl-fuzz -S "secondary$k" -p "${schedules[$(((k - 1) % ${#schedules[@]}))]}" "${afl_args[@]}" -- "$aflbin" \
        > "$work/afl-secondary$k.log" 2>&1 & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done
    trap - INT TERM
    if [ ! -f "$out/main/fuzzer_stats" ]; then
      echo "run_fuzz: afl-fuzz did not start; the end of $work/afl-main.log:" >&2
      sed 's/\x1b\[[0-9;]*m//g' "$work/afl-main.log" | tail -15 >&2
      exit 2
    fi
    afl_stat() { awk -F: -v k="$1" '$1 ~ "^"k" *$" {gsub(/[ %]/, "", $2); print $2; exit}' "$2"; }
    execs=0 rate=0
    for s in "$out"/*/fuzzer_stats; do
      execs=$((execs + $(afl_stat execs_done "$s")))
      rate=$(awk -v a="$rate" -v b="$(afl_stat execs_per_sec "$s")" 'BEGIN {printf "%.0f", a + b}')
    done
    main=$out/main/fuzzer_stats
    covft="edges: $(afl_stat edges_found "$main")/$(afl_stat total_edges "$main") ($(afl_stat bitmap_cvg "$main")%) queue: $(afl_stat corpus_count "$main")"
    # Findings: confirmed on the libFuzzer binary (same code, same sanitizers, libFuzzer's
    # 25 s timeout) before they are filed; one that does not reproduce there is listed.
    unconfirmed=0
    for f in "$out"/*/crashes/id:* "$out"/*/hangs/id:*; do
      [ -f "$f" ] || continue
      if timeout 120 "$bin" "${lf_opts[@]}" -timeout=25 "$f" > "$work/confirm.log" 2>&1; then
        unconfirmed=$((unconfirmed + 1)); echo "run_fuzz: AFL++ finding not reproduced by $bin: $f" >&2
      else
        crashes=$((crashes + 1)); file_crash "$f"
      fi
    done
    # New queue entries (not the seeds, named orig:), one file per distinct content:
    # the instances import each other's finds.
    mkdir -p "$work/afl-new"
    for f in "$out"/*/queue/id:*; do
      case $f in *orig:*) continue ;; esac
      cp "$f" "$work/afl-new/$(sha1sum < "$f" | cut -c1-40)"
    done
    new_dirs=("$work/afl-new")
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
summary="$target: engine=$engine seconds=$seconds jobs=$jobs execs=${execs:-0} execs/s=${rate:-0} ${covft:-cov: ? ft: ?} new_inputs=$((after - before)) crashes=$crashes${unconfirmed:+ unconfirmed=$unconfirmed}"
echo "$summary"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $summary" >> "$build/campaigns/summary.log"
[ "$crashes" -eq 0 ]
