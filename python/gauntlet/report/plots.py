"""The charts of the report page, also written as files under plots/ (svg.py draws them)."""
import os

from gauntlet.report import svg
from gauntlet.report.html import write


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
