"""The committed fuzzing data is consistent, ctest `fuzz_corpus_records`: every
target with corpus/TARGET.options has its dictionary and seed folder, no seed is longer
than the target's max_len (libFuzzer and AFL++ would only see a cut copy), and every
line of corpus/campaigns.jsonl is a complete record whose filed findings exist in
corpus/regression/ with a note naming their signature."""
import json
import os
import unittest

from gauntlet.settings import ROOT
from gauntlet.fuzz import options
from gauntlet.fuzz import paths

FIELDS = ("date", "campaign", "commit", "target", "engine", "jobs", "cpu_seconds", "execs", "edges_before",
          "edges_after", "features_before", "features_after", "corpus_before", "corpus_after", "new_inputs",
          "peak_rss_mb", "findings")


class Corpus(unittest.TestCase):
    def targets(self):
        return sorted(f[: -len(".options")] for f in os.listdir(paths.CORPUS) if f.endswith(".options"))

    def test_every_target_has_its_dictionary_and_seeds(self):
        self.assertIn("fuzz_external", self.targets())
        for t in self.targets():
            opts = options.read_options(t)
            self.assertTrue(os.path.isfile(os.path.join(paths.CORPUS, opts["dict"])), t)
            self.assertTrue(os.listdir(os.path.join(paths.CORPUS, t)), t)

    def test_no_seed_is_longer_than_max_len(self):
        for t in self.targets():
            limit = options.max_len(t)
            folder = os.path.join(paths.CORPUS, t)
            over = [f for f in os.listdir(folder) if os.path.getsize(os.path.join(folder, f)) > limit]
            self.assertEqual(over, [], f"{t}: inputs above max_len {limit}")

    def test_campaign_records_are_complete(self):
        if not os.path.isfile(paths.CAMPAIGNS):
            self.skipTest("no campaigns recorded yet")
        with open(paths.CAMPAIGNS, encoding="utf-8") as f:
            lines = [line for line in f if line.strip()]
        self.assertTrue(lines)
        for n, line in enumerate(lines, 1):
            r = json.loads(line)
            for key in FIELDS:
                self.assertIn(key, r, f"line {n}")
            self.assertGreaterEqual(r["cpu_seconds"], 0, f"line {n}")
            self.assertGreaterEqual(r["corpus_after"], r["corpus_before"], f"line {n}: a merge only adds")
            for finding in r["findings"]:
                note = os.path.join(ROOT, finding["filed"] + ".txt")
                self.assertTrue(os.path.isfile(note), f"line {n}: {finding['filed']}")
                with open(note, encoding="utf-8") as f:
                    self.assertIn("signature: " + finding["signature"], f.read())

