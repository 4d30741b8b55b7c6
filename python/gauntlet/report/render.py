"""Renders the conformance report from report.json into a page a person opens.

    render.py REPORT_DIR        reads REPORT_DIR/report.json, writes into REPORT_DIR:
        index.html              self-contained (inline CSS and SVG, no script, no network)
        junit.xml               one test case per model, per hostile case, per fuzz target
        plots/*.svg             the charts of the page, as files too
        details/...             one page per hostile case, per sweep model with a finding,
                                per fuzz target

Sections of their own: render_hostile.py, render_fuzz.py, render_findings.py; the frame and
style of every page html.py, the charts plots.py, junit.xml junit.py.

report.json is written by make_report.py (the run) and is the single source: rendering
again from it gives the same page, which is how the render test builds a small report
from fixtures.
"""
import json
import os
import sys
from html import escape
from xml.sax.saxutils import quoteattr

from gauntlet.report.html import not_run, page, safe_name, write
from gauntlet.report.junit import junit
from gauntlet.report.plots import render_plots
from gauntlet.report.render_findings import render_findings_body
from gauntlet.report.render_fuzz import render_campaigns, render_fuzz
from gauntlet.report.render_hostile import outcome_cell, render_hostile



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
                         f'{ms["timeout"]} timed out, read outside the folder in {ms.get("read_outside", 0)}, '
                         f'amplified memory in {ms.get("memory_amplified", 0)}, internal errors in '
                         f'{ms.get("internal_errors", 0)}; refuses '
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


# ---------------------------------------------------------------- matrix (the hostile section: render_hostile.py)

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
            srows.append(f'<tr><td>{escape(imp["label"])}</td><td colspan="12" class="notrun">not run: '
                         f'{escape(imp.get("reason") or "")}</td></tr>')
            continue
        srows.append(f'<tr><td>{escape(imp["label"])}</td><td>{escape(str(imp.get("version") or ""))}</td>'
                     f'<td class="num">{s["match"]}/{s["cases"]}</td><td class="num">{s["accepted_spec_refuses"]}</td>'
                     f'<td class="num">{s["refused_spec_accepts"]}</td><td class="num">{s["wrong_kind"]}</td>'
                     f'<td class="num">{s["crashed"]}</td><td class="num">{s["timeout"]}</td>'
                     f'<td class="num">{s.get("not_judged", 0)}</td><td class="num">{s.get("read_outside", 0)}</td>'
                     f'<td class="num">{s.get("read_differently", 0)}</td>'
                     f'<td class="num">{s.get("memory_amplified", 0)}</td>'
                     f'<td class="num">{s.get("internal_errors", 0)}</td></tr>')
    parts.append('<table id="matrix-summary"><tr><th>importer</th><th>version</th><th>as the spec says</th>'
                 '<th>accepted, spec refuses</th><th>refused, spec accepts</th><th>wrong kind</th><th>crashed</th>'
                 '<th>timed out</th><th>not judged (option cases)</th><th>read outside the folder</th>'
                 '<th>accepted, read differently</th><th>memory amplifications</th><th>internal errors</th></tr>'
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


# ---------------------------------------------------------------- .ort (fuzz: render_fuzz.py)

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


# ---------------------------------------------------------------- the page (junit.xml: junit.py)

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
