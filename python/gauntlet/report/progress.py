"""What `make report` says while it runs, and its record of each stage for the page's stage
table and report.json (gauntlet/report/README.md)."""
import os
import time

T0 = time.monotonic()  # when the report started: its progress lines and its total time count from here


def say(line):
    print(f"[report {time.monotonic() - T0:6.0f}s] {line}", flush=True)


class Stages:
    """Records what each stage did, for the page's stage table and for report.json."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.items = []

    def add(self, name, status, seconds, reason="", log=None):
        self.items.append({"name": name, "status": status, "seconds": round(seconds, 1),
                           "reason": reason, "log": os.path.relpath(log, self.out_dir) if log else None})

    def skipped(self, name):
        """A stage left out (--skip): recorded, and its section says so."""
        self.add(name, "not run", 0, "left out (--skip)")
        return {"status": "not run", "reason": "left out of this run (--skip)"}
