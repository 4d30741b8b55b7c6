"""A stage's child process with its output in a log (gauntlet/report/README.md): a heartbeat
while it runs, a time limit that ends everything it started, and its closing line read back."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

from gauntlet import settings
from gauntlet.report.progress import say
from gauntlet.settings import ROOT

GAUNTLET = settings.module_argv("gauntlet")  # a stage that runs a command of this package


# Children run in their own process groups (so a timeout ends all they started); when
# make report itself is interrupted, those groups are ended too rather than left behind.
CHILDREN = set()


def end_children(signum, _frame):
    """The signal handler of make report: ends every child's process group, then exits."""
    for proc in list(CHILDREN):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    sys.exit(128 + signum)


def run_logged(cmd, log_path, timeout, label, cwd=ROOT, env=None):
    """Runs `cmd`, output to `log_path`; a heartbeat with the last line every 15 s.

    Returns (exit code or None on timeout, seconds). The child gets its own process
    group so a timeout ends everything it started.
    """
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    start = time.monotonic()
    with open(log_path, "wb") as log:
        log.write(("$ " + " ".join(cmd) + "\n").encode())
        log.flush()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, env=env,
                                start_new_session=True)
        CHILDREN.add(proc)
        stop = threading.Event()

        def heartbeat():
            while not stop.wait(15):
                say(f"  {label}: running {time.monotonic() - start:.0f} s; {last_line(log_path)}")

        t = threading.Thread(target=heartbeat, daemon=True)
        t.start()
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            rc = None
        finally:
            stop.set()
        CHILDREN.discard(proc)
    return rc, time.monotonic() - start


def last_line(path, n=1):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 8192))
            lines = [ln for ln in f.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        return "\n".join(lines[-n:]) if lines else ""
    except OSError:
        return ""


def tail(path, chars=6000):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            f.seek(max(0, f.tell() - chars))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


CLOSING = re.compile(r"(?:^|\s|:)(\d+) passed, (\d+) failed(?:, (\d+) skipped)?(?:\s.*)?$")


def closing_counts(text):
    """The last `N passed, N failed[, N skipped]` line of a tool's output."""
    for line in reversed(text.splitlines()):
        m = CLOSING.search(line.strip())
        if m:
            return {"passed": int(m.group(1)), "failed": int(m.group(2)), "skipped": int(m.group(3) or 0),
                    "closing_line": line.strip()}
