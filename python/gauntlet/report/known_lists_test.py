"""Expected-failure lists (sweep/known/<peer>.txt) fail the matrix run when they are not
current, in both directions, on real runs of python/gauntlet/report/matrix.py over a small corpus:
a listed case that behaves as the spec says is a stale entry (exit 1, the line to remove
printed); an unlisted case that does not is new (exit 1, the line to add printed); a
current list passes (exit 0). Also gauntlet/known.py's parser and comparison, and which
importers' outcomes the matrix judges (verdicts.applies and matches).

    test_known_lists.py IMPORTER   (build/bin/onnximport; ctest known_lists)
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from gauntlet import known, settings
from gauntlet.report import corpus

MATRIX = settings.module_argv("gauntlet.report.matrix")
CASES = ["accept-ir-version-3.onnx", "malformed-key-field-zero.onnx", "invalidmodel-no-graph.onnx"]
IMPORTER = None


def small_corpus(folder):
    with open(os.path.join(settings.COMMITTED_CORPUS, "manifest.json"), encoding="utf-8") as f:
        m = json.load(f)
    m["cases"] = [k for k in m["cases"] if k["file"] in CASES]
    m["side_files"] = []
    os.makedirs(folder)
    for name in CASES:
        shutil.copyfile(os.path.join(settings.COMMITTED_CORPUS, name), os.path.join(folder, name))
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(m, f)


class KnownLists(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.corpus = os.path.join(self.tmp, "corpus")
        small_corpus(self.corpus)
        self.known = os.path.join(self.tmp, "known")
        os.makedirs(self.known)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_matrix(self, importer):
        return subprocess.run(MATRIX + ["--corpus", self.corpus, "--importer", importer,
                               "--out", os.path.join(self.tmp, "out", "matrix.json"), "--no-valid",
                               "--peers", "onnximport", "--known-dir", self.known, "--timeout", "30"],
                              capture_output=True, text=True, timeout=300)

    def write_list(self, lines):
        with open(known.path_for("onnximport", self.known), "w", encoding="utf-8") as f:
            f.write("# a test list\n" + "".join(line + "\n" for line in lines))

    def test_a_current_list_passes(self):
        self.write_list([])
        proc = self.run_matrix(IMPORTER)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("0 lines off", proc.stdout)

    def test_a_stale_entry_fails_the_run(self):
        # Our importer imports accept-ir-version-3.onnx as the spec says: listing it is stale.
        self.write_list(["accept-ir-version-3.onnx  # refused (no longer true)"])
        proc = self.run_matrix(IMPORTER)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("remove the line (the case now behaves as the spec says): accept-ir-version-3.onnx", proc.stdout)

    def test_an_unlisted_difference_fails_the_run(self):
        # An "importer" that accepts everything: both refusal cases differ from the spec.
        fake = os.path.join(self.tmp, "accept-all")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\nfor a; do f="$a"; done\nprintf "%s\\tok\\n" "$f"\n')
        os.chmod(fake, 0o755)
        self.write_list([])
        proc = self.run_matrix(fake)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        for name in ("malformed-key-field-zero.onnx", "invalidmodel-no-graph.onnx"):
            self.assertIn(f"add the line (a new difference from the spec): {name}  # accepted", proc.stdout)
        self.assertNotIn("accept-ir-version-3.onnx", proc.stdout.split("add the line")[-1].split("\n")[0])


class KnownModule(unittest.TestCase):
    def test_parse_and_compare(self):
        listed = known.parse("# comment\n\na.onnx  # refused: x\nb.onnx # timeout\n")
        self.assertEqual(listed, {"a.onnx": "refused: x", "b.onnx": "timeout"})
        stale, new = known.compare(listed, {"b.onnx": "timeout", "c.onnx": "accepted"}, {"a.onnx", "b.onnx", "c.onnx"})
        self.assertEqual(stale, ["a.onnx  # refused: x"])
        self.assertEqual(new, ["c.onnx  # accepted"])
        # A listed case that did not run here is neither stale nor checked.
        self.assertEqual(known.compare(listed, {}, {"c.onnx"}), ([], []))

    def test_every_importer_of_the_matrix_has_a_list(self):
        from gauntlet.report import verdicts
        for imp, _label in verdicts.IMPORTERS:
            self.assertIsNotNone(known.load(imp), f"sweep/known/{imp}.txt is missing")


class WhatTheMatrixJudges(unittest.TestCase):
    """verdicts.applies/matches: which importer's outcome the spec fixes for a case."""

    @classmethod
    def setUpClass(cls):
        from gauntlet.report import verdicts
        cls.verdicts = verdicts

    def case(self, file, rule_id="O3", options=None, expected="refuse"):
        return {"file": file, "rule_id": rule_id, "options": options or {}, "expected": expected,
                "expected_kind": "malformed"}

    def test_an_ort_case_is_judged_only_for_the_ort_readers(self):
        ort = self.case("malformed-ort-x.ort")
        judged = [imp for imp, _ in self.verdicts.IMPORTERS if self.verdicts.applies(ort, imp)]
        self.assertEqual(judged, ["onnximport", "onnxruntime", "ort-web", "ort-web-js"])
        self.assertIsNone(self.verdicts.matches(ort, {"outcome": "accepted"}, "onnx.load"))

    def test_ort_external_data_rules_are_not_judged_for_onnx_runtime(self):
        for rule in self.verdicts.ORT_EXTERNAL_RULES:
            case = self.case("externaldata-ort-x.ort", rule_id=rule)
            for ort_reader in ("onnxruntime", "ort-web", "ort-web-js"):
                self.assertFalse(self.verdicts.applies(case, ort_reader), rule)
            self.assertTrue(self.verdicts.applies(case, "onnximport"), rule)
        self.assertTrue(self.verdicts.applies(self.case("x.onnx", rule_id="O7"), "onnxruntime"),
                        "an .onnx case is judged for ONNX Runtime whatever its rule id")

    def test_import_options_are_judged_for_ours_only_and_bytes_not_here(self):
        with_dir = self.case("x.onnx", options={"external_dir": "d"})
        self.assertTrue(self.verdicts.applies(with_dir, "onnximport"))
        self.assertFalse(self.verdicts.applies(with_dir, "onnxruntime"))
        self.assertFalse(self.verdicts.applies(self.case("x.onnx", options={"import": "bytes"}), "onnximport"))

    def test_our_refusal_must_name_the_expected_kind(self):
        case = self.case("x.onnx")
        self.assertTrue(self.verdicts.matches(case, {"outcome": "refused", "kind": "malformed"}, "onnximport"))
        self.assertFalse(self.verdicts.matches(case, {"outcome": "refused", "kind": "io"}, "onnximport"))
        self.assertTrue(self.verdicts.matches(case, {"outcome": "refused", "kind": "io"}, "onnxruntime"))
        self.assertFalse(self.verdicts.matches(case, {"outcome": "accepted"}, "onnxruntime"))

    def test_the_committed_corpus_has_ort_cases_on_both_sides_for_onnx_runtime(self):
        cases = [k for k in corpus.load_corpus(settings.COMMITTED_CORPUS)[0] if k["file"].endswith(".ort")]
        judged = [k for k in cases if self.verdicts.applies(k, "onnxruntime")]
        self.assertGreater(len(judged), 0)
        self.assertLess(len(judged), len(cases))



def configure(argv):
    """ARGS of `gauntlet test report.known_lists_test IMPORTER`: the CLI under test."""
    global IMPORTER
    if len(argv) != 1:
        raise SystemExit("usage: python3 -m gauntlet test report.known_lists_test IMPORTER")
    IMPORTER = os.path.abspath(argv[0])
