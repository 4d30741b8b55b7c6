"""Round trip through our .ort writer (conformance 3, the .ort half).

usage: roundtrip.py --build BUILD [--subset N] [--external ALIGNMENT] DATA_DIR

build/bin/ort-roundtrip imports every DATA_DIR/<rel>/model.onnx, writes it as .ort with our
writer (inline, or with --external tensors of 64 bytes and more in model.ort.data at
multiples of ALIGNMENT), imports that .ort with our reader and dumps both; the dumps must
be equal after the normalizations of normalize_ours.py (docs/ort-normalizations.md, "Our
writer"). A model the importer refuses is not counted; one the writer refuses as
Unsupported (what .ort cannot hold: optional or sparse types, functions, ...) is listed
with its reason and not counted either; any other refusal, and any difference, fails.
In external mode every external_data_offset must be a multiple of ALIGNMENT.
Values our writer leaves without a type (no declaration and no inference rule: ONNX Runtime
refuses such a file) are counted by operator from OUT/ort/<rel>.untyped.
--subset N: N models spread evenly over the sorted list. The last line is
`N passed, N failed`; exit 1 when any failed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from gauntlet import settings
from gauntlet.ort import dumptree
from gauntlet.ort import normalize_ours
from gauntlet.ort.conformance import find_models, subset, write_diff


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def link_subset(data, rels, into):
    """A data set of the chosen models only, as links (ort-roundtrip walks a folder)."""
    for rel in rels:
        os.makedirs(os.path.join(into, os.path.dirname(rel)), exist_ok=True)
        os.symlink(os.path.join(data, rel), os.path.join(into, rel))
    return into


def check_offsets(ort_file, alignment):
    """(every external_data_offset a multiple of alignment, how many are set), from flatc's JSON."""
    schema = os.path.join(settings.ROOT, "importer", "schema", "ort.fbs")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["flatc", "--json", "--raw-binary", "--strict-json", "-o", tmp, schema, "--", ort_file],
                       check=True, stdout=subprocess.DEVNULL)
        tree = json.load(open(os.path.join(tmp, "model.json")))
    offsets = []

    def walk(x):
        if isinstance(x, dict):
            if "external_data_offset" in x:
                offsets.append(x["external_data_offset"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(tree)
    return all(o == -1 or o % alignment == 0 for o in offsets), len([o for o in offsets if o >= 0])


def compare(out, rel, applied, alignment):
    onnx, ort = os.path.join(out, "onnx", rel), os.path.join(out, "ort", rel)
    if os.path.exists(onnx + ".refused"):
        return "skipped", "our importer refused the .onnx: " + read(onnx + ".refused").strip()
    if os.path.exists(ort + ".write-refused"):
        record = read(ort + ".write-refused").strip()
        return ("unsupported" if record.startswith("Unsupported") else "failed"), "our writer refused it: " + record
    if os.path.exists(ort + ".refused"):
        return "failed", "our reader refused our .ort: " + read(ort + ".refused").strip()
    a, b = dumptree.parse(read(onnx + ".dump")), dumptree.parse(read(ort + ".dump"))
    names = normalize_ours.normalize(a, b)
    ta, tb = dumptree.render(a), dumptree.render(b)
    if ta != tb:
        return "failed", "dumps differ after normalization: " + write_diff(out, rel, ta, tb)
    if alignment is not None:
        ok, _n = check_offsets(os.path.join(out, "files", rel, "model.ort"), alignment)
        if not ok:
            return "failed", "an external_data_offset is not a multiple of %d" % alignment
    for name in names:
        applied[name] = applied.get(name, 0) + 1
    return "passed", ",".join(sorted(names))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--build")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--external", type=int, metavar="ALIGNMENT")
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "ort roundtrip", args.data)
    rels = subset(find_models(data), args.subset)
    if not rels:
        print("ort_roundtrip: no model.onnx under " + data, file=sys.stderr)
        return 2
    mode = "external%d" % args.external if args.external else "inline"
    out = os.path.join(build, "ort-roundtrip", "%s-%s%s" % (os.path.basename(data.rstrip("/")), mode,
                                                           "-subset%d" % args.subset if args.subset else ""))
    shutil.rmtree(out, ignore_errors=True)
    source = link_subset(data, rels, os.path.join(out, "data")) if args.subset else data
    cmd = [os.path.join(build, "bin", "ort-roundtrip")] + (["--external", str(args.external)] if args.external else [])
    rc = subprocess.run(cmd + [source, out]).returncode
    if rc != 0:
        raise SystemExit("ort_roundtrip: %s failed with exit %d" % (" ".join(cmd), rc))
    return report(out, rels, args.external)


def untyped_report(out, rels):
    """Counts the values written without a type, by the operator that makes them."""
    values, models, by_op = 0, 0, {}
    for rel in rels:
        path = os.path.join(out, "ort", rel + ".untyped")
        if not os.path.exists(path):
            continue
        models += 1
        for line in read(path).splitlines():
            op = line.split("\t")[1] if "\t" in line else ""
            by_op[op or "(subgraph input)"] = by_op.get(op or "(subgraph input)", 0) + 1
            values += 1
    ops = ", ".join("%s %d" % kv for kv in sorted(by_op.items(), key=lambda kv: (-kv[1], kv[0])))
    print("  untyped values: %d in %d models%s" % (values, models, " (" + ops + ")" if ops else ""))


def report(out, rels, alignment):
    rows, applied = [], {}
    for rel in rels:
        rows.append((rel,) + compare(out, rel, applied, alignment))
    with open(os.path.join(out, "table.tsv"), "w", encoding="utf-8") as f:
        f.writelines("%s\t%s\t%s\n" % row for row in rows)
    for status in ("skipped", "unsupported", "failed"):
        for rel, st, detail in rows:
            if st == status:
                print("  %s %s: %s" % (status.upper(), rel, detail[:300]))
    for name, n in sorted(applied.items(), key=lambda kv: -kv[1]):
        print("  normalization %s: %d models" % (name, n))
    untyped_report(out, rels)
    count = {s: sum(1 for r in rows if r[1] == s) for s in ("passed", "failed", "skipped", "unsupported")}
    print("ort_roundtrip: %d models, %d refused by our importer, %d refused by our writer as Unsupported"
          % (len(rows), count["skipped"], count["unsupported"]))
    print("%d passed, %d failed" % (count["passed"], count["failed"]))
    return 1 if count["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
