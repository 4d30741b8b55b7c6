"""The fuzz campaigns section of the report (issue 19): corpus/campaigns.jsonl, one record
per target per campaign as `make nightly` appends them (tools/fuzzing/records.py), read
as it is: the report runs nothing for it. What the page shows: every record in a table,
per-target totals (CPU-seconds as the kernel counted them, executions, the longest
campaign's peak RSS, open findings), and coverage after each campaign against the
target's CPU-hours so far."""
import json
import os

def load(path):
    if not os.path.isfile(path):
        return {"status": "not run", "reason": f"{path} does not exist yet (make nightly writes it)"}
    records, bad = [], 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                try:
                    records.append(json.loads(line))
                except ValueError:
                    bad += 1
    if not records:
        return {"status": "not run", "reason": f"{path} holds no campaign record"}
    return {"status": "run", "path": path, "records": records, "unreadable_lines": bad,
            "totals": totals(records), "series": coverage_series(records)}


def totals(records):
    out = {}
    for r in records:
        t = out.setdefault(r["target"], {"target": r["target"], "campaigns": 0, "cpu_seconds": 0.0, "execs": 0,
                                          "edges": None, "features": None, "longest": None, "findings": set()})
        t["campaigns"] += 1
        t["cpu_seconds"] += r.get("cpu_seconds") or 0
        t["execs"] += r.get("execs") or 0
        t["edges"], t["features"] = r.get("edges_after", t["edges"]), r.get("features_after", t["features"])
        if t["longest"] is None or (r.get("cpu_seconds") or 0) > (t["longest"].get("cpu_seconds") or 0):
            t["longest"] = {k: r.get(k) for k in ("date", "cpu_seconds", "peak_rss_mb", "rss_start_mb", "rss_end_mb")}
        for f in r.get("findings", []):
            t["findings"].add(f.get("signature", "?"))
    rows = []
    for t in sorted(out.values(), key=lambda t: t["target"]):
        t["findings"] = sorted(t["findings"])
        rows.append(t)
    return rows


def coverage_series(records):
    """[(target, [(cpu hours so far, edges after)])], starting at the first campaign's
    edges before, in record order."""
    series = {}
    for r in records:
        pts = series.get(r["target"])
        if pts is None:
            pts = series[r["target"]] = [[0.0, r.get("edges_before") or 0]]
        hours = pts[-1][0] + (r.get("cpu_seconds") or 0) / 3600
        pts.append([round(hours, 4), r.get("edges_after") or 0])
    return sorted(series.items())
