#!/usr/bin/env bash
# The report's render test: index.html opens in headless Chromium without
# errors and shows the summary; a screenshot is kept beside the page.
#
#   render_test.sh [REPORT_DIR [FIXTURE_OUT]]
#
# REPORT_DIR defaults to build/report. When it holds no index.html (make report has not
# run), the small fixture report (harness/report/fixture/report.json) is rendered into
# FIXTURE_OUT (default build/report-fixture) and tested instead; the output says so.
# Chromium comes from Debian, installed by tools/install_deps.sh when missing.
set -uo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
report="${1:-$root/build/report}"
fixture_out="${2:-$(dirname "$report")/report-fixture}"
passed=0
failed=0

check() {  # check NAME COMMAND...: one line per check, counted for the closing line
  local name="$1"; shift
  if "$@"; then
    echo "render_test: ok   $name"; passed=$((passed + 1))
  else
    echo "render_test: FAIL $name"; failed=$((failed + 1))
  fi
}

if [ -f "$report/index.html" ]; then
  echo "render_test: testing the report of the last make report: $report/index.html"
else
  echo "render_test: no $report/index.html (make report has not run here);" \
       "testing the small report rendered from harness/report/fixture/ instead"
  rm -rf "$fixture_out"
  mkdir -p "$fixture_out"
  cp "$root/harness/report/fixture/report.json" "$fixture_out/"
  PYTHONPATH="$root/python" /usr/bin/python3 -m gauntlet.report.render "$fixture_out" >/dev/null || {
    echo "render_test: FAIL render.py on the fixture"; echo "render_test: 0 passed, 1 failed"; exit 1; }
  report="$fixture_out"
fi

if ! command -v chromium >/dev/null; then
  echo "render_test: installing Debian chromium (tools/install_deps.sh chromium)"
  "$root/tools/install_deps.sh" chromium >/dev/null || true
fi
if ! command -v chromium >/dev/null; then
  echo "render_test: FAIL chromium is not installed and could not be installed"
  echo "render_test: 0 passed, 1 failed"
  exit 1
fi

report="$(cd "$report" && pwd)"  # chromium needs an absolute file:// URL
index="$report/index.html"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Self-contained: nothing the page loads may come from the network, and every local link
# (detail pages, plots, corpus files, logs) must lead to a file that exists.
check "the page references no network resource and no missing file" \
  env PYTHONPATH="$root/python" /usr/bin/python3 -m gauntlet.report.check_links "$report"

chrome=(chromium --headless --no-sandbox --disable-gpu --disable-background-networking
        --disable-component-update --disable-sync --no-first-run --hide-scrollbars
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0)

# One browser start does both the DOM dump and the screenshot: on a busy 2-core machine
# each start costs seconds.
rm -f "$report/screenshot.png"
timeout 300 "${chrome[@]}" --window-size=1400,1800 --screenshot="$report/screenshot.png" \
  --dump-dom "file://$index" >"$work/dom.html" 2>"$work/chrome.log"
rc=$?
check "chromium loads the page (exit $rc)" test "$rc" -eq 0
# Chromium logs every console message (errors, uncaught exceptions, CSP refusals) as
# INFO:CONSOLE; a page with no script should log none.
if grep -q ':CONSOLE' "$work/chrome.log"; then
  grep ':CONSOLE' "$work/chrome.log" | head -5
  check "no console messages" false
else
  check "no console messages" true
fi
check "the DOM has the summary section" grep -q '<section id="summary">' "$work/dom.html"
check "the summary shows counts of passed and failed cases" \
  grep -Eq '<p id="verdict"><strong>[0-9]+ passed, [0-9]+ failed' "$work/dom.html"
check "the page has the sweep, hostile, matrix, fuzz and campaigns sections" \
  bash -c 'for s in sweep hostile matrix fuzz campaigns; do grep -q "<section id=\"$s\">" "$1" || exit 1; done' _ "$work/dom.html"
# The writers' parts appear in the order they ran (report.json keeps them as a list).
check "the writers' table lists its parts in run order" /usr/bin/python3 - "$work/dom.html" "$report/report.json" <<'PY'
import json, re, sys
dom, report = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
want = [w["part"] for w in report.get("ort", {}).get("writers", [])]
table = re.search(r'<table id="ort-writers">(.*?)</table>', dom, re.S)
shown = re.findall(r"<tr><td>([^<]+)</td>", table.group(1)) if table else []
sys.exit(0 if shown == want and (want or report.get("ort", {}).get("status") != "run") else 1)
PY

# The matrix findings page (docs/matrix.md, "Findings"): it loads and shows both views.
if [ -f "$report/findings.html" ]; then
  timeout 300 "${chrome[@]}" --window-size=1400,1400 --screenshot="$report/findings.png" \
    --dump-dom "file://$report/findings.html" >"$work/findings.html" 2>"$work/chrome-findings.log"
  check "chromium loads findings.html, which has the classes and the pruned view" \
    bash -c 'grep -q "<section id=\"findings-classes\">" "$1" && grep -q "<section id=\"findings-pruned\">" "$1"' \
    _ "$work/findings.html"
  check "no console messages on findings.html" bash -c '! grep -q ":CONSOLE" "$1"' _ "$work/chrome-findings.log"
  check "a screenshot of the findings is kept at $report/findings.png" \
    bash -c '[ "$(stat -c %s "$1")" -gt 20000 ]' _ "$report/findings.png"
else  # only a matrix that did not run has no findings
  check "no findings.html: the matrix did not run" /usr/bin/python3 -c \
    'import json, sys; sys.exit(json.load(open(sys.argv[1])).get("matrix", {}).get("status") == "run")' \
    "$report/report.json"
fi

check "a screenshot is kept at $report/screenshot.png" \
  bash -c '[ "$(head -c 8 "$1" | od -An -tx1 | tr -d " \n")" = "89504e470d0a1a0a" ] && [ "$(stat -c %s "$1")" -gt 20000 ]' \
  _ "$report/screenshot.png"

echo "render_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
