"""fuzz-summary's totals, ctest `fuzz_summary`: per target, and per target and engine with each
engine's executions a CPU-second and findings, from records made here; the report's rows are
the same totals."""
import contextlib
import io
import unittest

from gauntlet.fuzz import records
from gauntlet.fuzz import summary
from gauntlet.report import campaigns

RECORDS = [
    {"target": "fuzz_a", "engine": "afl", "cpu_seconds": 10.0, "execs": 1000, "findings": [{"signature": "s"}],
     "edges_after": 50},
    {"target": "fuzz_a", "engine": "afl", "cpu_seconds": 30.0, "execs": 3000, "findings": [{"signature": "s"}],
     "edges_after": 70, "features_after": 300},
    {"target": "fuzz_a", "cpu_seconds": 20.0, "execs": 400, "findings": []},  # before records named the engine
    {"target": "fuzz_b", "cpu_seconds": 5.0, "execs": 50, "findings": [{"signature": "u"}, {"signature": "t"}]},
]


class Totals(unittest.TestCase):
    def test_per_target_adds_every_engine(self):
        t = records.totals(RECORDS)["fuzz_a"]
        self.assertEqual((t["campaigns"], t["cpu_seconds"], t["execs"], t["findings"]), (3, 60.0, 4400, 2))
        self.assertEqual(t["longest"]["cpu_seconds"], 30.0)
        self.assertEqual((t["signatures"], t["edges"], t["features"]), (["s"], 70, 300))

    def test_the_reports_rows_are_the_totals_by_target_with_their_signatures(self):
        rows = campaigns.totals(RECORDS)
        self.assertEqual([(r["target"], r["campaigns"], r["findings"], r["edges"]) for r in rows],
                         [("fuzz_a", 3, ["s"], 70), ("fuzz_b", 1, ["t", "u"], None)])
        self.assertEqual(rows[0]["longest"]["cpu_seconds"], 30.0)

    def test_per_engine_rates_and_findings(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            summary.print_engines(RECORDS)
        lines = {tuple(line.split()[:2]): line.split() for line in out.getvalue().splitlines()[2:]}
        self.assertEqual(lines[("fuzz_a", "afl")][2:], ["2", "40", "4000", "100", "2"])
        self.assertEqual(lines[("fuzz_a", "libfuzzer")][2:], ["1", "20", "400", "20", "0"])


if __name__ == "__main__":
    unittest.main()
