"""The fuzz stage of `make report` (docs/fuzzing.md): tools/setup_fuzz.sh, then a short
`gauntlet fuzz --no-merge` of every target; each target's record and libFuzzer's own log."""
import json
import os
import re
import shutil

from gauntlet.fuzz import paths as fuzz_paths
from gauntlet.report.logged_run import GAUNTLET, run_logged, tail
from gauntlet.report.progress import say
from gauntlet.settings import ROOT

STAT = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)(?: corp: (\d+)/\S+)?.*?(?:exec/s: (\d+))?")
FINAL = re.compile(r"stat::(\w+):\s+(\d+)")


def parse_libfuzzer(text, seconds):
    """Execs, coverage and a coverage-over-time series from libFuzzer's own status lines.

    libFuzzer prints `#EXECS KIND cov: N ft: N corp: N/.. exec/s: N`; a line's time is
    estimated from its exec count and the campaign's mean rate.
    """
    points, last = [], None
    for line in text.splitlines():
        m = STAT.match(line.strip())
        if m:
            last = m
            points.append((int(m.group(1)), int(m.group(3))))
    final = {k: int(v) for k, v in FINAL.findall(text)}
    stats = {}
    if last:
        stats = {"execs": int(last.group(1)), "coverage": int(last.group(3)), "features": int(last.group(4)),
                 "corpus": int(last.group(5)) if last.group(5) else None}
    if "number_of_executed_units" in final:
        stats["execs"] = final["number_of_executed_units"]
    if "average_exec_per_sec" in final:
        stats["exec_per_sec"] = final["average_exec_per_sec"]
    execs = stats.get("execs") or 0
    if execs and seconds:
        stats.setdefault("exec_per_sec", int(execs / seconds))
        stats["series"] = [(round(seconds * e / execs, 2), c) for e, c in points]
    return stats


# The fuzz build of a fresh clone (about 250 objects, clang with sanitizers) took over 900 s
# on the 2-core machine under load (docs/matrix.md, "Time per peer"): room for that, still bounded.
SETUP_LIMIT = 1800


def stage_fuzz(args, stages):
    if args.fuzz_seconds <= 0:
        reason = "FUZZ_SECONDS=0"
        stages.add("fuzz", "not run", 0, reason)
        return {"status": "not run", "reason": reason}
    log = os.path.join(args.out, "logs", "setup_fuzz.log")
    say("fuzz: building the targets (tools/setup_fuzz.sh)")
    rc, secs = run_logged([os.path.join(ROOT, "tools", "setup_fuzz.sh")], log, SETUP_LIMIT, "setup_fuzz")
    if rc != 0:
        reason = (f"tools/setup_fuzz.sh timed out after {SETUP_LIMIT} s" if rc is None
                  else f"tools/setup_fuzz.sh exit {rc}")
        stages.add("fuzz: setup", "failed", secs, reason, log)
        return {"status": "not run", "reason": reason}
    stages.add("fuzz: setup", "ok", secs, "", log)
    names = fuzz_paths.targets()
    if not names:
        reason = "tools/setup_fuzz.sh built no target of corpus/*.options in build-fuzz/"
        stages.add("fuzz", "not run", 0, reason)
        return {"status": "not run", "reason": reason}
    targets = []
    for name in names:
        say(f"fuzz: {name} for {args.fuzz_seconds} s")
        t = fuzz_smoke(args, name)
        targets.append(t)
        stages.add(f"fuzz: {name}", t["status"], t["wall_seconds"],
                   f'{t.get("execs", 0)} execs, cov {t.get("coverage", "?")}', os.path.join(args.out, t["log"]))
    return {"status": "run", "seconds_per_target": args.fuzz_seconds, "targets": targets}
def fuzz_smoke(args, name):
    """One target for --fuzz-seconds through the fuzz driver (gauntlet fuzz --no-merge: the
    corpus stays as it is, findings are triaged and filed); its record and libFuzzer's log."""
    work = os.path.join(args.out, "fuzz", name)
    shutil.rmtree(work, ignore_errors=True)
    record = os.path.join(work, "record.jsonl")
    tlog = os.path.join(args.out, "logs", f"fuzz-{name}.log")
    cmd = GAUNTLET + ["fuzz", "--no-build", "--no-merge", "--targets", name, "--seconds", str(args.fuzz_seconds),
                      "--record", record, "--work", work]
    rc, secs = run_logged(cmd, tlog, args.fuzz_seconds * 4 + 300, f"fuzz {name}")
    engine_log = os.path.join(work, name, "fuzz.log")
    engine_text = tail(engine_log, 4 << 20) if os.path.isfile(engine_log) else ""
    t = {"name": name, "seconds": args.fuzz_seconds, "wall_seconds": round(secs, 1),
         "log": os.path.relpath(tlog, args.out),
         "log_tail": tail(tlog, 2000) + "\n--- libFuzzer (tail) ---\n" + engine_text[-3000:]}
    if engine_text:
        keep = os.path.join(args.out, "logs", f"fuzz-{name}-libfuzzer.log")
        shutil.copyfile(engine_log, keep)
        t["campaign_log"] = os.path.relpath(keep, args.out)
    t.update(parse_libfuzzer(engine_text, args.fuzz_seconds))
    add_record(t, read_last_record(record), rc)
    return t


def add_record(t, rec, rc):
    """The driver's record into the target's row (its figures over libFuzzer's), and the verdict."""
    if rec:
        t.update({"execs": rec["execs"], "new_inputs": rec["found_inputs"]})
        t["coverage"] = rec["edges_seen"] if rec["edges_seen"] is not None else t.get("coverage")
        t["features"] = rec["features_seen"] if rec["features_seen"] is not None else t.get("features")
    t["filed"] = [f["filed"] for f in rec["findings"]] if rec else []
    t["crashes"] = len(rec["findings"]) if rec else 0
    if rc is None:
        t["status"], t["reason"] = "failed", "the campaign ran past its time limit"
    elif t["crashes"] or rc != 0 or not rec:
        filed = "; filed: " + ", ".join(t["filed"]) if t["filed"] else ""
        t["status"], t["reason"] = "failed", f"exit {rc}; {t['crashes']} finding(s){filed}"
    else:
        t["status"] = "ok"


def read_last_record(path):
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    return json.loads(lines[-1]) if lines else None
