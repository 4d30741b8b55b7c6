"""Renders the conformance report from report.json into a page a person opens.

    render.py REPORT_DIR        reads REPORT_DIR/report.json, writes into REPORT_DIR:
        index.html              self-contained (inline CSS and SVG, no script, no network)
        junit.xml               one test case per model, per hostile case, per fuzz target
        plots/*.svg             the charts of the page, as files too
        details/...             one page per hostile case, per sweep model with a finding,
                                per fuzz target

report.json is written by make_report.py (the run) and is the single source: rendering
again from it gives the same page, which is how the render test builds a small report
from fixtures.
"""
import json
import os
import sys
from html import escape
from xml.sax.saxutils import quoteattr

from gauntlet.report import svg
from gauntlet.report.render_findings import render_findings_body

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:14px 24px}
header h1{margin:0;font-size:22px} header p{margin:4px 0 0;color:#cfd8dc;font-size:13px}
main{padding:8px 24px 40px;max-width:1400px}
h2{border-bottom:2px solid #cfd8dc;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;font-size:13px;margin:8px 0;background:#fff}
th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eceff1;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{background:#e8f5e9} .fail{background:#ffebee} .skip{background:#f5f5f5;color:#666}
.notrun{color:#8d6e63;font-style:italic}
.cell-match{background:#c8e6c9} .cell-mismatch{background:#ffcdd2} .cell-crash{background:#b71c1c;color:#fff}
.cell-timeout{background:#283593;color:#fff} .cell-none{background:#eee;color:#777}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;min-width:170px}
.card .big{font-size:24px;font-weight:bold} .card .label{font-size:12px;color:#555}
.card.bad{border-color:#c62828} .card.good{border-color:#2e7d32}
code.path{word-break:break-all}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#fff;border:1px solid #ddd;padding:8px;overflow:auto}
.hex .hit{background:#ffeb3b;font-weight:bold}
details>summary{cursor:pointer;color:#1565c0}
.msg{max-width:520px;word-break:break-word} td.path{max-width:360px;word-break:break-all}
nav a{margin-right:14px;color:#90caf9}
"""

VERDICT = {True: "matches the spec", False: "differs from the spec",
           None: "not judged: the case sets import options this importer does not have"}
OUTCOME_SHORT = {"accepted": "accepted", "refused": "refused", "crashed": "CRASH", "timeout": "TIMEOUT"}


def page(title, body, depth=0):
    up = "../" * depth
    nav = (f'<nav><a href="{up}index.html">summary</a><a href="{up}index.html#sweep">sweep</a>'
           f'<a href="{up}index.html#hostile">hostile</a><a href="{up}index.html#matrix">matrix</a>'
           f'<a href="{up}findings.html">findings</a><a href="{up}index.html#fuzz">fuzz</a>'
           f'<a href="{up}index.html#campaigns">campaigns</a></nav>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>{escape(title)}</title><style>{CSS}</style></head><body>'
            f'<header><h1>{escape(title)}</h1>{nav}</header><main>{body}</main></body></html>\n')


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def safe_name(name):
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def not_run(section):
    return f'<p class="notrun">not run: {escape(section.get("reason") or "no reason recorded")}</p>'


def suite_counts(report):
    """(label, {passed, failed, skipped}, status, reason) for every suite, in page order."""
    return [(s["label"], s, s["status"], s.get("reason")) for s in report["summary"]["suites"]]


# ---------------------------------------------------------------- summary

def campaign_card(c):
    """What the last night found: the newest campaign's targets, CPU, new edges, findings."""
    if c.get("status") != "run":
        return (f'<div class="card"><div class="label">last fuzz campaign</div><div class="notrun">none recorded</div>'
                f'<div class="label">{escape(c.get("reason") or "")}</div></div>')
    last = c["records"][-1].get("campaign")
    recs = [r for r in c["records"] if r.get("campaign") == last]
    findings = sorted({f.get("signature", "?") for r in recs for f in r.get("findings", [])})
    gained = sum((r.get("edges_after") or 0) - (r.get("edges_before") or 0) for r in recs)
    cpu = sum(r.get("cpu_seconds") or 0 for r in recs)
    return (f'<div class="card {"bad" if findings else "good"}" id="campaign-card"><div class="label">last fuzz '
            f'campaign ({escape(str(recs[0].get("date", "?")))}, {len(recs)} target{"" if len(recs) == 1 else "s"})</div>'
            f'<div class="big">{len(findings)} finding{"" if len(findings) == 1 else "s"}</div>'
            f'<div class="label">{cpu:,.0f} CPU-s, +{gained} edges; {escape("; ".join(findings)) or "nothing found"}'
            f'</div></div>')


def render_summary(report):
    s = report["summary"]
    cards = []
    for label, counts, status, reason in suite_counts(report):
        if status != "run":
            cards.append(f'<div class="card"><div class="label">{escape(label)}</div>'
                         f'<div class="notrun">not run</div><div class="label">{escape(reason or "")}</div></div>')
            continue
        bad = counts.get("failed", 0) > 0
        skipped = f', {counts["skipped"]} skipped' if counts.get("skipped") else ""
        cards.append(f'<div class="card {"bad" if bad else "good"}"><div class="label">{escape(label)}</div>'
                     f'<div class="big">{counts.get("passed", 0)} / {counts.get("passed", 0) + counts.get("failed", 0)}</div>'
                     f'<div class="label">{counts.get("passed", 0)} passed, {counts.get("failed", 0)} failed{skipped}</div></div>')
    fz = s.get("fuzz", {})
    if fz.get("status") == "run":
        cov = ", ".join(f'{t["name"]} {t.get("coverage", "?")}' for t in report["fuzz"]["targets"])
        cards.append(f'<div class="card {"bad" if fz.get("crashes") else "good"}"><div class="label">fuzz smoke '
                     f'({fz.get("targets", 0)} targets, {fz.get("seconds_per_target", "?")} s each)</div>'
                     f'<div class="big">{fz.get("execs", 0):,} execs</div>'
                     f'<div class="label">coverage (cov): {escape(cov)}; crashes: {fz.get("crashes", 0)}</div></div>')
    else:
        cards.append(f'<div class="card"><div class="label">fuzz smoke</div><div class="notrun">not run</div>'
                     f'<div class="label">{escape(fz.get("reason") or "")}</div></div>')
    cards.append(campaign_card(report.get("campaigns", {})))
    m = report.get("matrix", {})
    if m.get("status") == "run":
        lines = []
        for imp in m["importers"]:
            ms = m["summary"].get(imp["id"])
            if ms is None:
                lines.append(f'<div class="label">{escape(imp["id"])}: not run</div>')
                continue
            vs = (m.get("valid") or {}).get("summary", {}).get(imp["id"]) or {}
            lines.append(f'<div class="label"><strong>{escape(imp["id"])}</strong>: accepts {ms["accepted_spec_refuses"]} '
                         f'the spec refuses, refuses {ms["refused_spec_accepts"]} it accepts, {ms["crashed"]} crashed, '
                         f'{ms["timeout"]} timed out, read outside the folder in {ms.get("read_outside", 0)}; refuses '
                         f'{vs.get("refused_spec_accepts", 0)} of {vs.get("cases", 0)} valid models</div>')
        cards.append(f'<div class="card" id="matrix-card"><div class="label">cross-importer matrix '
                     f'({len(m["cases"])} cases)</div>{"".join(lines)}</div>')
    else:
        cards.append(f'<div class="card"><div class="label">cross-importer matrix</div><div class="notrun">not run</div>'
                     f'<div class="label">{escape(m.get("reason") or "")}</div></div>')
    total_failed = s.get("failed", 0)
    verdict = "all suites that ran passed" if total_failed == 0 else f"{total_failed} cases failed"
    stages = "".join(
        f'<tr class="{"pass" if st["status"] == "ok" else "skip" if st["status"] == "not run" else "fail"}">'
        f'<td>{escape(st["name"])}</td><td>{escape(st["status"])}</td><td class="num">{st.get("seconds", 0):.1f}</td>'
        f'<td>{escape(st.get("reason") or "")}</td>'
        f'<td>{"<a href=" + quoteattr(st["log"]) + ">log</a>" if st.get("log") else ""}</td></tr>'
        for st in report.get("stages", []))
    return (f'<section id="summary"><h2>Summary</h2>'
            f'<p id="verdict"><strong>{escape(s.get("line", verdict))}</strong></p>'
            f'<div class="cards">{"".join(cards)}</div>'
            f'<details><summary>stages of this run ({report.get("seconds", 0):.0f} s in all)</summary>'
            f'<table><tr><th>stage</th><th>status</th><th>seconds</th><th>note</th><th></th></tr>{stages}</table>'
            f'</details></section>')


def render_plots(report, out_dir):
    # Short suite ids keep the bar labels readable; the cards above carry the long names.
    rows = [(s["id"], s) for s in report["summary"]["suites"] if s["status"] == "run"]
    rows += [(s["id"], {}) for s in report["summary"]["suites"] if s["status"] != "run"]
    outcomes = svg.stacked_bars("Outcomes per suite", rows, ["passed", "failed", "skipped"])
    charts = [("outcomes.svg", outcomes)]

    fz = report.get("fuzz", {})
    if fz.get("status") == "run":
        series = [(t["name"], [tuple(p) for p in t.get("series", [])]) for t in fz["targets"]]
        charts.append(("fuzz_coverage.svg", svg.line_chart(
            "Fuzz coverage over time (libFuzzer cov)", series, "seconds into the campaign", "covered edges")))

    c = report.get("campaigns", {})
    if c.get("status") == "run":
        charts.append(("campaigns_coverage.svg", svg.line_chart(
            "Coverage over fuzz campaigns (edges gained since the first)", [(n, [tuple(p) for p in pts])
                                                                            for n, pts in c["series"]],
            "CPU-hours of campaigns so far (per target)", "edges gained", x_decimals=2)))

    m = report.get("matrix", {})
    if m.get("status") == "run":
        keys = ["match", "accepted_spec_refuses", "refused_spec_accepts", "wrong_kind", "crashed", "timeout"]
        labels = {"match": "as the spec says", "accepted_spec_refuses": "accepted, spec refuses",
                  "refused_spec_accepts": "refused, spec accepts", "wrong_kind": "refused, wrong kind",
                  "crashed": "crashed", "timeout": "timed out"}
        mrows = [(imp["id"], m["summary"].get(imp["id"], {})) for imp in m["importers"]]
        charts.append(("matrix.svg", svg.stacked_bars("Cross-importer matrix: agreement with the spec",
                                                      mrows, keys, labels)))
    for name, text in charts:
        write(os.path.join(out_dir, "plots", name), text + "\n")
    return '<section id="plots"><h2>Plots</h2>' + "".join(
        f'<figure>{text}<figcaption><a href="plots/{name}">{name}</a></figcaption></figure>'
        for name, text in charts) + "</section>"


# ---------------------------------------------------------------- sweep

def render_sweep(report, out_dir):
    sw = report.get("sweep", {})
    parts = ['<section id="sweep"><h2>Sweep: our dump against the onnx package\'s dump</h2>',
             "<p>Every <code>model.onnx</code> of the backend test data is imported and dumped by this importer "
             "and by <code>python/gauntlet/sweep/onnx_dump.py</code> (onnx.load and the message fields), and the two dumps are "
             "compared byte for byte (spec section 8).</p>"]
    runs = sw.get("runs", [])
    if not runs:
        parts.append(not_run(sw))
    for run in runs:
        parts.append(f'<h3 id="sweep-{escape(run["id"])}">{escape(run["label"])}</h3>')
        if run["status"] != "run":
            parts.append(not_run(run))
            continue
        if run.get("table") and os.path.exists(run["table"]):
            parts.append(f'<p>per-model table: <a href="{escape(os.path.relpath(run["table"], out_dir))}">table.tsv</a></p>')
        parts.append(f'<p>{escape(run.get("data_dir", ""))}: <strong>{run["passed"]} passed, {run["failed"]} failed'
                     f'{", " + str(run["skipped"]) + " skipped" if run.get("skipped") else ""}</strong>'
                     f'</p><p>closing line of python3 -m gauntlet sweep: <code>{escape(run.get("closing_line", ""))}</code></p>')
        models = run.get("models", [])
        # Failures first: they are what a reader came for; passes fold away.
        order = {"failed": 0, "skipped": 1, "passed": 2}
        models = sorted(models, key=lambda m: (order.get(m["status"], 3), m["name"]))
        rows = []
        for m in models:
            link = ""
            if m.get("detail") or m.get("files"):
                rel = f'details/sweep/{safe_name(run["id"])}/{safe_name(m["name"])}.html'
                write(os.path.join(out_dir, rel), render_sweep_detail(run, m, os.path.dirname(os.path.join(out_dir, rel))))
                link = f'<a href="{rel}">detail</a>'
            cls = {"passed": "pass", "failed": "fail"}.get(m["status"], "skip")
            rows.append(f'<tr class="{cls}"><td>{escape(m["name"])}</td><td>{escape(m["status"])}</td>'
                        f'<td class="msg">{escape(m.get("reason", ""))}</td><td>{link}</td></tr>')
        head = "<tr><th>model</th><th>result</th><th>note</th><th></th></tr>"
        bad = [r for r, m in zip(rows, models) if m["status"] != "passed"]
        good = [r for r, m in zip(rows, models) if m["status"] == "passed"]
        if bad:
            parts.append(f'<table class="sweep-table">{head}{"".join(bad)}</table>')
        parts.append(f'<details><summary>{len(good)} models passed (show)</summary>'
                     f'<table class="sweep-table">{head}{"".join(good)}</table></details>')
    parts.append("</section>")
    return "".join(parts)


def render_sweep_detail(run, m, page_dir):
    files = "".join(f'<li><a href="{escape(os.path.relpath(f["path"], page_dir))}">{escape(f["label"])}</a></li>'
                    for f in m.get("files", []) if os.path.exists(f["path"]))
    body = (f'<p>data set: {escape(run["label"])}</p><p>result: <strong>{escape(m["status"])}</strong> '
            f'{escape(m.get("reason", ""))}</p>'
            + (f"<ul>{files}</ul>" if files else "")
            + (f'<h3>detail</h3><pre>{escape(m["detail"])}</pre>' if m.get("detail") else ""))
    return page(f'sweep: {m["name"]}', body, depth=3)


# ---------------------------------------------------------------- hostile and matrix

def hexdump(data, hit=None, limit=2048):
    lines = []
    for base in range(0, min(len(data), limit), 16):
        chunk = data[base:base + 16]
        cells = []
        for i, b in enumerate(chunk):
            cell = f"{b:02x}"
            cells.append(f'<span class="hit">{cell}</span>' if hit is not None and base + i == hit else cell)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{base:08x}  {' '.join(cells)}{'   ' * (16 - len(chunk))}  {escape(text)}")
    more = f"\n... {len(data) - limit} more bytes" if len(data) > limit else ""
    return '<pre class="hex">' + "\n".join(lines) + more + "</pre>"


def outcome_cell(result, importer_id):
    if result is None:
        return '<td class="cell-none">—</td>'
    o = result["outcome"]
    judged = "cell-none" if result["match"] is None else "cell-match" if result["match"] else "cell-mismatch"
    cls = {"crashed": "cell-crash", "timeout": "cell-timeout"}.get(o, judged)
    text = OUTCOME_SHORT.get(o, o)
    if importer_id == "onnximport" and o == "refused" and result.get("kind"):
        text = result["kind"]
    if result.get("read_differently"):  # docs/matrix.md: accepted, but not what the file holds
        text, cls = "read differently", "cell-crash"
    if result["match"] is None:
        text += " (not judged)"
    title = result.get("read_differently") or result.get("message", "")
    return f'<td class="{cls}" title={quoteattr(title)}>{escape(text)}</td>'


def render_case_detail(case, importers, corpus_rel, published):
    rows = []
    for imp in importers:
        r = case["results"].get(imp["id"])
        if r is None:
            rows.append(f'<tr><td>{escape(imp["label"])}</td><td colspan="5" class="notrun">not run</td></tr>')
            continue
        where = ""
        if r.get("offset") is not None or r.get("field_path"):
            where = f'offset {r.get("offset", "-")}, <code class="path">{escape(r.get("field_path") or "-")}</code>'
        rows.append(f'<tr><td>{escape(imp["label"])}</td>{outcome_cell(r, imp["id"])}'
                    f'<td>{VERDICT[r["match"]]}</td><td>{where}</td>'
                    f'<td class="msg">{escape(r.get("message", ""))}</td><td class="num">{r.get("seconds", 0):.3f}</td></tr>')
    expected = "accepted" if case["expected"] == "accept" else f'refused as {case.get("expected_kind") or "any kind"}'
    data = b""
    path = case.get("path")
    # Cases include folders, dangling links and 2 GiB sparse files: show at most the
    # first 4 KiB of a regular file, and link only the copies the report holds.
    if not (path and os.path.isfile(path)):
        path = published
    exists = os.path.isfile(path)
    if exists:
        try:
            with open(path, "rb") as f:
                data = f.read(4096)
        except OSError:
            exists = False
    ours = case["results"].get("onnximport") or {}
    facts = case.get("facts")
    body = (f'<p>expected: <strong>{escape(expected)}</strong></p>'
            f'<p>spec rule: {escape(case.get("rule") or "—")}</p>'
            + (f'<p>{escape(case["description"])}</p>' if case.get("description") else "")
            + (f'<p>facts checked: <code>{escape(json.dumps(facts, sort_keys=True))}</code></p>' if facts else "")
            + (f'<p><a href="{escape(corpus_rel)}">download {escape(case["file"])}</a> ({case.get("size", len(data))} bytes)</p>'
               if os.path.isfile(published) else
               f'<p>{case.get("size") or 0} bytes: not copied into the report (too big, or not a regular file); '
               f'<code>hostile-gen DIR</code> writes it</p>' if exists else "")
            + '<table><tr><th>importer</th><th>outcome</th><th>verdict</th><th>where</th><th>message</th><th>s</th></tr>'
            + "".join(rows) + "</table>"
            + "<h3>bytes</h3>" + (hexdump(data, ours.get("offset")) if exists
                                  else "<p>not a regular file (a folder, a link or missing): that is the case</p>"))
    return page(f'hostile case {case["file"]}', body, depth=2)


def shorten_path(path, limit=120):
    """Deep nesting cases have field paths of 2000 characters: keep both ends in the table
    (the detail page and the cell's title carry the whole path)."""
    path = path or ""
    if len(path) <= limit:
        return path
    return path[: limit // 2 - 2] + " … " + path[-(limit // 2 - 2):]


def render_hostile(report, out_dir):
    h = report.get("hostile", {})
    m = report.get("matrix", {})
    parts = ['<section id="hostile"><h2>Hostile corpus: this importer</h2>']
    if h.get("status") != "run":
        parts.append(not_run(h) + "</section>")
        return "".join(parts)
    parts.append(f'<p>{len(h["cases"])} cases from {escape(h.get("source", ""))}: each must be refused with the kind its '
                 f'name gives, or imported for <code>accept-</code> cases. <strong>{h["passed"]} passed, '
                 f'{h["failed"]} failed{" (" + str(h["known_differences"]) + " known differences, sweep/known/onnximport.txt)" if h.get("known_differences") else ""}{", " + str(h["skipped"]) + " skipped (import from bytes: judged by hostile_tests)" if h.get("skipped") else ""}.</strong>{" " + escape(h["runner_line"]) if h.get("runner_line") else ""}</p>')
    rows = []
    importers = m.get("importers", [{"id": "onnximport", "label": "onnx-gauntlet (this importer)"}])
    # A case's page shows every importer's result: the matrix has them all.
    peer_results = {c["file"]: c["results"] for c in m.get("cases", [])}
    for case in h["cases"]:
        rel = f'details/hostile/{safe_name(case["file"])}.html'
        full = dict(case, results={**peer_results.get(case["file"], {}), **case["results"]})
        write(os.path.join(out_dir, rel), render_case_detail(full, importers, f'../../corpus/{case["file"]}',
                                                             os.path.join(out_dir, "corpus", case["file"])))
        r = case["results"].get("onnximport", {})
        expected = "accept" if case["expected"] == "accept" else (case.get("expected_kind") or "refuse")
        ours = r.get("kind") if r.get("outcome") == "refused" else r.get("outcome", "—")
        if case.get("known_difference"):
            ours = f'{ours} (known difference: {case["known_difference"]})'
        where = ""
        if r.get("outcome") == "refused":
            where = f'{r.get("offset") if r.get("offset") is not None else "-"}'
        cls = {True: "pass", False: "fail"}.get(case["pass"], "skip")
        rows.append(f'<tr class="{cls}"><td><a href="{rel}">{escape(case["file"])}</a></td>'
                    f'<td>{escape(expected)}</td><td>{escape(ours or "")}</td><td class="num">{escape(where)}</td>'
                    f'<td class="path"><code title={quoteattr(r.get("field_path") or "")}>{escape(shorten_path(r.get("field_path")))}</code></td><td class="msg">{escape(r.get("message", ""))}</td>'
                    f'<td class="msg">{escape(case.get("rule") or "")}</td></tr>')
    parts.append('<table id="hostile-table"><tr><th>case</th><th>expected</th><th>our outcome</th><th>offset</th>'
                 '<th>field path</th><th>message</th><th>spec rule</th></tr>' + "".join(rows) + "</table></section>")
    return "".join(parts)


def render_matrix(report):
    m = report.get("matrix", {})
    parts = ['<section id="matrix"><h2>Cross-importer matrix</h2>']
    if m.get("status") != "run":
        parts.append(not_run(m) + "</section>")
        return "".join(parts)
    parts.append('<p>Every hostile and accept case through each importer, in a subprocess with a '
                 f'{m.get("timeout_seconds", "?")} s timeout. Green: the importer does what the spec says (refuses what '
                 'it refuses, imports what it accepts; for this importer also the right error kind). Red: it differs. '
                 'Dark red: crashed; blue: timed out; gray: not judged (the case sets an import option the importer does not have). Hover a cell for the message.</p>')
    imps = m["importers"]
    srows = []
    for imp in imps:
        s = m["summary"].get(imp["id"])
        if s is None:
            srows.append(f'<tr><td>{escape(imp["label"])}</td><td colspan="10" class="notrun">not run: '
                         f'{escape(imp.get("reason") or "")}</td></tr>')
            continue
        srows.append(f'<tr><td>{escape(imp["label"])}</td><td>{escape(str(imp.get("version") or ""))}</td>'
                     f'<td class="num">{s["match"]}/{s["cases"]}</td><td class="num">{s["accepted_spec_refuses"]}</td>'
                     f'<td class="num">{s["refused_spec_accepts"]}</td><td class="num">{s["wrong_kind"]}</td>'
                     f'<td class="num">{s["crashed"]}</td><td class="num">{s["timeout"]}</td>'
                     f'<td class="num">{s.get("not_judged", 0)}</td><td class="num">{s.get("read_outside", 0)}</td>'
                     f'<td class="num">{s.get("read_differently", 0)}</td></tr>')
    parts.append('<table id="matrix-summary"><tr><th>importer</th><th>version</th><th>as the spec says</th>'
                 '<th>accepted, spec refuses</th><th>refused, spec accepts</th><th>wrong kind</th><th>crashed</th>'
                 '<th>timed out</th><th>not judged (option cases)</th><th>read outside the folder</th>'
                 '<th>accepted, read differently</th></tr>'
                 + "".join(srows) + "</table>")
    head = "".join(f'<th title={quoteattr(i["label"])}>{escape(i["id"])}</th>' for i in imps)
    rows = []
    for case in m["cases"]:
        expected = "accept" if case["expected"] == "accept" else (case.get("expected_kind") or "refuse")
        if case.get("endless"):
            expected += " (endless: bounded by the time-out)"
        cells = "".join(outcome_cell(case["results"].get(i["id"]), i["id"]) for i in imps)
        outside = ", ".join(h["importer"] for h in case.get("read_outside") or [])
        rel = f'details/hostile/{safe_name(case["file"])}.html'
        rows.append(f'<tr><td><a href="{rel}">{escape(case["file"])}</a></td><td>{escape(expected)}</td>{cells}'
                    f'<td class="{"cell-mismatch" if outside else "cell-none"}">{escape(outside)}</td></tr>')
    if m.get("findings"):
        parts.append('<p>The findings, each divergence class with its smallest reproducer: '
                     '<a href="findings.html">findings.html</a>.</p>')
    parts.append(render_read_outside(m))
    parts.append(f'<table id="matrix-table"><tr><th>case</th><th>expected</th>{head}<th>read outside the folder</th></tr>'
                 f'{"".join(rows)}</table>')
    parts.append(render_valid(m, imps))
    parts.append(render_known(m))
    parts.append("</section>")
    return "".join(parts)


def render_read_outside(m):
    c = m.get("canary") or {}
    parts = ['<h3 id="read-outside">Read outside the folder (proven)</h3>',
             f'<p>Before the peers ran, <code>{escape(c.get("file", "?"))}</code> was written beside the corpus folder with '
             f'{c.get("bytes", "?")} bytes drawn for this run (SHA-256 <code>{escape(c.get("sha256", "?"))}</code>); the '
             '<code>externaldata-canary-*</code> cases point at it. A row below is a peer that accepted a case and handed '
             'back a tensor whose bytes are the canary\'s or /etc/passwd\'s. Cases that read forever if followed '
             f'(bounded by the time-out): {escape(", ".join(m.get("bounded") or []) or "none in this corpus")}.</p>']
    rows = []
    for imp, hits in sorted((m.get("read_outside") or {}).items()):
        for h in hits:
            rows.append(f'<tr><td>{escape(imp)}</td><td>{escape(h["case"])}</td><td>{escape(h["target"])}</td>'
                        f'<td>{escape(h["tensor"])}</td><td><code>{escape(h["sha256"])}</code></td></tr>')
    if rows:
        parts.append('<table id="matrix-read-outside"><tr><th>importer</th><th>case</th><th>bytes of</th><th>tensor</th>'
                     '<th>SHA-256</th></tr>' + "".join(rows) + "</table>")
    else:
        parts.append('<p id="matrix-read-outside">No importer handed back bytes from outside the folder.</p>')
    return "".join(parts)


def render_valid(m, imps):
    v = m.get("valid") or {}
    parts = ['<h3 id="valid-models">Valid models</h3>']
    if v.get("status") != "run":
        parts.append(f'<p class="notrun">backend models not run: {escape(v.get("reason") or "")}; the accept cases '
                     'count as valid models in the summary below.</p>')
    parts.append(f'<p>Who refuses valid models: the {v.get("accept_cases", 0)} accept cases of the corpus (without import '
                 f'options) and {v.get("sampled", 0)} of the {v.get("total", 0)} backend test models of '
                 f'<code>{escape(str(v.get("data_dir") or "-"))}</code> ({escape(str(v.get("label") or "-"))}), the first '
                 'by SHA-256 of their path, so the same sample every run.</p>')
    srows = []
    for imp in imps:
        s = (v.get("summary") or {}).get(imp["id"])
        if s is None:
            srows.append(f'<tr><td>{escape(imp["id"])}</td><td colspan="4" class="notrun">not run</td></tr>')
            continue
        srows.append(f'<tr><td>{escape(imp["id"])}</td><td class="num">{s["match"]}/{s["cases"]}</td>'
                     f'<td class="num">{s["refused_spec_accepts"]}</td><td class="num">{s["crashed"]}</td>'
                     f'<td class="num">{s["timeout"]}</td></tr>')
    parts.append('<table id="matrix-valid-summary"><tr><th>importer</th><th>imported</th><th>refused</th><th>crashed</th>'
                 '<th>timed out</th></tr>' + "".join(srows) + "</table>")
    head = "".join(f'<th title={quoteattr(i["label"])}>{escape(i["id"])}</th>' for i in imps)
    rows = []
    for case in v.get("cases") or []:
        if all((case["results"].get(i["id"]) or {}).get("match") is not False for i in imps):
            continue
        cells = "".join(outcome_cell(case["results"].get(i["id"]), i["id"]) for i in imps)
        rows.append(f'<tr><td>{escape(case["file"])}</td>{cells}</tr>')
    parts.append(f'<p>Backend models at least one importer did not import ({len(rows)}):</p>'
                 f'<table id="matrix-valid-table"><tr><th>model</th>{head}</tr>{"".join(rows)}</table>')
    return "".join(parts)


def render_known(m):
    parts = ['<h3 id="known">Expected-failure lists</h3><p>Each importer\'s list (<code>sweep/known/&lt;importer&gt;.txt</code>) '
             'names the cases it does not handle as the spec says. A listed case that now behaves as the spec says, or an '
             'unlisted one that does not, fails the run; the line to remove or add is shown.</p>']
    rows = []
    for imp, k in (m.get("known") or {}).items():
        lines = "".join(f"<div>remove: {escape(x)}</div>" for x in k["stale"]) + \
            "".join(f"<div>add: {escape(x)}</div>" for x in k["new"][:50]) + \
            (f"<div>... {len(k['new']) - 50} more</div>" if len(k["new"]) > 50 else "")
        rows.append(f'<tr class="{"pass" if k["status"] == "current" else "fail"}"><td>{escape(imp)}</td>'
                    f'<td>{escape(k["list"])}</td><td class="num">{k["listed"]}</td><td>{escape(k["status"])}</td>'
                    f'<td class="msg">{lines}</td></tr>')
    parts.append('<table id="matrix-known"><tr><th>importer</th><th>list</th><th>listed</th><th>status</th>'
                 '<th>lines to change</th></tr>' + "".join(rows) + "</table>")
    return "".join(parts)


# ---------------------------------------------------------------- fuzz and .ort

def render_fuzz(report, out_dir):
    fz = report.get("fuzz", {})
    parts = ['<section id="fuzz"><h2>Fuzz smoke</h2>']
    if fz.get("status") != "run":
        parts.append(not_run(fz) + "</section>")
        return "".join(parts)
    rows = []
    for t in fz["targets"]:
        rel = f'details/fuzz/{safe_name(t["name"])}.html'
        body = (f'<p>status: {escape(t["status"])}; {t.get("execs", 0):,} execs in {t.get("seconds", 0)} s; '
                f'cov {t.get("coverage", "?")}, ft {t.get("features", "?")}, corpus {t.get("corpus", "?")}; '
                f'crashes {t.get("crashes", 0)}</p>'
                + (f'<p>{escape(t["reason"])}</p>' if t.get("reason") else "")
                + f'<h3>campaign output (tail)</h3><pre>{escape(t.get("log_tail", ""))}</pre>')
        write(os.path.join(out_dir, rel), page(f'fuzz target {t["name"]}', body, depth=2))
        cls = "pass" if t["status"] == "ok" else "fail"
        rows.append(f'<tr class="{cls}"><td><a href="{rel}">{escape(t["name"])}</a></td><td>{escape(t["status"])}</td>'
                    f'<td class="num">{t.get("execs", 0):,}</td><td class="num">{t.get("exec_per_sec", 0):,}</td>'
                    f'<td class="num">{t.get("coverage", "")}</td><td class="num">{t.get("features", "")}</td>'
                    f'<td class="num">{t.get("corpus", "")}</td><td class="num">{t.get("crashes", 0)}</td></tr>')
    parts.append(f'<p>Each target ran {fz.get("seconds_per_target", "?")} s (FUZZ_SECONDS) through '
                 f'<code>python3 -m gauntlet fuzz --no-merge</code>; coverage is libFuzzer\'s own count of covered edges (cov) and '
                 f'features (ft).</p>'
                 '<table id="fuzz-table"><tr><th>target</th><th>status</th><th>execs</th><th>exec/s</th><th>cov</th>'
                 '<th>ft</th><th>corpus</th><th>crashes</th></tr>' + "".join(rows) + "</table></section>")
    return "".join(parts)


CAMPAIGN_ROWS = 200  # the newest records in the table; the totals and the plot use them all


def render_campaigns(report):
    c = report.get("campaigns", {})
    parts = ['<section id="campaigns"><h2>Fuzz campaigns</h2>']
    if c.get("status") != "run":
        parts.append(not_run(c) + "</section>")
        return "".join(parts)
    trows = []
    for t in c["totals"]:
        longest = t.get("longest") or {}
        cls = "fail" if t["findings"] else "pass"
        trows.append(f'<tr class="{cls}"><td>{escape(t["target"])}</td><td class="num">{t["campaigns"]}</td>'
                     f'<td class="num">{t["cpu_seconds"]:,.0f}</td><td class="num">{t["cpu_seconds"] / 3600:.2f}</td>'
                     f'<td class="num">{t["execs"]:,}</td><td class="num">{t.get("edges", "")}</td>'
                     f'<td class="num">{t.get("features", "")}</td>'
                     f'<td class="num">{longest.get("peak_rss_mb", "")}</td>'
                     f'<td>{escape("; ".join(t["findings"])) or "none"}</td></tr>')
    total_cpu = sum(t["cpu_seconds"] for t in c["totals"])
    rows = []
    for r in c["records"][-CAMPAIGN_ROWS:][::-1]:
        findings = r.get("findings", [])
        cls = "fail" if findings else "pass"
        rows.append(f'<tr class="{cls}"><td>{escape(str(r.get("date", "")))}</td><td>{escape(r["target"])}</td>'
                    f'<td>{escape(str(r.get("engine", "")))}</td><td class="num">{r.get("jobs", "")}</td>'
                    f'<td class="num">{(r.get("cpu_seconds") or 0):,.0f}</td><td class="num">{(r.get("execs") or 0):,}</td>'
                    f'<td class="num">{r.get("edges_before", "")} &rarr; {r.get("edges_after", "")}</td>'
                    f'<td class="num">{r.get("features_before", "")} &rarr; {r.get("features_after", "")}</td>'
                    f'<td class="num">{r.get("new_inputs", "")}</td><td class="num">{r.get("peak_rss_mb", "")}</td>'
                    f'<td>{escape("; ".join(f.get("signature", "?") for f in findings)) or "none"}</td>'
                    f'<td><code>{escape(str(r.get("commit", ""))[:12])}</code></td></tr>')
    parts.append(f'<p>{len(c["records"])} campaign records in <code>corpus/campaigns.jsonl</code> (<code>make nightly</code>), '
                 f'{total_cpu:,.0f} CPU-seconds ({total_cpu / 3600:.2f} CPU-hours) in all, as the kernel counted '
                 'them for the engines\' processes. Edges and features are those of the merged corpus, counted by '
                 'the target\'s libFuzzer binary before and after each campaign.</p>'
                 '<table id="campaign-totals"><tr><th>target</th><th>campaigns</th><th>CPU-s</th><th>CPU-h</th>'
                 '<th>execs</th><th>edges</th><th>features</th><th>peak RSS MiB (longest)</th><th>findings</th></tr>'
                 + "".join(trows) + "</table>"
                 '<table id="campaign-table"><tr><th>date</th><th>target</th><th>engine</th><th>jobs</th><th>CPU-s</th>'
                 '<th>execs</th><th>edges</th><th>features</th><th>new inputs</th><th>peak RSS MiB</th><th>findings</th>'
                 '<th>commit</th></tr>' + "".join(rows) + "</table></section>")
    return "".join(parts)


def render_ort(report):
    o = report.get("ort", {})
    parts = ['<section id="ort"><h2>.ort conformance</h2>']
    if o.get("status") != "run":
        parts.append(not_run(o))
    else:
        parts.append(f'<p>{o.get("passed", 0)} passed, {o.get("failed", 0)} failed.</p>')
        if o.get("closing_line"):
            parts.append(f'<pre>{escape(o["closing_line"])}</pre>')
    r = o.get("run")
    if r:
        parts.append("<h3>ONNX Runtime runs the backend models</h3>")
        parts.append(not_run(r) if r.get("status") != "run" else
                     f'<p>{r.get("passed", 0)} passed, {r.get("failed", 0)} failed '
                     '(<code>python3 -m gauntlet ort run</code>; the log lists what ONNX Runtime cannot run).</p>')
    w = o.get("writers")
    if w:
        parts.append("<h3>Our writers' outputs</h3><p><code>python3 -m gauntlet ort writers --parts PART</code>: "
                     "read back by our reader, run or refused by ONNX Runtime.</p>"
                     "<table id=\"ort-writers\"><tr><th>part</th><th>passed</th><th>failed</th><th>closing line</th></tr>")
        for r in w:
            cells = ([str(r.get("passed", 0)), str(r.get("failed", 0)), escape(r.get("closing_line", ""))]
                     if r.get("status") == "run" else ["-", "-", escape("not run: " + r.get("reason", ""))])
            parts.append(f"<tr><td>{escape(r['part'])}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    parts.append("</section>")
    return "".join(parts)


# ---------------------------------------------------------------- junit

def junit(report):
    suites = []

    def suite(name, cases):
        failures = sum(1 for c in cases if c[1] == "failed")
        skipped = sum(1 for c in cases if c[1] == "skipped")
        body = []
        for case_name, status, message, seconds in cases:
            inner = ""
            if status == "failed":
                inner = f"<failure message={quoteattr(message[:500])}>{escape(message)}</failure>"
            elif status == "skipped":
                inner = f"<skipped message={quoteattr(message[:500])}/>"
            body.append(f'    <testcase classname={quoteattr(name)} name={quoteattr(case_name)} '
                        f'time="{seconds:.3f}">{inner}</testcase>')
        suites.append(f'  <testsuite name={quoteattr(name)} tests="{len(cases)}" failures="{failures}" '
                      f'errors="0" skipped="{skipped}">\n' + "\n".join(body) + "\n  </testsuite>")

    h = report.get("hostile", {})
    if h.get("status") == "run":
        cases = []
        for c in h["cases"]:
            r = c["results"].get("onnximport", {})
            want = "accept" if c["expected"] == "accept" else c.get("expected_kind")
            got = r.get("kind") if r.get("outcome") == "refused" else r.get("outcome")
            msg = f"expected {want}, got {got}: {r.get('message', '')}"
            status = {True: "passed", False: "failed"}.get(c["pass"], "skipped")
            if status == "skipped":
                msg = "import from bytes: the command line cannot pose it; hostile_tests judges it"
            cases.append((c["file"], status, msg, r.get("seconds", 0.0)))
        suite("hostile", cases)
    for run in report.get("sweep", {}).get("runs", []):
        if run["status"] == "run":
            suite(f'sweep.{run["id"]}', [(m["name"], m["status"], m.get("reason", "") + "\n" + m.get("detail", ""),
                                          m.get("seconds", 0.0)) for m in run.get("models", [])])
    fz = report.get("fuzz", {})
    if fz.get("status") == "run":
        suite("fuzz", [(t["name"], "passed" if t["status"] == "ok" else "failed", t.get("reason", t["status"]),
                        float(t.get("seconds", 0))) for t in fz["targets"]])
    o = report.get("ort", {})
    if o.get("status") == "run" and o.get("cases"):
        suite("ort", [(c["name"], c["status"], c.get("reason", ""), 0.0) for c in o["cases"]])
    return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="onnx-gauntlet report">\n' + "\n".join(suites) + "\n</testsuites>\n"


def render(out_dir):
    with open(os.path.join(out_dir, "report.json"), encoding="utf-8") as f:
        report = json.load(f)
    title = "onnx-gauntlet conformance report"
    meta = (f'<p>commit {escape(report.get("commit", "?"))} — generated {escape(report.get("generated", "?"))} — '
            f'{escape(report.get("host", ""))}</p>')
    body = (meta + render_summary(report) + render_plots(report, out_dir) + render_sweep(report, out_dir)
            + render_hostile(report, out_dir) + render_matrix(report) + render_fuzz(report, out_dir)
            + render_campaigns(report) + render_ort(report))
    write(os.path.join(out_dir, "index.html"), page(title, body))
    findings = render_findings_body(report.get("matrix", {}), safe_name)
    if findings is not None:
        write(os.path.join(out_dir, "findings.html"), page("onnx-gauntlet: matrix findings", findings))
    write(os.path.join(out_dir, "junit.xml"), junit(report))
    return os.path.join(out_dir, "index.html")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: render.py REPORT_DIR", file=sys.stderr)
        sys.exit(2)
    print(render(sys.argv[1]))
