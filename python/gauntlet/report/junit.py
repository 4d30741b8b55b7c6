"""junit.xml of the report: one test case per model, per hostile case, per fuzz target,
per .ort case, for CI systems that read JUnit."""
from html import escape
from xml.sax.saxutils import quoteattr


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
