#!/usr/bin/env bash
# Runs any importer over the hostile corpus (hostile/README.md) and prints a table in
# the style of JSONTestSuite: one line per case, then `N passed, N failed`.
#
#   tools/run_corpus.sh [--timeout S] [--jobs N] [--results FILE] [--skip FILE] [--with-options] [--quiet] CMD [DIR]
#
# CMD is run as `CMD DIR/FILE` (word-split, so "build/bin/onnximport check" works) for
# each case of DIR (default hostile/corpus). Exit 0 means accepted, any other exit means refused; a
# signal (exit > 128), a sanitizer report on stderr or exit 124 from the timeout is a
# CRASH or TIMEOUT. Cases the manifest marks with options (max_nesting, external_dir,
# ort_data, threads, import from bytes) need an importer that understands them: they are
# skipped unless --with-options is given, which passes --max-nesting N / --external-dir DIR
# / --ort-data FILE / --threads N in the syntax of onnximport check (import-from-bytes
# cases are always skipped). Cases marked
# generated_only that are missing from DIR (the committed corpus) are skipped too.
# --skip FILE (repeatable) leaves a case out, shown as skip(listed): an importer's known
# difference that would otherwise hang the run.
# --jobs N runs N cases at a time (default 1; the table keeps the manifest's order);
# --results FILE also writes every case's status, exit code and seconds as JSON.
# Exit status: 0 when nothing failed, 1 otherwise, 2 for a usage error.
set -uo pipefail

timeout_s=10
jobs=1
results=""
skip_list=" "
with_options=0
quiet=0
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) timeout_s="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --skip) skip_list="$skip_list$2 "; shift 2 ;;
    --with-options) with_options=1; shift ;;
    --quiet) quiet=1; shift ;;
    -h|--help) sed -n '2,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: tools/run_corpus.sh [--timeout S] [--jobs N] [--results FILE] [--skip FILE] [--with-options] [--quiet] CMD [DIR]" >&2
  exit 2
fi
case "$jobs" in ''|*[!0-9]*|0) echo "run_corpus: --jobs takes a positive number" >&2; exit 2 ;; esac
case "$timeout_s" in ''|*[!0-9.]*) echo "run_corpus: --timeout takes a number of seconds" >&2; exit 2 ;; esac
cmd="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${2:-$root/hostile/corpus}"
manifest="$dir/manifest.json"
[ -f "$manifest" ] || { echo "run_corpus: no manifest.json in $dir" >&2; exit 2; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# One line per case: file, expect, kind, extra arguments ("-" when none, "SKIP" when the
# options cannot be expressed on a command line).
cases="$("$PY" - "$manifest" "$with_options" <<'EOF'
import json, os, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
corpus = os.path.dirname(os.path.abspath(sys.argv[1]))
with_options = sys.argv[2] == "1"
for k in m["cases"]:
    opts = k.get("options", {})
    extra = []
    if opts:
        if not with_options or opts.get("import") == "bytes":
            extra = ["SKIP"]
        else:
            if "max_nesting" in opts:
                extra += ["--max-nesting", str(opts["max_nesting"])]
            if "external_dir" in opts:  # relative to the corpus folder
                extra += ["--external-dir", os.path.join(corpus, opts["external_dir"])]
            if "ort_data" in opts:  # relative to the external-data directory
                extra += ["--ort-data", opts["ort_data"]]
            if "threads" in opts:
                extra += ["--threads", str(opts["threads"])]
    print("\t".join([k["file"], k["expect"], k.get("kind", "-"),
                     "1" if k.get("generated_only") else "0", " ".join(extra) or "-", k.get("rule_id", "-")]))
EOF
)" || { echo "run_corpus: cannot read $manifest" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One case: writes "status<TAB>exit code<TAB>seconds" to $work/N.
run_one() {
  local n="$1" file="$2" expect="$3" genonly="$4" extra="$5" status rc=- secs=0 start args=()
  if [ "${skip_list#* "$file" }" != "$skip_list" ]; then
    status="skip(listed)"
  elif [ "$extra" = "SKIP" ]; then
    status="skip(options)"
  elif [ ! -e "$dir/$file" ] && [ ! -L "$dir/$file" ]; then
    if [ "$genonly" = "1" ]; then status="skip(generated-only)"; else status="MISSING"; fi
  else
    [ "$extra" != "-" ] && read -r -a args <<<"$extra"
    start=$(date +%s%N)
    # The subshell keeps bash's own "Segmentation fault" notice out of the table.
    # shellcheck disable=SC2086  # CMD is word-split on purpose
    ( timeout -k 2 "$timeout_s" $cmd "${args[@]}" "$dir/$file" >/dev/null 2>"$work/$n.err" </dev/null; exit $? ) 2>/dev/null
    rc=$?
    secs=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      status="TIMEOUT"
    elif [ $rc -gt 128 ] || grep -qE 'AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|LeakSanitizer' "$work/$n.err"; then
      status="CRASH"
    elif [ $rc -eq 0 ]; then
      [ "$expect" = "accept" ] && status="ok" || status="SHOULD_HAVE_FAILED"
    else
      [ "$expect" = "refuse" ] && status="ok" || status="SHOULD_HAVE_PASSED"
    fi
    rm -f "$work/$n.err"
  fi
  printf '%s\t%s\t%s\n' "$status" "$rc" "$secs" >"$work/$n"
}

# Up to $jobs cases at a time; results are printed in manifest order afterwards.
n=0 running=0
while IFS=$'\t' read -r file expect kind genonly extra rule_id; do
  [ -n "$file" ] || continue
  n=$((n + 1))
  printf '%s\t%s\t%s\t%s\n' "$file" "$expect" "$kind" "$rule_id" >"$work/$n.case"
  if [ "$jobs" -le 1 ]; then
    run_one "$n" "$file" "$expect" "$genonly" "$extra"
  else
    run_one "$n" "$file" "$expect" "$genonly" "$extra" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  fi
done <<<"$cases"
wait

passed=0 failed=0 skipped=0
for i in $(seq 1 $n); do
  IFS=$'\t' read -r file expect kind rule_id <"$work/$i.case"
  IFS=$'\t' read -r status rc secs <"$work/$i"
  case "$status" in
    ok) passed=$((passed + 1)) ;;
    skip*) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
  esac
  if [ $quiet -eq 0 ] || { [ "$status" != "ok" ] && [ "${status#skip}" = "$status" ]; }; then
    want="$expect"; [ "$kind" != "-" ] && want="$expect $kind"
    printf '%-20s %-62s %s\n' "$status" "$file" "$want"
  fi
  [ -n "$results" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$expect" "$kind" "$rule_id" "$status" "$rc" "$secs" >>"$work/results.tsv"
done

summary="$passed passed, $failed failed"
[ $skipped -gt 0 ] && summary="$summary, $skipped skipped"
if [ -n "$results" ]; then
  "$PY" - "$work/results.tsv" "$results" "$cmd" "$dir" "$timeout_s" "$jobs" "$passed" "$failed" "$skipped" <<'EOF_PY' || exit 2
import json, os, sys
rows, out, cmd, corpus, timeout, jobs, passed, failed, skipped = sys.argv[1:]
cases = []
if os.path.exists(rows):
    for line in open(rows, encoding="utf-8"):
        file, expect, kind, rule_id, status, rc, ms = line.rstrip("\n").split("\t")
        cases.append({"file": file, "expect": expect, "kind": None if kind == "-" else kind,
                      "rule_id": None if rule_id in ("-", "") else rule_id, "status": status,
                      "exit_code": None if rc == "-" else int(rc), "seconds": int(ms) / 1000})
doc = {"format": "onnx-gauntlet run_corpus results, version 1", "command": cmd, "corpus": os.path.abspath(corpus),
       "timeout_seconds": float(timeout), "jobs": int(jobs),
       "passed": int(passed), "failed": int(failed), "skipped": int(skipped), "cases": cases}
with open(out, "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=1, sort_keys=True)
    f.write("\n")
EOF_PY
fi
echo "$summary"
[ $failed -eq 0 ]
