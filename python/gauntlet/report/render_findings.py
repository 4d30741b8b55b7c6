"""The findings page of the report, findings.html (docs/matrix.md, "Findings"), from the
matrix section's `findings` (findings.py): the divergence classes, then the pruned view.
"""
from html import escape

from gauntlet.report.findings import CLASSES

# The first six classes are the ones a reader must see first: harm, not opinion.
SEVERE = set(CLASSES[:6])


def _reproducer(entry, hostile_files, safe_name):
    name = escape(entry["reproducer"])
    size = f' ({entry["size"]} bytes)' if entry.get("size") is not None else ""
    if entry["reproducer"] in hostile_files:
        return f'<a href="details/hostile/{safe_name(entry["reproducer"])}.html">{name}</a>{size}'
    return f"<code>{name}</code>{size}"


def render_classes(f, hostile_files, safe_name):
    counts = "".join(f'<tr><td>{escape(c)}</td><td class="num">{f["counts"].get(c, 0)}</td></tr>' for c in CLASSES)
    rows = []
    for e in f["classes"]:
        cls = ' class="fail"' if e["class"] in SEVERE else ""
        rows.append(f'<tr{cls}><td>{escape(e["class"])}</td><td>{escape(e["importer"])}</td>'
                    f'<td title="{escape(e.get("rule") or "")}">{escape(e.get("rule_id") or "")}</td>'
                    f'<td class="num">{e["cases"]}</td><td class="path">{_reproducer(e, hostile_files, safe_name)}</td>'
                    f'<td class="msg">{escape(e.get("message") or "")}</td></tr>')
    return ('<section id="findings-classes"><h2>Divergence classes</h2>'
            '<p>Each way an importer departs from docs/rules.md, once per importer and rule, with the smallest file '
            'of the corpus that shows it and the importer\'s own message. Crashes, reads outside the folder, hangs, '
            'memory amplifications, internal errors and "accepted, read differently" come first.</p>'
            f'<table id="findings-counts"><tr><th>class</th><th>results</th></tr>{counts}</table>'
            '<table id="findings-table"><tr><th>class</th><th>importer</th><th>rule</th><th>cases</th>'
            f'<th>smallest reproducer</th><th>message</th></tr>{"".join(rows)}</table></section>')


def render_pruned(f):
    imps = f["importers"]
    head = "".join(f"<th>{escape(i)}</th>" for i in imps)
    rows = []
    for g in f["pruned"]:
        cells = "".join(f'<td class="{_cell_class(g["expected"], g["outcomes"][i])}">{escape(g["outcomes"][i])}</td>'
                        for i in imps)
        shown = ", ".join(g["cases"][:3]) + (f" and {len(g['cases']) - 3} more" if len(g["cases"]) > 3 else "")
        rows.append(f'<tr><td>{escape(g["expected"])}</td>{cells}<td class="num">{len(g["cases"])}</td>'
                    f'<td class="path">{escape(shown)}</td></tr>')
    return ('<section id="findings-pruned"><h2>Pruned view</h2>'
            '<p>The cases grouped by identical outcomes across every importer that ran, the largest group first.</p>'
            f'<table id="pruned-table"><tr><th>expected</th>{head}<th>cases</th><th>which</th></tr>'
            f'{"".join(rows)}</table></section>')


def _cell_class(expected, outcome):
    if outcome in ("crashed", "read outside", "read differently"):
        return "cell-crash"
    if outcome == "timeout":
        return "cell-timeout"
    if outcome == "-":
        return "cell-none"
    return "cell-match" if (outcome == "accepted") == (expected == "accept") else "cell-mismatch"


def render_findings_body(matrix, safe_name):
    """The body of findings.html, or None when the matrix has no findings section."""
    f = matrix.get("findings") if matrix.get("status") == "run" else None
    if not f:
        return None
    hostile_files = {c["file"] for c in matrix.get("cases", [])}
    return render_classes(f, hostile_files, safe_name) + render_pruned(f)
