"""The hostile corpus section of the report and one detail page per case: what each
importer did with the file, against the manifest, with a hex dump of the bytes at issue."""
import json
import os
from html import escape
from xml.sax.saxutils import quoteattr

from gauntlet.report.html import not_run, page, safe_name, write

VERDICT = {True: "matches the spec", False: "differs from the spec",
           None: "not judged: the case sets import options this importer does not have"}
OUTCOME_SHORT = {"accepted": "accepted", "refused": "refused", "crashed": "CRASH", "timeout": "TIMEOUT"}


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


def _mib(result):
    """The answer's memory (docs/matrix.md, "Memory") in MiB, or a dash where it was not measured."""
    return "-" if result.get("memory_kib") is None else f'{result["memory_kib"] / 1024:.0f}'


def _said(result):
    """The reader's message, with the class of what it threw and a crash of its first run, when
    a fresh worker answered otherwise (docs/matrix.md, "The worker protocol", "Internal errors")."""
    said = result.get("message", "")
    kind = result.get("error_type")
    if result["outcome"] == "refused" and kind and not said.startswith(kind):  # Python's messages name it
        said = f"{kind}: {said}"
    if result.get("first_run"):
        said += f' (a worker that had read the files before it: {result["first_run"]["message"]})'
    return said


def render_case_detail(case, importers, corpus_rel, published):
    rows = []
    for imp in importers:
        r = case["results"].get(imp["id"])
        if r is None:
            rows.append(f'<tr><td>{escape(imp["label"])}</td><td colspan="6" class="notrun">not run</td></tr>')
            continue
        where = ""
        if r.get("offset") is not None or r.get("field_path"):
            where = f'offset {r.get("offset", "-")}, <code class="path">{escape(r.get("field_path") or "-")}</code>'
        rows.append(f'<tr><td>{escape(imp["label"])}</td>{outcome_cell(r, imp["id"])}'
                    f'<td>{VERDICT[r["match"]]}</td><td>{where}</td>'
                    f'<td class="msg">{escape(_said(r))}</td><td class="num">{r.get("seconds", 0):.3f}</td>'
                    f'<td class="num">{_mib(r)}</td></tr>')
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
            + '<table><tr><th>importer</th><th>outcome</th><th>verdict</th><th>where</th><th>message</th><th>s</th><th>MiB</th></tr>'
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
