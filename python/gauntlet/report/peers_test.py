"""The matrix's driver judges a crash on a fresh worker (docs/matrix.md, "The worker protocol"):
a worker that crashes on a file only after other files shows the file's own outcome, with
the first run kept beside it; one that crashes on the file itself stays crashed.

usage: python3 -m gauntlet test report.peers_test   (ctest matrix_peers)
"""
import os
import sys
import tempfile
import unittest

from gauntlet.report import peers

# A worker that aborts on a file named "*always*", and on one named "*once*" only while the
# marker file beside it is absent (then it makes the marker); it refuses every other file.
STUB = """import json, os, sys
print(json.dumps({"ready": True, "version": "stub"}), flush=True)
for line in sys.stdin:
    path = json.loads(line)["path"]
    marker = path + ".seen"
    if "always" in path or ("once" in path and not os.path.exists(marker)):
        open(marker, "w").close()
        os.abort()
    print(json.dumps({"outcome": "refused", "message": "stub"}), flush=True)
"""


def run_stub(names, folder):
    script = os.path.join(folder, "stub_worker.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(STUB)
    spec = {"argv": [sys.executable, script], "requests": [("load", [("stub", None)])], "version": str}
    cases = [{"file": n, "path": os.path.join(folder, n)} for n in names]
    results = {n: {} for n in names}
    peers.run_peer("stub", spec, cases, folder, folder, 30, results, lambda _name: None)
    return {n: row["stub"] for n, row in results.items()}


class FreshWorker(unittest.TestCase):
    def test_a_crash_the_file_alone_does_not_make_is_not_counted(self):
        with tempfile.TemporaryDirectory() as folder:
            rows = run_stub(["once.onnx"], folder)
        self.assertEqual(rows["once.onnx"]["outcome"], "refused")
        self.assertEqual(rows["once.onnx"]["first_run"]["outcome"], "crashed")
        self.assertIn("SIGABRT", rows["once.onnx"]["first_run"]["message"])

    def test_a_crash_the_file_makes_stays(self):
        with tempfile.TemporaryDirectory() as folder:
            rows = run_stub(["always.onnx", "after.onnx"], folder)
        self.assertEqual(rows["always.onnx"]["outcome"], "crashed")
        self.assertNotIn("first_run", rows["always.onnx"])
        self.assertEqual(rows["after.onnx"]["outcome"], "refused")


if __name__ == "__main__":
    unittest.main()
