"""Both dumps of one model file (ours from `onnximport dump`, the onnx package's from
gauntlet.sweep.onnx_dump) and the comparison of two dumps (tools/compare_onnx_dump.sh),
for the sweep's self-tests."""
import os
import subprocess

from gauntlet import settings

ONNX_DUMP = settings.module_argv("gauntlet.sweep.onnx_dump")
COMPARE = os.path.join(settings.TOOLS, "compare_onnx_dump.sh")


def run_dumps(build_dir, path):
    cpp = subprocess.run([os.path.join(build_dir, "bin", "onnximport"), "dump", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if cpp.returncode != 0:
        raise AssertionError("onnximport dump refused %s: %s" % (path, cpp.stderr.decode()))
    py = subprocess.run(ONNX_DUMP + [path], stdout=subprocess.PIPE, check=True)
    return cpp.stdout, py.stdout


def compare(a_text, b_text, work):
    a, b = os.path.join(work, "a.dump"), os.path.join(work, "b.dump")
    for path, text in ((a, a_text), (b, b_text)):
        with open(path, "wb") as f:
            f.write(text)
    r = subprocess.run([COMPARE, a, b], stdout=subprocess.PIPE)
    return r.returncode, r.stdout.decode("utf-8", "replace")
