"""Before/after in one run: two gauntlet_bench binaries import the same files, alternating.

usage: bench_ab.py --old OLD_BENCH --new NEW_BENCH [--models DIR] [--rounds N] [--runs N]
                   [--timeout S] [--old-args ARGS] [--json OUT]

For each of wide, big and reversed (DIR, default build/bench), every round runs one child
per variant: the old binary with its defaults, the old one with --one-thread when it has it
(7c3d4f1 read large graphs on two threads), and the new one with its defaults; the order
rotates each round so no variant always runs first. Each child does one warm-up and N timed
mapped imports. Medians are over all timed imports of a variant. Then the hash-flooding
models (DIR/flood, written by `NEW_BENCH gen-flood`): crafted and ordinary names of each map
through both binaries, alternating, a child stopped after --timeout seconds (reported as
'>S s'). 7c3d4f1 keeps every external-data file open while it imports, more than an open-file
limit of 20,000 allows for 2^15 files, so the external pair is also run at 2^14 names.
Prints a table; --json also writes the figures.
"""
import json
import os
import statistics
import subprocess
import sys

from gauntlet.bench.host import load, log, machine
from gauntlet.bench.plan import FLOOD
from gauntlet.bench.processes import run_child

# The 2^14-name external pair of gen-flood, within the old binary's open-file needs.
FLOOD_AB = dict(FLOOD, **{"external locations, 2^14": ("external-14-crafted/model.onnx",
                                                       "external-14-ordinary/model.onnx")})

from gauntlet.settings import ROOT
MODELS = ["wide", "big", "reversed"]


def has_option(exe: str, option: str) -> bool:
    p = subprocess.run([exe], capture_output=True, text=True)
    return option in p.stderr


def import_rows(variants: dict, models: str, rounds: int, runs: int) -> dict:
    rows = {}
    for model in MODELS:
        path = os.path.join(models, model + ".onnx")
        times = {v: [] for v in variants}
        names = list(variants)
        for rnd in range(rounds):
            order = names[rnd % len(names):] + names[:rnd % len(names)]
            for v in order:
                r = run_child(variants[v] + ["--repeat", str(runs), "--warmup", "1", path])
                if "error" in r or r.get("failed"):
                    sys.exit(f"bench_ab: {v} on {model}: {r.get('error') or r.get('first_error')}")
                times[v] += r["times"]
        rows[model] = {v: {"median": statistics.median(t), "min": min(t), "max": max(t), "n": len(t)}
                       for v, t in times.items()}
        log(f"{model:9s} " + "  ".join(f"{v} {rows[model][v]['median'] * 1e3:8.1f} ms" for v in names))
    return rows


def flood_rows(old: str, new: str, folder: str, rounds: int, timeout: float) -> dict:
    rows = {}
    for kind, (crafted, ordinary) in FLOOD_AB.items():
        cells = {}
        for rnd in range(rounds):
            for binary, exe in (("old", old), ("new", new)):
                for which, rel in (("crafted", crafted), ("ordinary", ordinary)):
                    key = f"{binary} {which}"
                    if cells.get(key, {}).get("timeout"):
                        continue  # stopped once already: no second minute
                    r = run_child([exe, "run", "--importer", "ours", "--repeat", "1", "--warmup", "0",
                                   os.path.join(folder, rel)], timeout=timeout)
                    cell = cells.setdefault(key, {"times": []})
                    if "timeout" in r:
                        cell["timeout"] = timeout
                    elif "error" in r or r.get("failed"):
                        cell["error"] = r.get("error") or r.get("first_error")
                    else:
                        cell["times"] += r["times"]
        for cell in cells.values():
            if cell["times"]:
                cell["median"] = statistics.median(cell["times"])
        for binary in ("old", "new"):
            c, o = cells.get(f"{binary} crafted", {}), cells.get(f"{binary} ordinary", {})
            if "median" in o:
                cells[f"{binary} ratio"] = (f">{c['timeout'] / o['median']:.0f}" if "timeout" in c
                                            else f"{c['median'] / o['median']:.2f}" if "median" in c else "-")
        rows[kind] = cells
        log(f"flood {kind:19s} old {cells.get('old ratio')}x  new {cells.get('new ratio')}x")
    return rows


def fmt(cell: dict) -> str:
    if "timeout" in cell:
        return f">{cell['timeout']:.0f} s"
    if "error" in cell:
        return "refused"
    return f"{cell['median'] * 1e3:.1f}"


def main(argv: list) -> int:
    args = {"--old": None, "--new": None, "--models": os.path.join(ROOT, "build", "bench"), "--rounds": "5",
            "--runs": "3", "--timeout": "60", "--json": None}
    i = 0
    while i < len(argv):
        if argv[i] not in args or i + 1 >= len(argv):
            print(__doc__, file=sys.stderr)
            return 2
        args[argv[i]] = argv[i + 1]
        i += 2
    old, new = args["--old"], args["--new"]
    if not old or not new:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, runs, timeout = int(args["--rounds"]), int(args["--runs"]), float(args["--timeout"])
    base = ["run", "--importer", "ours", "--mode", "map"]
    variants = {"old": [old] + base}
    if has_option(old, "--one-thread"):
        variants["old --one-thread"] = [old] + base + ["--one-thread"]
    variants["new"] = [new] + base
    folder = os.path.join(args["--models"], "flood")
    subprocess.run([new, "gen", args["--models"]], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([new, "gen-flood", folder], check=True, stdout=subprocess.DEVNULL)

    res = {"machine": machine(), "load_before": load(), "command": "python/gauntlet/bench/ab.py " + " ".join(argv),
           "rounds": rounds, "runs": runs}
    res["imports"] = import_rows(variants, args["--models"], rounds, runs)
    res["load_middle"] = load()
    res["flood"] = flood_rows(old, new, folder, max(1, rounds // 2), timeout)
    res["load_after"] = load()

    names = list(variants)
    print(f"Load average {res['load_before']} before, {res['load_middle']} between, {res['load_after']} after; "
          f"{res['machine']['cpu']}, {res['machine']['cores']} cores.")
    print(f"Mapped import, ms (median of {rounds * runs} imports per cell, {rounds} children taking turns):\n")
    print("| model | " + " | ".join(names) + " | old / new |")
    print("| --- |" + " --- |" * (len(names) + 1))
    for model, row in res["imports"].items():
        cells = " | ".join(f"{row[v]['median'] * 1e3:.1f}" for v in names)
        print(f"| {model} | {cells} | {row['old']['median'] / row['new']['median']:.2f} |")
    print(f"\nHash flooding, ms per import (2^15 names; a child stopped after {timeout:.0f} s):\n")
    print("| names | old crafted | old ordinary | old ratio | new crafted | new ordinary | new ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind, c in res["flood"].items():
        print(f"| {kind} | {fmt(c.get('old crafted', {}))} | {fmt(c.get('old ordinary', {}))} | "
              f"{c.get('old ratio', '-')}x | {fmt(c.get('new crafted', {}))} | {fmt(c.get('new ordinary', {}))} | "
              f"{c.get('new ratio', '-')}x |")
    if args["--json"]:
        with open(args["--json"], "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
