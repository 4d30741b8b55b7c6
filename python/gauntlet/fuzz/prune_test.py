"""The corpus cut (fuzz-prune), ctest `fuzz_prune`, on the planted target
(harness/fuzz/fuzz_planted.cpp; skipped where clang's libFuzzer is missing): redundant
inputs go, a named seed stays though redundant, no edge is lost, and a dry run or a cut that
loses an edge leaves the corpus as it was (keeps_coverage)."""
import hashlib
import os
import shutil
import tempfile
import unittest

from gauntlet.fuzz import prune
from gauntlet.fuzz.triage_test import PlantedFolder

# fuzz_planted's branches: shorter than five bytes, or five and more without its prefix.
# "q" is the named seed; "a" and "zz" take its branch, "bbbbb" and "ccccc" the other one.
NAMED = {"seed_short": b"q"}
HASHED = (b"a", b"zz", b"bbbbb", b"ccccc")


class Prune(PlantedFolder):
    def setUp(self):
        super().setUp()
        self.root = tempfile.mkdtemp(dir=self.tmp)
        self.corpus = os.path.join(self.root, "fuzz_planted")
        os.makedirs(self.corpus)
        for name, data in NAMED.items():
            self.write(name, data)
        for data in HASHED:
            self.write(hashlib.sha1(data).hexdigest(), data)

    def write(self, name, data):
        with open(os.path.join(self.corpus, name), "wb") as f:
            f.write(data)

    def contents(self):
        out = {}
        for name in os.listdir(self.corpus):
            with open(os.path.join(self.corpus, name), "rb") as f:
                out[name] = f.read()
        return out

    def run_prune(self, apply=True):
        work = tempfile.mkdtemp(dir=self.root)
        return prune.prune("fuzz_planted", self.binary, self.corpus, work, apply=apply, corpus_root=self.root)

    def test_redundant_inputs_go_and_the_named_seed_stays(self):
        row = self.run_prune()
        self.assertTrue(row["replaced"])
        kept = self.contents()
        self.assertEqual(kept.get("seed_short"), b"q")
        self.assertEqual(len(kept), 2, sorted(kept.values()))
        self.assertIn(sorted(v for v in kept.values() if v != b"q")[0], (b"bbbbb", b"ccccc"))
        self.assertEqual((row["before"]["files"], row["after"]["files"]), (5, 2))
        self.assertEqual(row["after"]["edges"], row["before"]["edges"])
        self.assertGreater(row["before"]["bytes"], row["after"]["bytes"])

    def test_a_dry_run_changes_nothing(self):
        before = self.contents()
        row = self.run_prune(apply=False)
        self.assertFalse(row["replaced"])
        self.assertEqual(row["after"]["files"], 2)
        self.assertEqual(self.contents(), before)

    def test_a_cut_is_applied_only_when_no_edge_is_lost(self):
        def passes(before, after):
            return prune.keeps_coverage({"edges_passes": before}, {"edges_passes": after})
        self.assertTrue(passes([10, 10], [10, 10]))
        self.assertTrue(passes([10, 12], [9, 11]))   # within the corpus's own spread
        self.assertFalse(passes([10, 11], [9, 9]))   # one edge below any pass over the corpus
        self.assertFalse(passes([10, None], [10, 10]))  # a pass that counted nothing judges nothing

    def test_a_merged_copy_of_a_named_seed_is_dropped_and_the_seed_kept(self):
        seed = os.path.join(self.corpus, "seed_short")
        copy = os.path.join(self.corpus, hashlib.sha1(b"q").hexdigest())
        shutil.copy2(seed, copy)
        prune.drop_seed_copies(self.corpus, [seed])
        self.assertFalse(os.path.exists(copy))
        self.assertTrue(os.path.exists(seed))
        self.assertEqual(len(self.contents()), 1 + len(HASHED))

    def test_only_sha1_names_are_cut_candidates(self):
        self.assertFalse(prune.is_named_seed(hashlib.sha1(b"x").hexdigest()))
        self.assertTrue(prune.is_named_seed("node_test_abs.ort"))
        self.assertTrue(prune.is_named_seed(hashlib.sha1(b"x").hexdigest().upper()))


if __name__ == "__main__":
    unittest.main()
