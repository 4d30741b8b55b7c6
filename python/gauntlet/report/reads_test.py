"""The matrix's fourth outcome, "accepted, read differently" (docs/matrix.md), can fire.

- A peer reading a last-wins field as first-wins is caught: a worker of the matrix protocol
  that reads accept-tensor-data-type-last-wins.onnx's data_type as its first occurrence
  (INT64) is run through peers.run_peer and judged by reads.judge_reads against the
  manifest; one that reads the last occurrence (FLOAT) is not flagged.
- The reference comparison names the first field that differs.
- The two summarizers (read_summary.py and read_summary.js) agree on what libprotobuf and
  protobufjs read of every accept case and a sample of backend models (skipped, saying
  why, without node or the npm peer).

usage: python3 -m gauntlet test report.reads_test [PEER_DIR]   (default BUILD/peer; ctest matrix_reads)
"""
import json
import os
import sys
import tempfile
import unittest

from gauntlet import settings
from gauntlet.report import known_check, peers, reads, verdicts

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = settings.COMMITTED_CORPUS
LAST_WINS = "accept-tensor-data-type-last-wins.onnx"
PEER_DIR = os.path.join(settings.build_dir(), "peer")


def configure(argv):
    """ARGS of `gauntlet test report.reads_test [PEER_DIR]`: where the npm peers are."""
    global PEER_DIR
    if len(argv) > 1:
        raise SystemExit("usage: python3 -m gauntlet test report.reads_test [PEER_DIR]")
    if argv:
        PEER_DIR = os.path.abspath(argv[0])


# A worker of the matrix protocol that answers every file with the reading given on its
# command line: the test's stand-in for a reader with a first-wins (or last-wins) bug.
STUB = """import json, sys
read = json.loads(sys.argv[1])
print(json.dumps({"ready": True, "version": "stub"}), flush=True)
for line in sys.stdin:
    print(json.dumps({"outcome": "accepted", "message": "", "read": read}), flush=True)
"""


def manifest_case(name):
    with open(os.path.join(CORPUS, "manifest.json"), encoding="utf-8") as f:
        case = next(c for c in json.load(f)["cases"] if c["file"] == name)
    return {"file": name, "path": os.path.join(CORPUS, name), "expected": case["expect"], "facts": case.get("facts"),
            "options": case.get("options") or {}}


def reading(elem_type):
    return {"ir_version": "9", "opsets": [["", "21"]], "nodes": 1, "op_types": ["Identity"],
            "initializers": [{"name": "T", "elem_type": elem_type, "dims": ["1"], "sha256": None}]}


def run_stub(case, read, folder):
    script = os.path.join(folder, "stub_worker.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(STUB)
    spec = {"argv": [sys.executable, script, json.dumps(read)], "requests": [("load", [("stub", None)])],
            "version": str}
    results = {case["file"]: {}}
    status = peers.run_peer("stub", spec, [case], folder, folder, 10, results, lambda _name: None)
    return status, results[case["file"]]


def answers(argv, files, folder):
    """Each file's answer from a worker, one request at a time, as the matrix asks."""
    worker = peers.Worker(os.path.basename(argv[-1]), argv, os.path.join(folder, "worker.log"))
    worker.start()
    out = [worker.request({"path": p, "mode": "noext"}, 60)[0] for p in files]
    worker.close()
    return out


class LastWins(unittest.TestCase):
    def judge(self, elem_type):
        case = manifest_case(LAST_WINS)
        self.assertEqual(case["facts"]["tensor_data_type"], {"T": 1}, "the case's manifest changed")
        with tempfile.TemporaryDirectory() as folder:
            status, row = run_stub(case, reading(elem_type), folder)
        self.assertEqual(status["status"], "run")
        row["stub"]["match"] = verdicts.matches(case, row["stub"], "stub")
        reads.judge_reads(row, case["facts"], True)
        return row["stub"]

    def test_first_wins_reader_is_caught(self):
        r = self.judge(7)  # data_type INT64, the first of the two occurrences
        self.assertEqual(r["outcome"], "accepted")
        self.assertFalse(r["match"])
        self.assertIn("elem_type: read 7, the manifest says 1", r["read_differently"])
        reason = known_check.deviation_reason({"expected": "accept"}, r)
        self.assertTrue(reason.startswith("accepted, read differently: "), reason)

    def test_last_wins_reader_passes(self):
        r = self.judge(1)
        self.assertTrue(r["match"])
        self.assertNotIn("read_differently", r)


class Reference(unittest.TestCase):
    def test_first_difference_in_reading_order(self):
        ref = reading(1)
        other = dict(ref, op_types=["Relu"])
        self.assertEqual(reads.against_reference(other, ref), "op_types[0]: read 'Relu', the reference read 'Identity'")
        self.assertIsNone(reads.against_reference(ref, ref))
        self.assertIsNone(reads.first_difference(ref, {"tensor_data_type": {"absent": 3}}, ref))


class MisreadingReference(unittest.TestCase):
    def test_a_reference_that_contradicts_the_manifest_judges_no_one(self):
        facts = {"initializer_count": 0}
        merged = dict(reading(1), nodes=3, op_types=["Identity"] * 3)  # fields of two graphs merged
        last = dict(reading(1), initializers=[])                       # the last graph only, as the rules say
        row = {reads.REFERENCE: {"outcome": "accepted", "read": merged, "match": True},
               "peer": {"outcome": "accepted", "read": last, "match": True}}
        reads.judge_reads(row, facts, True)
        self.assertIn("initializer_count", row[reads.REFERENCE]["read_differently"])
        self.assertNotIn("read_differently", row["peer"])


class Summarizers(unittest.TestCase):
    def test_python_and_javascript_agree(self):
        pbjs = os.path.join(PEER_DIR, "node_modules", "protobufjs")
        if not os.path.isfile(os.path.join(pbjs, "package.json")) or not os.path.isfile(peers.ONNX_PROTO):
            self.skipTest(f"protobufjs is not installed in {PEER_DIR} (tools/install_peer.sh) or no {peers.ONNX_PROTO}")
        with open(os.path.join(CORPUS, "manifest.json"), encoding="utf-8") as f:
            files = [os.path.join(CORPUS, c["file"]) for c in json.load(f)["cases"]
                     if c["expect"] == "accept" and c["file"].endswith(".onnx") and not c.get("generated_only")]
        with tempfile.TemporaryDirectory() as folder:
            py = answers(settings.module_argv("gauntlet.report.peer_onnx"), files, folder)
            js = answers(["node", os.path.join(HERE, "peer_protobufjs.js"), pbjs, peers.ONNX_PROTO], files, folder)
        compared = 0
        for path, p, j in zip(files, py, js):
            p = p["noext"]
            if "read" in p and "read" in j and p["read"]["nodes"] == j["read"]["nodes"]:
                compared += 1
                self.assertIsNone(reads.against_reference(j["read"], p["read"]), os.path.basename(path))
        self.assertGreater(compared, len(files) // 2)
