"""A fuzz row runs the target with the oracle it names and the options of its corpus/TARGET.options:
both reach the child."""
import pathlib
import shutil
import stat
import tempfile
import unittest

from gauntlet.bench import fuzz

# A stand-in for a libFuzzer binary: its count of executions says which oracle it was given.
FAKE_TARGET = """#!/bin/sh
if [ "$GAUNTLET_FUZZ_FULL_ORACLE" = 1 ]; then n=100; else n=1600; fi
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
        self.assertEqual((full["executions"], share["executions"]), (100, 1600))

    def test_the_options_file_gives_the_flags_and_the_sanitizer_options(self):
        fuzz.run_one(str(self.root), str(self.binary), "fuzz_x", False)
        asan, *args = (self.root / "seen").read_text().split()
        self.assertTrue(asan.startswith("detect_leaks=0"), asan)
        self.assertIn("-entropic_feature_frequency_threshold=16", args)


if __name__ == "__main__":
    unittest.main()
