"""Where the fuzz campaign finds and keeps things, so every module of gauntlet.fuzz agrees
on them (the repository and the interpreter come from gauntlet.settings)."""
import glob
import os

from gauntlet.settings import ROOT

CORPUS = os.path.join(ROOT, "corpus")
REGRESSION = os.path.join(CORPUS, "regression")
CAMPAIGNS = os.path.join(CORPUS, "campaigns.jsonl")
FUZZ_BUILD = os.path.abspath(os.environ.get("FUZZ_BUILD", os.path.join(ROOT, "build-fuzz")))

# Targets that exist to test the campaign machinery itself, never fuzzed by default.
TEST_ONLY_TARGETS = ("fuzz_planted",)


def binary(target, build=None):
    return os.path.join(build or FUZZ_BUILD, "bin", target)


def afl_binary(target, build=None):
    return os.path.join(build or FUZZ_BUILD, "afl", "bin", target)


def declared_targets():
    """Every target with a corpus/TARGET.options (the OSS-Fuzz convention; the .ort targets
    join by having one), built or not."""
    return [os.path.basename(o)[: -len(".options")] for o in sorted(glob.glob(os.path.join(CORPUS, "*.options")))]


def targets(build=None):
    """Every declared target the campaign fuzzes whose libFuzzer binary is built."""
    return [t for t in declared_targets() if t not in TEST_ONLY_TARGETS and os.access(binary(t, build), os.X_OK)]


def memory_scratch():
    """/dev/shm where it is writable, else None (tempfile's default): a memory file system for the
    folders a fuzz run fills with small files (side files, -fork's job folders, new inputs), so that
    a run measures the target, not the disk (docs/performance-history.md, "The fuzz rows, 2026-12-05")."""
    return "/dev/shm" if os.access("/dev/shm", os.W_OK) else None

