"""`python3 -m gauntlet test [MODULE [ARGS]]`: runs the tests of this package.

MODULE is a *_test module under gauntlet (`cli.check_test`, `gauntlet.cli.check_test` or a
path). A module of unittest cases runs through unittest: ARGS go to its `configure(argv)`,
or its `cases(argv)` chooses the suite; a module without cases runs as a program with ARGS.
Without MODULE, every module of unittest cases that takes no ARGS runs. The last line is `N passed, N failed`; exit 0, 1 on a failure,
77 (ctest's skip) when a test was skipped, saying why, and none failed.
"""
import importlib
import os
import pkgutil
import runpy
import sys
import unittest

import gauntlet

SKIP = 77


def module_name(name):
    if name.endswith(".py"):
        rel = os.path.relpath(os.path.abspath(name), os.path.dirname(os.path.dirname(gauntlet.__file__)))
        name = rel[: -len(".py")].replace(os.sep, ".")
    return name if name.startswith("gauntlet.") else "gauntlet." + name


def test_modules():
    """Every *_test module of the package, by name."""
    found = pkgutil.walk_packages(gauntlet.__path__, "gauntlet.")
    return sorted(name for _finder, name, _pkg in found if name.endswith("_test"))


def cases_of(module):
    return unittest.defaultTestLoader.loadTestsFromModule(module)


def run_cases(suite):
    """(passed, failed, skipped) of a unittest suite, run verbosely."""
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    return result.testsRun - failed - skipped, failed, skipped


def closing(passed, failed, skipped):
    print("%d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else SKIP if skipped else 0


def run_module(name, args):
    module = importlib.import_module(name)
    if hasattr(module, "cases"):  # a module that chooses its cases from ARGS
        return closing(*run_cases(module.cases(args)))
    suite = cases_of(module)
    if suite.countTestCases() == 0:
        sys.argv = [name] + args
        del sys.modules[name]  # runpy runs it afresh as __main__
        runpy.run_module(name, run_name="__main__", alter_sys=True)
        return 0
    if hasattr(module, "configure"):
        module.configure(args)
    elif args:
        print("test: %s takes no arguments" % name, file=sys.stderr)
        return 2
    return closing(*run_cases(suite))


def run_all():
    suite = unittest.TestSuite()
    for name in test_modules():
        module = importlib.import_module(name)
        if not hasattr(module, "configure") and not hasattr(module, "cases"):
            suite.addTests(cases_of(module))
    return closing(*run_cases(suite))


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    return run_module(module_name(argv[0]), argv[1:]) if argv else run_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
