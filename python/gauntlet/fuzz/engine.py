"""Runs a fuzzing engine on one target for a while and says what it spent and saw.

libFuzzer: one process when jobs is 1 (restarted after a finding while time is left, so
a campaign goes on past a crash and RSS is one process's over the whole slice), else
`-fork=JOBS -ignore_crashes=1` (libFuzzer's crash-resistant parallel mode). AFL++: one
main and JOBS-1 secondary afl-fuzz instances (engine_afl.py).

CPU-seconds are the kernel's count for the engine's whole process tree (wait4's rusage
of the child, which includes every descendant it waited for), not wall time; RSS is the
same rusage's peak (ru_maxrss) and the `rss:` of libFuzzer's status lines over time.
"""
import ctypes
import os
import re
import resource
import signal
import subprocess
import threading
import time

STATUS = re.compile(r"^#(\d+)\s*:?\s+(?:(\w+)\s+)?cov: (\d+) ft: (\d+)(?:.*?\brss: (\d+)Mb)?")
FINAL = re.compile(r"stat::(\w+):\s+(\d+)")


class Stopper:
    """Set by the campaign's signal handler: the running engine is asked to finish
    (SIGINT: libFuzzer prints its final stats and exits), and no new slice starts."""

    def __init__(self):
        self.event = threading.Event()
        self.procs = set()

    def stop(self):
        self.event.set()
        for proc in list(self.procs):
            try:
                os.killpg(proc.pid, signal.SIGINT)
            except (ProcessLookupError, PermissionError):
                pass

    @property
    def stopped(self):
        return self.event.is_set()


def become_subreaper():
    """Orphans of the engines (AFL++'s persistent-mode target once its forkserver is gone)
    are reparented to this process instead of init, so their CPU time is counted when they
    are reaped (children_cpu). Linux only; a no-op elsewhere."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def children_cpu(settle=0.0):
    """CPU seconds of every child reaped so far, after reaping the finished ones; with
    `settle`, waits up to that many seconds for the last children (orphans reparented to
    this subreaper once their parents died) to be gone."""
    deadline = time.monotonic() + settle
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break  # no child left
        if pid == 0:
            if time.monotonic() >= deadline:
                break
            time.sleep(0.05)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_measured(cmd, log_path, wall_limit, stopper=None, cwd=None, env=None):
    """Runs cmd in its own process group, output to log_path. Returns (exit status or
    None when it had to be killed, cpu seconds, peak RSS in MiB, wall seconds)."""
    start = time.monotonic()
    with open(log_path, "ab") as log:
        log.write(("$ " + " ".join(cmd) + "\n").encode())
        log.flush()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=env,
                                start_new_session=True)
    if stopper:
        stopper.procs.add(proc)
    killed = threading.Event()

    def watchdog():
        # A grace period past the engine's own limit, then SIGINT, then SIGKILL.
        if finished.wait(wall_limit):
            return
        for sig, grace in ((signal.SIGINT, 30), (signal.SIGKILL, 0)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            killed.set()
            if finished.wait(grace):
                return

    finished = threading.Event()
    threading.Thread(target=watchdog, daemon=True).start()
    _, status, usage = os.wait4(proc.pid, 0)
    finished.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stopper:
        stopper.procs.discard(proc)
    # Anything the engine left behind in its group (afl-fuzz's forkserver) is ended.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    cpu = usage.ru_utime + usage.ru_stime
    return (None if killed.is_set() and proc.returncode < 0 else proc.returncode, cpu,
            usage.ru_maxrss / 1024.0, time.monotonic() - start)


def parse_libfuzzer_log(text):
    """Status lines and final stats of a libFuzzer log (one process or -fork)."""
    points, rss, first, last = [], [], None, None
    for line in text.splitlines():
        m = STATUS.match(line.strip())
        if not m:
            continue
        last = m
        # Growth counts from INITED, the corpus loaded: pulses before it are the load itself.
        first = m if m.group(2) == "INITED" else (first or m)
        points.append((int(m.group(1)), int(m.group(3)), int(m.group(4))))
        if m.group(5):
            rss.append(int(m.group(5)))
    final = {k: int(v) for k, v in FINAL.findall(text)}
    out = {"execs": final.get("number_of_executed_units", int(last.group(1)) if last else 0),
           "rss_series_mb": rss, "peak_rss_mb_reported": final.get("peak_rss_mb")}
    if last:
        out["edges"], out["features"] = int(last.group(3)), int(last.group(4))
        out["feature_growth"] = int(last.group(4)) - int(first.group(4))
    return out


def artifacts(folder):
    """Findings an engine wrote: libFuzzer's crash-, timeout-, oom-, leak- files."""
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        kind = name.split("-", 1)[0]
        if kind in ("crash", "timeout", "oom", "leak", "slow"):
            if kind != "slow":
                found.append(os.path.join(folder, name))
    return found


def libfuzzer(binary, flags, seconds, jobs, new_dir, corpus_dirs, work, stopper, nice=None, max_restarts=3, env=None):
    """Fuzzes for `seconds` of wall time. New inputs go to new_dir (the first corpus
    folder, as libFuzzer writes there), findings to work/artifacts/. Returns a dict:
    cpu_seconds, wall_seconds, execs, peak_rss_mb, rss_series_mb, runs, artifacts."""
    art = os.path.join(work, "artifacts") + "/"
    os.makedirs(art, exist_ok=True)
    os.makedirs(new_dir, exist_ok=True)
    log = os.path.join(work, "fuzz.log")
    prefix = ["nice", "-n", str(nice)] if nice is not None else []
    total = {"cpu_seconds": 0.0, "wall_seconds": 0.0, "execs": 0, "peak_rss_mb": 0.0, "rss_series_mb": [],
             "runs": 0, "exit_codes": [], "feature_growth": 0}
    deadline = time.monotonic() + seconds
    while not (stopper and stopper.stopped):
        left = int(deadline - time.monotonic())
        if left < 5 or total["runs"] > max_restarts:
            break
        mode = [f"-fork={jobs}", "-ignore_crashes=1"] if jobs > 1 else []
        cmd = prefix + [binary] + flags + mode + [
            f"-max_total_time={left}", "-print_final_stats=1", "-timeout=25", f"-artifact_prefix={art}",
            new_dir] + list(corpus_dirs)
        start_size = os.path.getsize(log) if os.path.exists(log) else 0
        rc, cpu, rss, wall = run_measured(cmd, log, left + 120, stopper, cwd=work, env=env)
        with open(log, "rb") as f:
            f.seek(start_size)
            stats = parse_libfuzzer_log(f.read().decode("utf-8", "replace"))
        total["runs"] += 1
        total["exit_codes"].append(rc)
        total["cpu_seconds"] += cpu
        total["wall_seconds"] += wall
        total["execs"] += stats["execs"]
        total["peak_rss_mb"] = max(total["peak_rss_mb"], rss, stats["peak_rss_mb_reported"] or 0)
        total["rss_series_mb"] += stats["rss_series_mb"]
        total["feature_growth"] += stats.get("feature_growth", 0)
        for key in ("edges", "features"):
            if key in stats:
                total[key] = stats[key]
        if rc == 0 or jobs > 1:
            break  # time is up (a fork campaign goes on past crashes by itself)
    total["artifacts"] = artifacts(art)
    return total


def measure_corpus(binary, flags, corpus_dir, work, nice=None, env=None, also=()):
    """Edges and features of a corpus as the libFuzzer binary counts them (-runs=0: every
    input executed once, libFuzzer's INITED line), with the inputs of the folders `also`
    when given, and how many files the corpus holds."""
    log = os.path.join(work, "measure.log")
    if os.path.exists(log):
        os.remove(log)
    prefix = ["nice", "-n", str(nice)] if nice is not None else []
    cmd = prefix + [binary] + [f for f in flags if not f.startswith("-dict=")] + [
        "-runs=0", "-timeout=25", corpus_dir] + [d for d in also if os.path.isdir(d)]
    empty = not any(os.scandir(corpus_dir)) if os.path.isdir(corpus_dir) else True
    rc, cpu, rss, _ = run_measured(cmd, log, 1800, cwd=work, env=env)
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    m = re.search(r"INITED cov: (\d+) ft: (\d+)", text)
    files = sum(1 for e in os.scandir(corpus_dir) if e.is_file()) if os.path.isdir(corpus_dir) else 0
    return {"edges": int(m.group(1)) if m else (0 if empty else None),
            "features": int(m.group(2)) if m else (0 if empty else None),
            "files": files, "cpu_seconds": cpu, "rc": rc}


def merge(binary, flags, corpus_dir, new_dirs, work, nice=None, env=None):
    """Keeps in corpus_dir what adds coverage from new_dirs (libFuzzer -merge=1, the
    corpus first so its files are preferred). Returns (files added, cpu seconds)."""
    dirs = [d for d in new_dirs if os.path.isdir(d) and any(os.scandir(d))]
    before = sum(1 for e in os.scandir(corpus_dir) if e.is_file())
    if not dirs:
        return 0, 0.0
    control = os.path.join(work, "merge.control")
    if os.path.exists(control):
        os.remove(control)  # libFuzzer would resume the merge it records, not start this one
    prefix = ["nice", "-n", str(nice)] if nice is not None else []
    cmd = prefix + [binary] + [f for f in flags if not f.startswith("-dict=")] + [
        "-merge=1", "-timeout=25", f"-merge_control_file={control}", corpus_dir] + dirs
    _, cpu, _, _ = run_measured(cmd, os.path.join(work, "merge.log"), 3600, cwd=work, env=env)
    return sum(1 for e in os.scandir(corpus_dir) if e.is_file()) - before, cpu
