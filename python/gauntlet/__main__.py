"""`python3 -m gauntlet <command> [args]`: the one entry point of the harness.

Each command runs one module of the package as a program, with its own --help.
"""
import os
import runpy
import sys

from gauntlet import settings

COMMANDS = {
    "ort": ("gauntlet.ort", ".ort conformance: conformance, run, writers, roundtrip, inferred, resolver, to-onnx"),
    "report": ("gauntlet.report.make_report", "make report: every stage, build/report/"),
    "sweep": ("gauntlet.sweep.run", "the backend-test sweep: our dump against the onnx package's"),
    "sweep-selftest": ("gauntlet.sweep.selftest", "the sweep's edge models and its can-fail checks"),
    "roundtrip": ("gauntlet.sweep.roundtrip", "the .onnx writer's round trip over backend models"),
    "backend-data": ("gauntlet.sweep.gen_backend_data", "generate the backend data of the installed onnx"),
    "corpus": ("gauntlet.corpus.release", "the hostile corpus as a release tarball"),
    "matrix": ("gauntlet.report.matrix", "the cross-importer matrix"),
    "fuzz": ("gauntlet.fuzz.nightly", "a fuzz campaign over every target (libFuzzer or AFL++)"),
    "fuzz-compare": ("gauntlet.fuzz.compare_mutator", "coverage with and without the structure-aware mutator"),
    "fuzz-summary": ("gauntlet.fuzz.summary", "docs/fuzzing.md's table from corpus/campaigns.jsonl"),
    "fuzz-prune": ("gauntlet.fuzz.prune", "cut each committed corpus to a coverage-preserving subset"),
    "bench": ("gauntlet.bench.run", "performance side by side"),
    "bench-ab": ("gauntlet.bench.ab", "A/B of two builds"),
    "structure": ("gauntlet.structure.check", "the structure rules of C++, shell and Python"),
    "test": ("gauntlet.testing", "run one *_test.py module (or every one): N passed, N failed"),
}
ORT_COMMANDS = {
    "conformance": ("gauntlet.ort.conformance", "our dump of ONNX Runtime's .ort against our dump of the .onnx"),
    "run": ("gauntlet.ort.run_conformance", "ONNX Runtime runs model files on their test data"),
    "writers": ("gauntlet.ort.writers", "our writers' outputs read back and run"),
    "roundtrip": ("gauntlet.ort.roundtrip", ".onnx -> our .ort -> our reader"),
    "inferred": ("gauntlet.ort.check_inferred", "the .ort writer's inferred types"),
    "resolver": ("gauntlet.ort.resolver", "our .ort's kernel type-string resolver against ONNX Runtime's"),
    "to-onnx": ("gauntlet.ort.ort_to_onnx", "ONNX Runtime runs our .onnx of its .ort: outputs bitwise equal"),
}


def usage(table, prog):
    lines = ["usage: %s <command> [args]   (each command has --help)" % prog, ""]
    lines += ["  %-15s %s" % (name, text) for name, (_module, text) in table.items()]
    return "\n".join(lines)


def run(table, prog, argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(usage(table, prog))
        return 0 if argv else 2
    if argv[0] not in table:
        print("%s: unknown command %r\n\n%s" % (prog, argv[0], usage(table, prog)), file=sys.stderr)
        return 2
    if table is COMMANDS and argv[0] == "ort":
        return run(ORT_COMMANDS, prog + " ort", argv[1:])
    module = table[argv[0]][0]
    sys.argv = ["%s %s" % (prog, argv[0])] + argv[1:]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as e:
        return e.code
    return 0


def main():
    # Children that run modules of this package find it the way this process did.
    os.environ.update(settings.child_env())
    return run(COMMANDS, "gauntlet", sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
