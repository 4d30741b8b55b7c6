"""`make bench` (docs/performance.md): every importer on every benchmark model, side by side.

usage: bench_run.py [--build DIR] [--out DIR] [--repeat N] [--data DIR] [--only M,...]
                    [--publish]        (M: a model below, flood, ort-shared or fuzz)

Generates the models once into OUT (default BUILD/bench) with `gauntlet_bench gen`,
then times each (model, importer, mode) in fresh child processes: gauntlet_bench for our
importer and libprotobuf's ParseFromArray, python/gauntlet/bench/onnx_load.py for onnx.load. Each
importer runs in 3 rounds that alternate with the other importers of the model, each a child
doing one warm-up and N/3 timed runs (N default 9: on a shared machine whose speed drifts
over minutes, rows run minutes apart moved ratios by a fifth); onnx.load runs in one child.
The row's median is over all runs of its children, with their highest peak resident size
and the first one's heap bytes. Writes OUT/results.json, OUT/results.md and OUT/perf.png;
--publish also copies the table and the plot to docs/ (the README links them).

Models: big (1 GiB inline), big-external, wide (200,000 nodes), reversed, backend (every
model.onnx of the backend test data, loaded one after another in one process) and
big-small (the big graph with 1/256 of the weight bytes: heap use must not change), chain
and chain-reversed (a 10^6-node Relu chain in order and reversed: sorting stays O(n log n)),
chain-10k (a chain of 10^4 nodes: a mid-size graph, whose blocks a Workspace keeps too).
big, wide and reversed are also timed cold: N fresh children, each importing once.
big-ort and big-ort-external: big as ONNX Runtime's inline .ort and as our 4096-aligned
external .ort (python/gauntlet/bench/ort.py), mapped and read on 1 and 2 threads (ImportOptions::threads).
wide-ort: wide as ONNX Runtime writes it, mapped and from memory.
writers: `onnximport convert` of big to .ort and to .onnx with aligned external data on 1 and
2 threads, against ONNX Runtime writing the same .ort (whole processes, taking turns).

Our importer runs with default options (one thread) and one Workspace reused across the
repeats of a child. libprotobuf parses the mapped file (pages faulted in before the clock)
into a heap message (protobuf) and into an Arena (protobuf-arena); protozero is the floor:
a pbf_reader walk over every field the importer reads, building nothing.

Whole process: `onnximport check big.onnx` against `gauntlet_bench read-parse
big.onnx` (libprotobuf's read of the file and parse), alternating, N processes each, wall
time and peak RSS from wait4.

Hash flooding: `gauntlet_bench gen-flood OUT/flood` writes, per map keyed by
input bytes (opset domains, captured names, value names, external-data locations), a model
of 2^15 names crafted to collide under libstdc++'s std::hash and its twin of ordinary names
of the same count and length; value names also of 15 and 39 bytes, built against a multiply
read from its low bits and against a sum of word products without NH's key (core/hash.hpp);
crafted and ordinary take turns, and the row is their ratio.

.ort shared objects (python/gauntlet/bench/ort_shared.py): the hostile .ort cases of objects held by
many references, written by BUILD/bin/hostile-gen, timed to their verdict, in ms per MiB of the walk's budget.
Fuzz targets (python/gauntlet/bench/fuzz.py): executions per second of each libFuzzer target
of $FUZZ_BUILD (default build-fuzz, tools/setup_fuzz.sh) over its committed corpus.
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import types

from gauntlet import settings
from gauntlet.bench import fuzz as bench_fuzz
from gauntlet.bench import ort_shared
from gauntlet.bench import ort as bench_ort
from gauntlet.bench.derive import derive
from gauntlet.bench.host import load, log, machine
from gauntlet.bench.markdown import markdown
from gauntlet.bench.plan import PLAN
from gauntlet.bench.rows import flood_rows, time_model
from gauntlet.bench.targets import targets
from gauntlet.settings import ROOT


def parse_args(argv: list):
    """The options, or None when argv is not understood (the usage is printed then)."""
    args = types.SimpleNamespace(build=os.path.join(ROOT, "build"), out=None, repeat=9, data="", only=None,
                                 publish=False)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--build", "--out", "--repeat", "--data", "--only") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--build": args.build = os.path.abspath(v)
            elif a == "--out": args.out = os.path.abspath(v)
            elif a == "--repeat": args.repeat = max(5, int(v)) if "--allow-few" not in argv else int(v)
            elif a == "--data": args.data = v
            else: args.only = v.split(",")
            i += 2
        elif a == "--publish":
            args.publish, i = True, i + 1
        elif a == "--allow-few":
            i += 1
        else:
            return None
    args.out = args.out or os.path.join(args.build, "bench")
    args.exe = os.path.join(args.build, "bin", "gauntlet_bench")
    args.cli = os.path.join(args.build, "bin", "onnximport")
    return args


def wanted(args, *names) -> bool:
    return args.only is None or bool(set(names) & set(args.only))


def backend_list(out: str, data: str, build: str) -> str:
    data = settings.backend_data(build, "bench", data)
    files = []
    for dirpath, _, names in os.walk(data):
        if "model.onnx" in names:
            files.append(os.path.join(dirpath, "model.onnx"))
    files.sort()
    path = os.path.join(out, "backend.list")
    with open(path, "w") as f:
        f.write("\n".join(files) + "\n")
    log(f"backend: {len(files)} models under {data}")
    return path


def model_paths(args) -> tuple:
    """Generates the models into OUT: their paths, {model: reason} of the .ort ones that could not be
    written, ONNX Runtime's module for the writer rows, and {model: its .ort twin}."""
    subprocess.run([args.exe, "gen", args.out], check=True, stdout=subprocess.DEVNULL)
    generated = [n for n in PLAN if n not in ("backend", "big-ort", "big-ort-external", "wide-ort")]
    paths = {n: os.path.join(args.out, n + ".onnx") for n in generated}
    if wanted(args, "backend"):
        paths["backend"] = "@" + backend_list(args.out, args.data, args.build)
    ort_paths, ort_missing, ort_module = {}, {}, ""
    if wanted(args, "big-ort", "big-ort-external", "wide-ort", "writers"):
        ort_paths, ort_missing, ort_module = bench_ort.prepare(args.out, args.build, log)
        paths.update(ort_paths)
    ort_twins = bench_ort.twins(args.out, args.cli, ort_paths, args.only or list(PLAN), log)
    return paths, ort_missing, ort_module, ort_twins


def verify_weights(args, paths: dict, res: dict) -> None:
    """The mapped import releases the pages behind each weight payload: every weight must
    still read back as generated before anything is timed."""
    for name in ("big", "big-external"):
        if wanted(args, name):
            v = subprocess.run([args.exe, "verify", paths[name]], capture_output=True, text=True)
            res.setdefault("verified", {})[name] = json.loads(v.stdout) if v.returncode == 0 else v.stderr.strip()
            log(f"verify {name}: {res['verified'][name]}")


def time_models(args, paths: dict, ort_missing: dict, ort_twins: dict, res: dict) -> None:
    for name, imps in PLAN.items():
        if args.only and name not in args.only:
            continue
        if name in ort_missing:
            res["models"][name] = {"results": {}, "not_run": ort_missing[name]}
            continue
        res["models"][name] = time_model(args.exe, args.cli, name, imps, paths[name], args.repeat,
                                         ort_twins.get(name, ""))


def time_writers(args, paths: dict, ort_module: str, res: dict) -> None:
    rows = bench_ort.writer_rows(args.cli, ort_module, paths["big"], os.path.join(args.out, "writers"), args.repeat)
    res["models"]["writers"] = {"results": {}, "rows": rows}
    for row, r in rows.items():
        log(f"writers {row:55s} " + (f"median {r['median']:8.2f} s  peak {r['peak_rss_kib'] / 1024:8.1f} MiB"
                                     if "median" in r else "ERROR " + str(r.get("error", r))[:200]))


def time_flood(args, res: dict) -> None:
    folder = os.path.join(args.out, "flood")
    subprocess.run([args.exe, "gen-flood", folder], check=True, stdout=subprocess.DEVNULL)
    res["models"]["flood"] = {"path": folder, "results": {}, "rows": flood_rows(args.exe, folder, args.repeat)}


def write_results(args, res: dict) -> None:
    """results.json, results.md (printed too) and perf.png in OUT; with --publish the table
    and the plot in docs/ as well."""
    out = args.out
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    md = markdown(res)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(md)
    print(md)
    plot = subprocess.run(settings.module_argv("gauntlet.bench.plot") + [os.path.join(out, "results.json"),
                           os.path.join(out, "perf.png")])
    if args.publish:
        docs = os.path.join(ROOT, "docs")
        os.makedirs(docs, exist_ok=True)
        shutil.copy(os.path.join(out, "results.md"), os.path.join(docs, "perf.md"))
        if plot.returncode == 0:
            shutil.copy(os.path.join(out, "perf.png"), os.path.join(docs, "perf.png"))
    # The plot needs matplotlib (`make bench` installs it); without it the table still stands.
    written = "perf.png" if plot.returncode == 0 else f"no perf.png (the plot exited {plot.returncode})"
    log(f"wrote {out}/results.json, results.md, {written}")


def main(argv: list) -> int:
    args = parse_args(argv)
    if args is None:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    paths, ort_missing, ort_module, ort_twins = model_paths(args)
    res = {"machine": machine(), "date": datetime.datetime.now().isoformat(timespec="seconds"),
           "command": "make bench", "repeat": args.repeat, "load_before": load(), "models": {}}
    verify_weights(args, paths, res)
    time_models(args, paths, ort_missing, ort_twins, res)
    if wanted(args, "writers"):
        time_writers(args, paths, ort_module, res)
    if wanted(args, "flood"):
        time_flood(args, res)
    if wanted(args, "ort-shared"):
        res["ort_shared"] = ort_shared.rows(args.exe, os.path.join(args.build, "bin", "hostile-gen"), args.out,
                                            args.repeat, log)
    if wanted(args, "fuzz"):
        res["fuzz"] = bench_fuzz.rows(ROOT, os.environ.get("FUZZ_BUILD", os.path.join(ROOT, "build-fuzz")), log)
    res["load_after"] = load()
    derive(res["models"])
    res["targets"] = targets(res["models"])
    write_results(args, res)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
