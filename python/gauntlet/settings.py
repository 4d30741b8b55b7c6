"""Where things are, for every script: the repository, the interpreter, the corpus."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Debian's interpreter, with Debian's python3-onnx; the pyenv python3 first on PATH lacks it.
PYTHON = "/usr/bin/python3"
COMMITTED_CORPUS = os.path.join(ROOT, "hostile", "corpus")
RULES_PAGE = os.path.join(ROOT, "docs", "rules.md")
RUN_CORPUS = os.path.join(ROOT, "tools", "run_corpus.sh")
KNOWN_DIR = os.path.join(ROOT, "sweep", "known")
# The ONNX backend test data beside the clone, when the machine has it.
SHARED_BACKEND_DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "onnx-backend-1.23"))
GEN_BACKEND_DATA = os.path.join(ROOT, "tools", "gen_backend_data.py")


def build_dir(build=None):
    """The CMake build folder: the argument, $BUILD, or ROOT/build."""
    return os.path.abspath(build or os.environ.get("BUILD") or os.path.join(ROOT, "build"))


def backend_data(build, who):
    """The shared backend data when present, else the data set generated from the installed
    onnx package into BUILD (tools/gen_backend_data.py), said on stderr by `who`."""
    if os.path.isdir(SHARED_BACKEND_DATA):
        return SHARED_BACKEND_DATA
    print("%s: %s is absent; using the generated data set" % (who, SHARED_BACKEND_DATA), file=sys.stderr)
    gen = [PYTHON, GEN_BACKEND_DATA, build]
    return subprocess.run(gen, capture_output=True, text=True, check=True).stdout.strip()
