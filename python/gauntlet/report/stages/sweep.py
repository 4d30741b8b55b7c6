"""The sweep stage of `make report`: `gauntlet sweep` over the shared 1.23 backend data (when
present) and over the data set generated from the installed onnx package; each run's counts,
its per-model table and the files of the models that did not pass, copied into the report."""
import os
import shutil
import subprocess
import time

from gauntlet import settings
from gauntlet.report.logged_run import GAUNTLET, closing_counts, run_logged, tail
from gauntlet.report.progress import say
from gauntlet.settings import ROOT

SHARED = ("shared-1.23", "ONNX backend test data 1.23 (shared)")
GENERATED = ("generated", "generated backend test data")

SWEEP_STATUS = {"pass": "passed", "skipped": "skipped", "refused": "failed", "diff": "failed", "fail": "failed"}


def sweep_models(sweep_out):
    """Per-model rows of one sweep run: $BUILD/sweep/<data set>/table.tsv as python/gauntlet/sweep/report.py
    writes it (model, status in pass/diff/refused/fail/skipped, detail), or None."""
    table = os.path.join(sweep_out, "table.tsv")
    if not os.path.isfile(table):
        return None
    models = []
    with open(table, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f):
            parts = line.rstrip("\n").split("\t")
            if n == 0 and parts[0] == "model":
                continue
            if not parts[0]:
                continue
            raw = parts[1] if len(parts) > 1 else "fail"
            models.append({"name": parts[0], "status": SWEEP_STATUS.get(raw, "failed"), "outcome": raw,
                           "reason": f"{raw}: {parts[2]}" if len(parts) > 2 and parts[2] else raw})
    return models


def keep_sweep_files(sweep_out, keep, model):
    """Copies what a reader of one model's detail page needs into the report folder: the
    diff, and both dumps (or the refusal) of a model that did not pass."""
    files, detail = [], ""
    candidates = [("diffs", ".diff", "diff of the two dumps"), ("cpp", ".dump", "our dump"),
                  ("cpp", ".refused", "our refusal"), ("py", ".dump", "the onnx package's dump"),
                  ("py", ".failed", "the onnx package's failure"), ("py", ".skipped", "why the Python side skipped")]
    for side, ext, label in candidates:
        src = os.path.join(sweep_out, side, model["name"] + ext)
        if not os.path.isfile(src):
            continue
        dst = os.path.join(keep, side, model["name"] + ext + ".txt")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        files.append({"label": label, "path": dst})
        if ext in (".diff", ".refused", ".failed") and not detail:
            with open(src, encoding="utf-8", errors="replace") as f:
                detail = f.read(20000)
    return files, detail


def data_sets(args, stages, runs):
    """(id, label, folder) of each data set to sweep; one that cannot be had goes into runs as not run."""
    found = []
    shared = settings.SHARED_BACKEND_DATA
    if os.path.isdir(shared):
        found.append((*SHARED, shared))
    else:
        runs.append({"id": SHARED[0], "label": SHARED[1], "status": "not run",
                     "reason": f"{shared} is not present on this machine"})
    log = os.path.join(args.out, "logs", "gen_backend_data.log")
    start = time.monotonic()
    gen = settings.module_argv("gauntlet.sweep.gen_backend_data") + [os.path.abspath(args.build)]
    proc = subprocess.run(gen, capture_output=True, text=True, cwd=ROOT, timeout=600)
    with open(log, "w") as f:
        f.write(proc.stdout + proc.stderr)
    data = proc.stdout.strip().splitlines()[-1] if proc.returncode == 0 and proc.stdout.strip() else None
    if data and os.path.isdir(data):
        stages.add("sweep: generate data set", "ok", time.monotonic() - start, data, log)
        found.append((GENERATED[0], "backend test data generated from the installed onnx package", data))
    else:
        reason = f"gauntlet.sweep.gen_backend_data failed (exit {proc.returncode})"
        stages.add("sweep: generate data set", "failed", time.monotonic() - start, reason, log)
        runs.append({"id": GENERATED[0], "label": GENERATED[1], "status": "not run", "reason": reason})
    return found


def keep_models(args, run, sweep_out):
    """The run's per-model rows, with the table and the files of each model that did not
    pass copied into the report folder, so the report can be moved or published whole."""
    models = sweep_models(sweep_out)
    if models is None:
        run["models"] = []
        run["note"] = "the sweep wrote no per-model table; counts come from its closing line"
        return
    keep = os.path.join(args.out, "sweep", run["id"])
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep, exist_ok=True)
    shutil.copyfile(os.path.join(sweep_out, "table.tsv"), os.path.join(keep, "table.tsv"))
    for m in models:
        if m["status"] != "passed":
            m["files"], m["detail"] = keep_sweep_files(sweep_out, keep, m)
    run["models"] = models
    run["table"] = os.path.join(keep, "table.tsv")


def run_sweep(args, stages, run_id, label, data):
    """One data set through `gauntlet sweep`: its run for report.json."""
    say(f"sweep: {label}: {data}")
    log = os.path.join(args.out, "logs", f"sweep-{run_id}.log")
    env = dict(os.environ, BUILD=os.path.abspath(args.build))
    rc, secs = run_logged(GAUNTLET + ["sweep", data], log, args.sweep_timeout, f"sweep {run_id}", env=env)
    counts = closing_counts(tail(log))
    if counts is None:
        reason = "timed out" if rc is None else f"gauntlet sweep exit {rc} without a closing line"
        stages.add(f"sweep: {run_id}", "failed", secs, reason, log)
        return {"id": run_id, "label": label, "status": "not run", "reason": reason, "data_dir": data}
    run = {"id": run_id, "label": label, "status": "run", "data_dir": data, **counts, "seconds": round(secs, 1)}
    keep_models(args, run, os.path.join(args.build, "sweep", os.path.basename(os.path.normpath(data))))
    stages.add(f"sweep: {run_id}", "ok" if counts["failed"] == 0 else "failed", secs, counts["closing_line"], log)
    say(f"sweep {run_id}: {counts['closing_line']}")
    return run


def stage_sweep(args, stages):
    runs = []
    for run_id, label, data in data_sets(args, stages, runs):
        runs.append(run_sweep(args, stages, run_id, label, data))
    order = {SHARED[0]: 0, GENERATED[0]: 1}
    runs.sort(key=lambda r: order.get(r["id"], 2))
    return {"status": "run" if any(r["status"] == "run" for r in runs) else "not run",
            "reason": "; ".join(r.get("reason", "") for r in runs if r["status"] != "run"), "runs": runs}


def runs_not_run(reason):
    """The runs of a sweep stage that did not run at all, for the page's sweep table."""
    return [{"id": i, "label": label, "status": "not run", "reason": reason} for i, label in (SHARED, GENERATED)]
