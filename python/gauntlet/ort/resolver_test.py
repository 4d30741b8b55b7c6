"""gauntlet ort resolver's comparison can fail: a changed argument index, argument type, kernel type
string or order, and an operator only our file carries, each found; ONNX Runtime's extra
operators and an identical resolver pass.
Run by ctest (ort_resolver_can_fail).
"""
import sys

from gauntlet.cli.expect import closing, expect
from gauntlet.ort.resolver import compare, refusal_reason


def main():
    theirs = {":Abs:13": [("T", [("INPUT", 0), ("OUTPUT", 0)])], ":Constant:21": [("T", [("OUTPUT", 0)])]}
    same = {":Abs:13": [("T", [("INPUT", 0), ("OUTPUT", 0)])]}
    expect(compare(theirs, same) == ([], [], [":Constant:21"], 1), "equal entries pass, theirs-only counted")
    planted = {
        "index": [("T", [("INPUT", 1), ("OUTPUT", 0)])],
        "arg type": [("T", [("OUTPUT", 0), ("OUTPUT", 0)])],
        "string": [("T1", [("INPUT", 0), ("OUTPUT", 0)])],
        "order": [("T", [("OUTPUT", 0), ("INPUT", 0)])],
    }
    for what, entries in planted.items():
        expect(compare(theirs, {":Abs:13": entries})[0] == [":Abs:13"], "a changed %s is found" % what)
    expect(compare(theirs, dict(same, **{":Mish:22": []}))[1] == [":Mish:22"], "an operator only ours is found")
    expect(refusal_reason("... runs in ONNX Runtime only as its function ...") == "function-only", "reasons")
    return closing()


if __name__ == "__main__":
    sys.exit(main())
