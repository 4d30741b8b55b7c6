"""report.json of `make report` (gauntlet/report/README.md, "report.json"): the sections the
stages returned, the run's facts, and the summary the page and the closing line show."""
import datetime
import os
import subprocess
import time

from gauntlet.report.progress import T0
from gauntlet.settings import ROOT

SCHEMA = "onnx-gauntlet-report/1"
PEERS_IN_SUMMARY = ("onnx.load", "onnx.load-noext", "onnx.checker", "opencv", "protobufjs", "onnxruntime")


def git_commit():
    try:
        out = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def suite(id_, label, section):
    """A suite of the summary from a section (or a sweep run) with counts."""
    return {"id": id_, "label": label, "status": section["status"], "reason": section.get("reason"),
            "passed": section.get("passed", 0), "failed": section.get("failed", 0),
            "skipped": section.get("skipped", 0)}


def suites_of(report):
    """Every suite with counts: hostile, each sweep run, .ort, ONNX Runtime's run, the matrix's lists."""
    suites = [suite("hostile", "hostile corpus", report["hostile"])]
    suites += [suite(f"sweep.{run['id']}", f"sweep: {run['label']}", run) for run in report["sweep"]["runs"]]
    o = report["ort"]
    suites.append(suite("ort", ".ort conformance", o))
    if o.get("run"):
        suites.append(suite("ort.run", "ONNX Runtime runs the backend models", o["run"]))
    m = report["matrix"]
    if m.get("status") == "run" and m.get("known"):
        k = m["known"]
        suites.append({"id": "matrix.known", "label": "matrix: expected-failure lists (sweep/known/)", "status": "run",
                       "reason": None, "passed": sum(1 for v in k.values() if v["status"] == "current"),
                       "failed": sum(len(v["stale"]) + len(v["new"]) for v in k.values()), "skipped": 0})
    return suites


def fuzz_summary(fz):
    fuzz = {"status": fz["status"], "reason": fz.get("reason")}
    if fz["status"] == "run":
        fuzz.update({"targets": len(fz["targets"]), "seconds_per_target": fz["seconds_per_target"],
                     "execs": sum(t.get("execs", 0) or 0 for t in fz["targets"]),
                     "coverage": {t["name"]: t.get("coverage") for t in fz["targets"]},
                     "crashes": sum(t.get("crashes", 0) for t in fz["targets"]),
                     "failed": sum(1 for t in fz["targets"] if t["status"] != "ok")})
    return fuzz


def summarize(report):
    suites = suites_of(report)
    m = report["matrix"]
    ours = m.get("summary", {}).get("onnximport") if m.get("status") == "run" else None
    fz = report["fuzz"]
    fuzz = fuzz_summary(fz)
    passed = sum(s["passed"] for s in suites if s["status"] == "run") + \
        (fuzz["targets"] - fuzz["failed"] if fz["status"] == "run" else 0)
    failed = sum(s["failed"] for s in suites if s["status"] == "run") + fuzz.get("failed", 0)
    not_run = [s["label"] for s in suites if s["status"] != "run"] + (["fuzz"] if fz["status"] != "run" else [])
    peers = []
    for imp in PEERS_IN_SUMMARY:
        s = m.get("summary", {}).get(imp) if m.get("status") == "run" else None
        if s:
            peers.append(f"{imp} accepts {s['accepted_spec_refuses']} the spec refuses")
    line = f"{passed} passed, {failed} failed"
    return {"suites": suites, "fuzz": fuzz, "passed": passed, "failed": failed, "not_run": not_run,
            "matrix_ours": ours, "line": line + (f" ({'; '.join(peers)})" if peers else ""),
            "closing_line": line}


def report_document(sections, stages):
    """report.json's document: the stages' sections (hostile, sweep, ort, fuzz, matrix,
    campaigns), the run's facts, the stage table and the summary."""
    report = {
        "schema": SCHEMA,
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": git_commit(),
        "host": f"{os.cpu_count()} cores",
        "seconds": round(time.monotonic() - T0, 1),
        **sections, "stages": stages.items,
    }
    report["summary"] = summarize(report)
    return report
