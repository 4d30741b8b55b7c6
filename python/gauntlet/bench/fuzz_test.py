"""A fuzz row runs the target with the oracle it names and the options of its corpus/TARGET.options:
both reach the child."""
import pathlib
import shutil
import stat
import tempfile
import unittest

from gauntlet.bench import fuzz

# A stand-in for a libFuzzer binary: with -runs=0 it replays a corpus of 7 inputs; otherwise it
# also runs mutated inputs, whose count says which oracle it was given, and spends CPU on them.
FAKE_TARGET = """#!/bin/sh
runs=0
for a in "$@"; do case "$a" in -runs=*) runs=${a#-runs=} ;; esac; done
n=7
if [ "$runs" != 0 ]; then
  if [ "$GAUNTLET_FUZZ_FULL_ORACLE" = 1 ]; then n=107; else n=1607; fi
  i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done
fi
echo "stat::number_of_executed_units: $n" >&2
echo "$ASAN_OPTIONS $*" > "$(dirname "$0")/seen"
"""


class RunOne(unittest.TestCase):
    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="bench-fuzz-test-"))
        (self.root / "corpus" / "fuzz_x").mkdir(parents=True)
        (self.root / "corpus" / "fuzz_x.options").write_text(
            "[libfuzzer]\nentropic_feature_frequency_threshold = 16\n[asan]\ndetect_leaks = 0\n")
        self.binary = self.root / "fuzz_x"
        self.binary.write_text(FAKE_TARGET)
        self.binary.chmod(self.binary.stat().st_mode | stat.S_IXUSR)
        self.addCleanup(shutil.rmtree, self.root)

    def test_the_full_oracle_and_the_share_reach_the_target(self):
        full = fuzz.run_one(str(self.root), str(self.binary), "fuzz_x", True)
        share = fuzz.run_one(str(self.root), str(self.binary), "fuzz_x", False)
        self.assertEqual((full["executions"], share["executions"]), (100, 1600))  # the replay's 7 left out
        self.assertEqual(share["replay"]["executions"], 7)

    def test_the_second_run_goes_past_the_replay_by_the_rows_count(self):
        fuzz.run_one(str(self.root), str(self.binary), "fuzz_x", False)
        self.assertIn(f"-runs={7 + fuzz.RUNS}", (self.root / "seen").read_text().split())

    def test_the_options_file_gives_the_flags_and_the_sanitizer_options(self):
        fuzz.run_one(str(self.root), str(self.binary), "fuzz_x", False)
        asan, *args = (self.root / "seen").read_text().split()
        self.assertTrue(asan.startswith("detect_leaks=0"), asan)
        self.assertIn("-entropic_feature_frequency_threshold=16", args)


class BeyondReplay(unittest.TestCase):
    def test_the_row_is_what_the_whole_run_did_beyond_the_replay(self):
        row = fuzz.beyond_replay({"executions": 100, "cpu_seconds": 1.0, "seconds": 1.2},
                                 {"executions": 20100, "cpu_seconds": 5.0, "seconds": 5.2})
        self.assertEqual((row["executions"], row["per_second"], row["per_wall_second"]), (20000, 5000, 5000))
        self.assertEqual(row["replay"]["per_second"], 100)

    def test_no_time_beyond_the_replay_is_an_error_not_a_rate(self):
        row = fuzz.beyond_replay({"executions": 100, "cpu_seconds": 1.0, "seconds": 1.0},
                                 {"executions": 20100, "cpu_seconds": 1.0, "seconds": 1.5})
        self.assertIn("error", row)
        self.assertIn("error", fuzz.markdown({"fuzz_x": {"share": row}})[-1])


if __name__ == "__main__":
    unittest.main()
