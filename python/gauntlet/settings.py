"""Where things are, for every module: the repository, the interpreter, the build folder,
the corpus, and the one resolver of the ONNX backend test data."""
import os
import subprocess
import sys

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
ROOT = os.path.dirname(PACKAGE_ROOT)
# Debian's interpreter, with Debian's python3-onnx; the pyenv python3 first on PATH lacks it.
PYTHON = "/usr/bin/python3"
TOOLS = os.path.join(ROOT, "tools")
COMMITTED_CORPUS = os.path.join(ROOT, "hostile", "corpus")
RULES_PAGE = os.path.join(ROOT, "docs", "rules.md")
RUN_CORPUS = os.path.join(TOOLS, "run_corpus.sh")
KNOWN_DIR = os.path.join(ROOT, "sweep", "known")
# The ONNX backend test data beside the clone, when the machine has it.
SKIP = 77  # ctest's SKIP_RETURN_CODE: the test could not run here, and says why
SHARED_BACKEND_DATA = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "onnx-backend-1.23"))


def module_argv(module, python=PYTHON):
    """The command line that runs a module of this package in a child interpreter."""
    return [python, "-m", module]


def child_env(extra=None):
    """The environment for a child that runs a module of this package: PYTHONPATH names python/."""
    env = dict(os.environ)
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if PACKAGE_ROOT not in parts:
        env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT] + parts)
    env.update(extra or {})
    return env


def build_dir(build=None):
    """The CMake build folder: the argument, $BUILD, or ROOT/build."""
    build = build or os.environ.get("BUILD") or "build"
    return os.path.abspath(build) if os.path.isabs(build) else os.path.join(ROOT, build)


def generated_backend_data(build):
    """The data set generated from the installed onnx package into BUILD (cached there)."""
    gen = module_argv("gauntlet.sweep.gen_backend_data") + [build]
    return subprocess.run(gen, capture_output=True, text=True, check=True, env=child_env()).stdout.strip()


def backend_data(build, who, explicit=None):
    """The backend test data. `explicit` is a directory, or one of the named sets: "shared"
    (the data beside the clone; absent, a skip with exit SKIP), "generated" (the data set of
    the installed onnx package), "edge" (the sweep's edge models, written into BUILD).
    Without it: the shared data when present, else the generated set (said on stderr by `who`)."""
    build = build_dir(build)
    if explicit == "shared":
        if not os.path.isdir(SHARED_BACKEND_DATA):
            print("skipped: no shared data set at %s" % SHARED_BACKEND_DATA)
            raise SystemExit(SKIP)
        return SHARED_BACKEND_DATA
    if explicit == "generated":
        return generated_backend_data(build)
    if explicit == "edge":
        from gauntlet.sweep import edge_models  # imports onnx: only when asked for
        out = os.path.join(build, "%s-edge-models" % who)
        edge_models.write(out)
        return out
    if explicit:
        return os.path.abspath(explicit)
    if os.path.isdir(SHARED_BACKEND_DATA):
        return SHARED_BACKEND_DATA
    print("%s: %s is absent; using the data set generated from the installed Python onnx"
          % (who, SHARED_BACKEND_DATA), file=sys.stderr)
    return generated_backend_data(build)
