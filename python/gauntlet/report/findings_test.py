"""The matrix's class "refused by an internal error" (docs/matrix.md, "Internal errors").

- A worker's `error_type` reaches the verdict through the driver (peers.run_peer).
- The class fires on the errors a reader does not mean to raise (Python's TypeError or
  IndexError, the JavaScript engine's own TypeError or exhausted stack, a WebAssembly trap),
  not on its own refusals (Error, DecodeError, onnxjs's TypeError, protobufjs's RangeError).

usage: python3 -m gauntlet test report.findings_test   (ctest matrix_findings)
"""
import os
import sys
import tempfile
import unittest

from gauntlet.report import findings, peers

# A worker that refuses every file with the error class named on its command line.
STUB = """import json, sys
print(json.dumps({"ready": True, "version": "stub"}), flush=True)
for line in sys.stdin:
    print(json.dumps({"outcome": "refused", "message": "stub", "error_type": sys.argv[1], "language": "python"}),
          flush=True)
"""

ROW = {"expected": "refuse", "path": os.devnull}


def refused(error_type, message, language):
    return {"outcome": "refused", "match": True, "message": message, "error_type": error_type, "language": language}


class InternalErrors(unittest.TestCase):
    def test_error_type_reaches_the_verdict(self):
        with tempfile.TemporaryDirectory() as folder:
            script = os.path.join(folder, "stub_worker.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(STUB)
            spec = {"argv": [sys.executable, script, "TypeError"], "requests": [("load", [("stub", None)])],
                    "version": str}
            case = {"file": "f.onnx", "path": os.path.join(folder, "f.onnx")}
            results = {"f.onnx": {}}
            peers.run_peer("stub", spec, [case], folder, folder, 30, results, lambda _name: None)
        self.assertEqual(results["f.onnx"]["stub"]["error_type"], "TypeError")
        self.assertEqual(results["f.onnx"]["stub"]["language"], "python")

    def test_pythons_lookup_and_type_errors_are_internal(self):
        for kind in ("TypeError", "IndexError", "AttributeError"):
            r = refused(kind, f"{kind}: list index out of range", "python")
            self.assertEqual(findings.result_class(ROW, r), "refused by an internal error", kind)

    def test_the_javascript_engines_own_errors_are_internal(self):
        for kind, message in (("TypeError", "Cannot read properties of null (reading 'dimLength')"),
                              ("RangeError", "Maximum call stack size exceeded")):
            r = refused(kind, message, "javascript")
            self.assertEqual(findings.result_class(ROW, r), "refused by an internal error", message)

    def test_a_webassembly_trap_is_internal_whatever_error_carries_it(self):
        for kind, message in (("RuntimeError", "divide result unrepresentable"), ("Error", "unreachable"),
                              ("RuntimeError", "memory access out of bounds")):
            r = refused(kind, message, "javascript")
            self.assertEqual(findings.result_class(ROW, r), "refused by an internal error", message)

    def test_a_readers_own_refusals_are_not(self):
        for kind, message, language in (("Error", "invalid wire type", "javascript"),
                                        ("TypeError", "cannot resolve operator 'Custom'", "javascript"),
                                        ("RangeError", "index out of range: 12 + 10 > 16", "javascript"),
                                        ("DecodeError", "DecodeError: Error parsing message", "python"),
                                        ("TypeError", "Cannot read properties of null", None),
                                        ("Error", "unreachable code: no such operator", "javascript"),
                                        ("RuntimeError", "unreachable", "python")):
            self.assertIsNone(findings.result_class(ROW, refused(kind, message, language)), message)

    def test_an_acceptance_is_not(self):
        r = {"outcome": "accepted", "match": False, "message": "", "error_type": "TypeError"}
        self.assertEqual(findings.result_class(ROW, r), "accepts what the spec refuses")


if __name__ == "__main__":
    unittest.main()
