"""The fuzz campaigns section of the report: corpus/campaigns.jsonl, one record
per target per campaign as `make nightly` appends them (python/gauntlet/fuzz/records.py), read
as it is: the report runs nothing for it. What the page shows: every record in a table,
per-target totals (CPU-seconds as the kernel counted them, executions, the longest
campaign's peak RSS, open findings), and the edges each target gained since its first
record against its CPU-hours so far."""
import json
import os

from gauntlet.fuzz.records import totals as records_totals

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
    """records.totals per target, as the page's rows: in target order, findings as their signatures."""
    rows = []
    for name, t in sorted(records_totals(records).items()):
        longest = {k: t["longest"].get(k) for k in ("date", "cpu_seconds", "peak_rss_mb", "rss_start_mb", "rss_end_mb")}
        rows.append({"target": name, "campaigns": t["campaigns"], "cpu_seconds": t["cpu_seconds"], "execs": t["execs"],
                     "edges": t["edges"], "features": t["features"], "longest": longest,
                     "findings": t["signatures"]})
    return rows


def coverage_series(records):
    """[(target, [(CPU-hours so far, edges gained since the first record)])] in record order:
    each target starts at (0, 0), so targets of a few hundred and a few thousand edges share
    one plot and its growth shows."""
    series, base = {}, {}
    for r in records:
        t = r["target"]
        if t not in series:
            base[t] = r.get("edges_before") or 0
            series[t] = [[0.0, 0]]
        hours = series[t][-1][0] + (r.get("cpu_seconds") or 0) / 3600
        series[t].append([round(hours, 4), (r.get("edges_after") or 0) - base[t]])
    return sorted(series.items())
