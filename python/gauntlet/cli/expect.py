"""The expectations of the CLI contract tests: each is counted, a broken one printed, and
the run ends with `N passed, N failed`."""
checks = 0
failures = []


def expect(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def closing():
    """Prints the closing line; the exit status: 1 when an expectation broke."""
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0
