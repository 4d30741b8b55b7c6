#!/usr/bin/env bash
# Runs any importer over the hostile corpus (hostile/README.md) and prints a table in
# the style of JSONTestSuite: one line per case, then `N passed, N failed`.
#
#   tools/run_corpus.sh [--timeout S] [--with-options] [--quiet] CMD [DIR]
#
# CMD is run as `CMD DIR/FILE` (word-split, so "build/bin/onnximport check" works) for
# each case of DIR (default hostile/corpus). Exit 0 means accepted, any other exit means refused; a
# signal (exit > 128), a sanitizer report on stderr or exit 124 from the timeout is a
# CRASH or TIMEOUT. Cases the manifest marks with options (max_nesting, external_dir,
# import from bytes) need an importer that understands them: they are skipped unless
# --with-options is given, which passes --max-nesting N / --external-dir DIR in the
# syntax of onnximport check (import-from-bytes cases are always skipped). Cases marked
# generated_only that are missing from DIR (the committed corpus) are skipped too.
# Exit status: 0 when nothing failed, 1 otherwise, 2 for a usage error.
set -uo pipefail

timeout_s=10
with_options=0
quiet=0
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) timeout_s="$2"; shift 2 ;;
    --with-options) with_options=1; shift ;;
    --quiet) quiet=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: tools/run_corpus.sh [--timeout S] [--with-options] [--quiet] CMD [DIR]" >&2
  exit 2
fi
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
    print("\t".join([k["file"], k["expect"], k.get("kind", "-"),
                     "1" if k.get("generated_only") else "0", " ".join(extra) or "-"]))
EOF
)" || { echo "run_corpus: cannot read $manifest" >&2; exit 2; }

passed=0 failed=0 skipped=0
errfile="$(mktemp)"
trap 'rm -f "$errfile"' EXIT
while IFS=$'\t' read -r file expect kind genonly extra; do
  if [ "$extra" = "SKIP" ]; then
    status="skip(options)"; skipped=$((skipped + 1))
  elif [ ! -e "$dir/$file" ] && [ ! -L "$dir/$file" ]; then
    if [ "$genonly" = "1" ]; then status="skip(generated-only)"; skipped=$((skipped + 1))
    else status="MISSING"; failed=$((failed + 1)); fi
  else
    args=()
    [ "$extra" != "-" ] && read -r -a args <<<"$extra"
    # The subshell keeps bash's own "Segmentation fault" notice out of the table.
    # shellcheck disable=SC2086  # CMD is word-split on purpose
    ( timeout -k 2 "$timeout_s" $cmd "${args[@]}" "$dir/$file" >/dev/null 2>"$errfile" </dev/null; exit $? ) 2>/dev/null
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      status="TIMEOUT"
    elif [ $rc -gt 128 ] || grep -qE 'AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|LeakSanitizer' "$errfile"; then
      status="CRASH"
    elif [ $rc -eq 0 ]; then
      [ "$expect" = "accept" ] && status="ok" || status="SHOULD_HAVE_FAILED"
    else
      [ "$expect" = "refuse" ] && status="ok" || status="SHOULD_HAVE_PASSED"
    fi
    if [ "$status" = "ok" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  fi
  if [ $quiet -eq 0 ] || { [ "$status" != "ok" ] && [ "${status#skip}" = "$status" ]; }; then
    want="$expect"; [ "$kind" != "-" ] && want="$expect $kind"
    printf '%-20s %-62s %s\n' "$status" "$file" "$want"
  fi
done <<<"$cases"

summary="$passed passed, $failed failed"
[ $skipped -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ $failed -eq 0 ]
