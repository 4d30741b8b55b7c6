"""corpus/campaigns.jsonl: one JSON object per target per campaign, appended, never
rewritten. Fields (docs/fuzzing.md has the full list): date, end, campaign, commit,
source_dirty, host, target, engine, jobs, nice, budget_seconds, wall_seconds,
cpu_seconds (the kernel's count for the engine's processes), execs, edges_before,
edges_after, features_before, features_after, corpus_before, corpus_after, new_inputs,
peak_rss_mb, rss_start_mb, rss_end_mb, slices, findings [{signature, filed, new, copies}],
unreproduced."""
import json
import os
import subprocess

from gauntlet.fuzz.paths import ROOT

# What the fuzz binaries are built from: a change elsewhere (tools/, docs/) does not
# make a campaign's binaries differ from the recorded commit.
SOURCES = ["importer", "harness/fuzz", "harness/support", "CMakeLists.txt"]


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def commit():
    return git("rev-parse", "--short=12", "HEAD") or "unknown"


def source_dirty():
    return bool(git("status", "--porcelain", "--", *SOURCES))


def append(path, records):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")


def load(path):
    out = []
    if not os.path.isfile(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def totals(records, key=lambda r: r["target"]):
    """{key (the target by default): {cpu_seconds, execs, campaigns, findings (the signatures each
    campaign reproduced, new or known, counted), signatures (the distinct ones, sorted), edges and
    features (after the last campaign that counted them), longest (the record with most cpu)}}."""
    out = {}
    for r in records:
        t = out.setdefault(key(r), {"cpu_seconds": 0.0, "execs": 0, "campaigns": 0, "findings": 0,
                                    "signatures": set(), "edges": None, "features": None, "longest": None})
        t["cpu_seconds"] += r.get("cpu_seconds") or 0
        t["execs"] += r.get("execs") or 0
        t["campaigns"] += 1
        t["findings"] += len(r.get("findings", []))
        t["signatures"].update(f.get("signature", "?") for f in r.get("findings", []))
        t["edges"], t["features"] = r.get("edges_after", t["edges"]), r.get("features_after", t["features"])
        if t["longest"] is None or (r.get("cpu_seconds") or 0) > (t["longest"].get("cpu_seconds") or 0):
            t["longest"] = r
    for t in out.values():
        t["signatures"] = sorted(t["signatures"])
    return out
