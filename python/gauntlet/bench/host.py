"""The machine a benchmark runs on, its load, and the progress log on stderr."""
import os
import platform
import sys


def log(*a):
    print("bench:", *a, file=sys.stderr, flush=True)


def machine() -> dict:
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) // 1024
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "mem_mib": mem,
            "os": platform.platform()}


def load() -> list:
    return [round(x, 2) for x in os.getloadavg()]
