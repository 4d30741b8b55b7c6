"""The backend-test sweep (`python3 -m gauntlet sweep [DIR]`, `make sweep DATA=DIR`): imports
every model.onnx under DIR with the importer (build/bin/dump-all, one process), dumps the same
models with the Python onnx package (gauntlet.sweep.onnx_dump, one process) and compares the
dumps. The per-model table goes to $BUILD/sweep/<data set>/table.tsv; the last line is
`N passed, N failed` (`, N skipped` with the reasons' file). Exit 1 on any failure.

DIR is a folder or a named set (shared, generated, edge; gauntlet.settings.backend_data),
by default the shared set when present, else the generated one. --importer-only runs
dump-all alone (the sanitizer builds): exit 1 when it refused any model.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

from gauntlet import settings


def main(argv):
    ap = argparse.ArgumentParser(prog="gauntlet sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", help="a folder of backend test models, or shared, generated, edge")
    ap.add_argument("--importer-only", action="store_true", help="run dump-all alone; exit 1 on a refusal")
    ap.add_argument("--build", help="the build folder (default: $BUILD or build)")
    args = ap.parse_args(argv[1:])
    build = settings.build_dir(args.build)
    data = settings.backend_data(build, "sweep", args.data)
    if not os.path.isdir(data):
        print("sweep: no data directory %s" % data, file=sys.stderr)
        return 2
    dump_all = os.path.join(build, "bin", "dump-all")
    if not os.access(dump_all, os.X_OK):
        print("sweep: %s is missing; build first (make build, or BUILD=...)" % dump_all, file=sys.stderr)
        return 2
    out = os.path.join(build, "sweep-importer" if args.importer_only else "sweep", os.path.basename(os.path.normpath(data)))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if args.importer_only:
        return subprocess.run([dump_all, data, out]).returncode
    t0 = time.time()
    # dump-all exits 1 when it refused a model: that is a result for the table, not an error.
    with open(os.path.join(out, "cpp.log"), "wb") as log:
        rc = subprocess.run([dump_all, data, os.path.join(out, "cpp")], stdout=log).returncode
    t1 = time.time()
    if rc > 1 or rc < 0:
        with open(os.path.join(out, "cpp.log"), encoding="utf-8", errors="replace") as log:
            sys.stderr.write(log.read())
        print("sweep: dump-all failed with exit %d" % rc, file=sys.stderr)
        return 2
    with open(os.path.join(out, "py.log"), "wb") as log:
        subprocess.run(settings.module_argv("gauntlet.sweep.onnx_dump") + ["--dir", data, os.path.join(out, "py")],
                       stdout=log, check=True, env=settings.child_env())
    t2 = time.time()
    print("sweep: %s" % data, flush=True)
    report = settings.module_argv("gauntlet.sweep.report") + [out, "%.3f" % (t1 - t0), "%.3f" % (t2 - t1)]
    return subprocess.run(report, env=settings.child_env()).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
