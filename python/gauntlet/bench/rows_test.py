"""The importer rows' children: as many rounds as the model asks, taking turns."""
import unittest
from unittest import mock

from gauntlet.bench import plan, rows


def fake_child(calls):
    def run(cmd, timeout=3600):
        calls.append(cmd)
        return {"times": [0.001], "total_times": [0.002], "peak_rss_kib": 1, "median": 0.001}
    return run


class ImporterRows(unittest.TestCase):
    def children(self, rounds, repeat=9):
        calls = []
        with mock.patch.object(rows, "run_child", fake_child(calls)), mock.patch.object(rows, "load", lambda: 0.0):
            results = rows.importer_rows("bench", ["ours-memory", "protobuf", "python"], "m.onnx", repeat, rounds)
        return calls, results

    def test_each_importer_gets_a_child_per_round_and_the_importers_take_turns(self):
        calls, results = self.children(rounds=5)
        importers = [c[c.index("--importer") + 1] for c in calls if "--importer" in c]
        self.assertEqual(importers, ["ours", "protobuf"] * 5)
        self.assertEqual(results["ours-memory"]["children"], 5)
        self.assertEqual(sum("gauntlet.bench.onnx_load" in c for c in calls), 1)  # onnx.load: one child

    def test_a_child_runs_repeat_over_the_default_rounds_whatever_the_rounds(self):
        calls, _ = self.children(rounds=15, repeat=9)
        self.assertTrue(all(c[c.index("--repeat") + 1] == "3" for c in calls if "--importer" in c))

    def test_short_models_get_more_rounds_than_the_default(self):
        self.assertGreater(plan.rounds_of("backend"), plan.ROUNDS)
        self.assertEqual(plan.rounds_of("big"), plan.ROUNDS)


if __name__ == "__main__":
    unittest.main()
