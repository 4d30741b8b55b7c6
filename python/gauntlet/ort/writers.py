"""The writers' conformance: our writers' outputs read back and run by ONNX Runtime.

usage: writers.py --build BUILD [--subset N] [--peer DIR] [--parts P,P] [DATA]

The parts, in this order (a run part uses the files of the round trip before it):
  onnx-roundtrip          conformance 3, .onnx: python/gauntlet/sweep/roundtrip.py (4096-aligned external data)
  ort-roundtrip           conformance 3, .ort inline: python/gauntlet/ort/roundtrip.py
  ort-roundtrip-external  conformance 3, .ort external: python/gauntlet/ort/roundtrip.py --external 4096
  run-our-onnx            conformance 1: ONNX Runtime runs our .onnx on the test data
  run-our-ort             conformance 1: ONNX Runtime runs our inline .ort
  refuse-our-external-ort conformance 2: ONNX Runtime refuses our external .ort for its external
                          data, with its message (one without external tensors runs as inline)
  ort-resolver            our .ort's kernel type-string resolver equals ONNX Runtime's for every
                          operator both carry: gauntlet ort resolver
  ort-to-onnx             `onnximport convert model.ort model.onnx` of each .ort ONNX Runtime writes:
                          it runs our .onnx with outputs bitwise equal to its run of the .ort,
                          graph optimizations off for both: python/gauntlet/ort/ort_to_onnx.py
A model our .ort writer refused as Unsupported (the format cannot hold it) is not-written in the
run parts, with the writer's message: listed, not failed.
DATA is a folder or a named set, by default as for the other commands (gauntlet.settings.backend_data). Each part prints its own closing line; the last line sums them,
`N passed, N failed`. Exit 1 when a part failed, 77 when every run part skipped (no node or peer).
"""
import argparse
import os
import re
import subprocess
import sys

from gauntlet import settings

HERE = os.path.dirname(os.path.abspath(__file__))
CLOSING = re.compile(r"^(\d+) passed, (\d+) failed")
SKIP = 77


def parts(build, data, subset, peer):
    """(name, command) of each part; the run parts name the folders the round trips write."""
    ds = os.path.basename(data.rstrip("/"))
    sub = "-subset%d" % subset if subset else ""
    take = ["--subset", str(subset)] if subset else []
    module = lambda name: settings.module_argv("gauntlet." + name)
    run = module("ort.run_conformance") + take + (["--peer", peer] if peer else [])
    # ONNX Runtime's own deviations, and those of our files that only a .onnx load undoes.
    known = lambda ours: ["--known", os.path.join(HERE, "known-deviations.txt"),
                          "--known", os.path.join(HERE, "known-deviations-%s.txt" % ours)]
    ort_dir = lambda mode: os.path.join(build, "ort-roundtrip", "%s-%s%s" % (ds, mode, sub))
    ort_files = lambda mode: ["--models-from", os.path.join(ort_dir(mode), "files"), "--file", "model.ort",
                              "--not-written", os.path.join(ort_dir(mode), "table.tsv")] + known("our-ort")
    run_out = lambda name: ["--out", os.path.join(build, "ort-run", "%s-%s%s" % (ds, name, sub))]
    return [
        ("onnx-roundtrip", module("sweep.roundtrip") + ["--build", build] + take + [data]),
        ("ort-roundtrip", module("ort.roundtrip") + ["--build", build] + take + [data]),
        ("ort-roundtrip-external",
         module("ort.roundtrip") + ["--build", build, "--external", "4096"] + take + [data]),
        ("run-our-onnx", run + run_out("our-onnx") + known("our-onnx") + [
            "--models-from", os.path.join(build, "roundtrip", ds + sub, "onnx"), "--file", "model.onnx", data]),
        ("run-our-ort", run + run_out("our-ort") + ort_files("inline") + [data]),
        ("refuse-our-external-ort", run + run_out("our-ort-external") + ["--expect-refused"] +
         ort_files("external4096") + [data]),
        ("ort-resolver", module("ort.resolver") + ["--build", build] + take + (["--peer", peer] if peer else []) +
         [data]),
        ("ort-to-onnx", module("ort.ort_to_onnx") + ["--build", build] + take + (["--peer", peer] if peer else []) +
         ["--known", os.path.join(HERE, "known-deviations-ort-to-onnx.txt"), data]),
    ]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", help="the build folder (default: $BUILD or build)")
    ap.add_argument("--subset", type=int)
    ap.add_argument("--peer")
    ap.add_argument("--parts", help="comma-separated parts (default: all, in order)")
    ap.add_argument("data", nargs="?")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "writers", args.data)
    all_parts = parts(build, data, args.subset, os.path.abspath(args.peer) if args.peer else None)
    wanted = args.parts.split(",") if args.parts else [name for name, _ in all_parts]
    unknown = set(wanted) - {name for name, _ in all_parts}
    if unknown:
        print("writers: unknown part(s) %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    passed = failed = skipped = 0
    for name, cmd in all_parts:
        if name not in wanted:
            continue
        proc = subprocess.run(cmd, capture_output=True, text=True)
        lines = (proc.stdout + proc.stderr).strip().splitlines()
        closing = next((m for m in map(CLOSING.match, reversed(lines)) if m), None)
        if proc.returncode == SKIP:
            skipped += 1
            print("%s: skipped: %s" % (name, lines[-1] if lines else "no reason given"))
        elif closing is None:
            failed += 1
            print("%s: exit %d without a closing line: %s" % (name, proc.returncode, " | ".join(lines[-5:])))
        else:
            passed += int(closing.group(1))
            failed += int(closing.group(2))
            print("%s: %s" % (name, closing.group(0)))
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        return 1
    return SKIP if skipped and not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
