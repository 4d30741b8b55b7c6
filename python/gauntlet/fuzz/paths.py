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


def targets(build=None):
    """Every target the campaign fuzzes: each corpus/TARGET.options (the OSS-Fuzz
    convention; the .ort targets join by having one) whose libFuzzer binary is built."""
    names = []
    for options in sorted(glob.glob(os.path.join(CORPUS, "*.options"))):
        name = os.path.basename(options)[: -len(".options")]
        if name not in TEST_ONLY_TARGETS and os.access(binary(name, build), os.X_OK):
            names.append(name)
    return names
