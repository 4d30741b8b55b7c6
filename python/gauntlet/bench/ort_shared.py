"""The `.ort` shared-object rows of `make bench` (docs/performance-history.md, "Shared objects in time
linear in the buffer").

The hostile `.ort` cases whose objects are held by many references (hostile/src/cases_ort_shared.cpp),
written by hostile-gen, each imported mapped by gauntlet_bench until its refusal (rule O15) or, for the
valid ones, to the end. A reader that works per reference grows with the references; this one bounds
its work by the buffer's size (rule O15: 16 times the file plus 1 MiB), so the time per MiB of that
budget stays within a small range across cases of a few KB to 24 MB.
"""
import os
import subprocess

from gauntlet.bench.processes import run_child

CASES = [
    "unsupported-ort-shared-tensor-1mib-name.ort",
    "unsupported-ort-shared-scalar-attribute.ort",
    "unsupported-ort-shared-type-1mib-denotation.ort",
    "unsupported-ort-shared-ints-list.ort",
    "unsupported-ort-shared-node-inputs.ort",
    "unsupported-ort-shared-input-edges.ort",
    "unsupported-ort-diamond-of-subgraphs.ort",
    "invalidmodel-ort-one-nodearg-a-million-times.ort",
    "accept-ort-shared-vtables.ort",
    "accept-ort-tables-over-a-million.ort",
]


def budget_bytes(size: int) -> int:
    """The walk's budget for a buffer of `size` bytes (importer/src/ort/context.hpp, rule O15)."""
    return 16 * size + 2**20


def rows(exe: str, hostile_gen: str, out: str, repeat: int, log) -> dict:
    """{case: gauntlet_bench's result with bytes and ms_per_mib, or {'error': ...}}."""
    folder = os.path.join(out, "hostile")
    gen = subprocess.run([hostile_gen, folder], capture_output=True, text=True)
    if gen.returncode != 0:
        return {"hostile-gen": {"error": (gen.stderr or gen.stdout).strip()[-300:]}}
    result = {}
    for name in CASES:
        path = os.path.join(folder, name)
        r = run_child([exe, "run", "--importer", "ours", "--mode", "map", "--repeat", str(repeat), "--warmup", "1",
                       path], timeout=600)
        if "median" in r:
            r["bytes"] = os.path.getsize(path)
            r["ms_per_budget_mib"] = r["median"] * 1e3 / (budget_bytes(r["bytes"]) / 2**20)
            log(f"ort-shared {name:50s} {r['bytes'] / 1e6:7.2f} MB {r['median'] * 1e3:8.2f} ms "
                f"{r['ms_per_budget_mib']:6.2f} ms per budget MiB, peak {r['peak_rss_kib'] / 1024:.0f} MiB")
        result[name] = r
    return result


def markdown(rows: dict) -> list:
    lines = ["", "### .ort shared objects (mapped import to the verdict)", "",
             "| case | MB | ms | ms per MiB of budget (16 x file + 1 MiB) | peak RSS MiB | verdict |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, r in rows.items():
        if "median" not in r:
            lines.append(f"| {name} | - | - | - | - | ERROR {str(r.get('error', r))[:120]} |")
            continue
        verdict = r["first_error"].split(": ")[1] if r.get("failed") else "ok"
        lines.append(f"| {name} | {r['bytes'] / 1e6:.2f} | {r['median'] * 1e3:.2f} | {r['ms_per_budget_mib']:.2f} | "
                     f"{r['peak_rss_kib'] / 1024:.0f} | {verdict} |")
    return lines
