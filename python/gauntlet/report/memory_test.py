"""The matrix's memory per answer and its class "memory amplification" (docs/matrix.md, "Memory").

- A worker's answer carries how far its resident memory rose for that request only: a stub
  worker that touches 320 MiB for one file shows it there, and not on the next file (the peak
  is reset between requests).
- The class fires on a refusal past both bounds, 256 MiB and 64 times the file, and not below
  either, nor on an acceptance.
- A worker left resident past 1 GiB is started again before the next file.
- This importer's rows carry its process's peak.

usage: python3 -m gauntlet test report.memory_test   (ctest matrix_memory)
"""
import os
import sys
import tempfile
import unittest

from gauntlet import settings
from gauntlet.report import findings, peers

# A worker of the matrix protocol that touches 320 MiB while answering a file named
# "*heavy*", then lets it go, and keeps 1.1 GiB after a file named "*keep*"; it refuses every
# file, saying its process id.
STUB = """import json, os, sys
print(json.dumps({"ready": True, "version": "stub"}), flush=True)
kept = []
for line in sys.stdin:
    path = json.loads(line)["path"]
    if "heavy" in path or "keep" in path:
        block = bytearray((1100 if "keep" in path else 320) << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        if "keep" in path:
            kept.append(block)
        del block
    print(json.dumps({"outcome": "refused", "message": str(os.getpid())}), flush=True)
"""

MIB = 1024


def run_stub(files, folder):
    script = os.path.join(folder, "stub_worker.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(STUB)
    spec = {"argv": [sys.executable, script], "requests": [("load", [("stub", None)])], "version": str}
    cases = [{"file": os.path.basename(p), "path": p} for p in files]
    results = {c["file"]: {} for c in cases}
    status = peers.run_peer("stub", spec, cases, folder, folder, 60, results, lambda _name: None)
    return status, {name: row["stub"] for name, row in results.items()}


def small_file(folder, name, size=100):
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.truncate(size)
    return path


class PerAnswer(unittest.TestCase):
    def test_a_heavy_answer_shows_and_the_next_does_not(self):
        with tempfile.TemporaryDirectory() as folder:
            heavy, light = small_file(folder, "heavy.onnx"), small_file(folder, "light.onnx")
            status, rows = run_stub([heavy, light], folder)
        self.assertEqual(status["status"], "run")
        if "memory_kib" not in rows["heavy.onnx"]:
            self.skipTest("this kernel does not let the matrix reset a process's peak (/proc/PID/clear_refs)")
        self.assertGreaterEqual(rows["heavy.onnx"]["memory_kib"], 300 * MIB)
        self.assertLess(rows["light.onnx"]["memory_kib"], 64 * MIB, "the peak of the file before leaked into it")

    def test_a_worker_left_heavy_is_started_again(self):
        with tempfile.TemporaryDirectory() as folder:
            keep, light = small_file(folder, "keep.onnx"), small_file(folder, "light.onnx")
            status, rows = run_stub([keep, light], folder)
        self.assertEqual(status["restarts"], 1)
        self.assertNotEqual(rows["keep.onnx"]["message"], rows["light.onnx"]["message"],
                            "the file after one that left 1.1 GiB resident met the same process")

    def test_this_importers_rows_carry_its_peak(self):
        corpus = settings.COMMITTED_CORPUS
        r = peers.run_ours(os.path.join(settings.build_dir(), "bin", "onnximport"),
                           os.path.join(corpus, "accept-ort-relu.ort"), 30)
        self.assertEqual(r["outcome"], "accepted")
        self.assertGreater(r["memory_kib"], 0)
        self.assertLess(r["memory_kib"], 256 * MIB)


class Amplification(unittest.TestCase):
    def judge(self, file_size, memory_kib, outcome="refused"):
        with tempfile.TemporaryDirectory() as folder:
            row = {"expected": "refuse", "path": small_file(folder, "f.onnx", file_size)}
            return findings.result_class(row, {"outcome": outcome, "match": outcome == "refused",
                                               "memory_kib": memory_kib})

    def test_past_both_bounds(self):
        self.assertEqual(self.judge(1 << 20, 300 * MIB), "memory amplification")

    def test_an_acceptance_is_judged_as_before(self):
        self.assertEqual(self.judge(1 << 20, 300 * MIB, "accepted"), "accepts what the spec refuses")

    def test_under_the_floor(self):
        self.assertIsNone(self.judge(100, 200 * MIB))

    def test_under_64_times_the_file(self):
        self.assertIsNone(self.judge(10 << 20, 600 * MIB))

    def test_a_hang_stays_a_hang(self):
        with tempfile.TemporaryDirectory() as folder:
            row = {"expected": "refuse", "path": small_file(folder, "f.onnx")}
            r = {"outcome": "timeout", "memory_kib": 4 << 20}
            self.assertEqual(findings.result_class(row, r), "hang (timed out)")


if __name__ == "__main__":
    unittest.main()
