"""tools/gauntlet: the rules page parser, the strict manifest reader and the
expected-failure lists, each shown to refuse what it must (ctest gauntlet_python)."""
import json
import os
import unittest

from gauntlet import kinds, manifest, settings, rules


class RulesPage(unittest.TestCase):
    def test_the_page_defines_every_section(self):
        page = rules.load()
        for letter in "WMTGERXD":
            self.assertTrue(any(k.startswith(letter) for k in page), f"no {letter} rule")
        self.assertIn("W4", page)
        self.assertIn("tenth byte", page["W4"])

    def test_an_id_defined_twice_is_refused(self):
        with self.assertRaises(rules.RulesError):
            rules.parse("| W1 | a |\n| W2 | b |\n| W1 | c |\n")

    def test_prose_and_headers_are_not_rules(self):
        self.assertEqual(rules.parse("| ID | rule |\n| --- | --- |\n| W1 | a |\ntext | W2 | b |\n"), {"W1": "a"})


class StrictManifest(unittest.TestCase):
    def setUp(self):
        self.rules = rules.load()
        with open(os.path.join(settings.COMMITTED_CORPUS, "manifest.json"), encoding="utf-8") as f:
            self.m = json.load(f)

    def test_the_committed_manifest_is_sound(self):
        self.assertEqual(manifest.check(self.m, self.rules), [])
        self.assertGreater(len(manifest.cases(settings.COMMITTED_CORPUS)), 400)

    def test_an_undefined_rule_id_is_found(self):
        self.m["cases"][0]["rule_id"] = "Z99"
        problems = manifest.check(self.m, self.rules)
        self.assertEqual(len(problems), 1)
        self.assertIn("Z99", problems[0])

    def test_a_rule_text_other_than_the_page_is_found(self):
        self.m["cases"][1]["rule"] = "other words"
        self.assertEqual(len(manifest.check(self.m, self.rules)), 1)

    def test_a_name_that_disagrees_with_its_kind_is_found(self):
        k = next(c for c in self.m["cases"] if c["expect"] == "refuse")
        k["kind"] = "Io" if k["kind"] != "Io" else "Malformed"
        self.assertEqual(len(manifest.check(self.m, self.rules)), 1)

    def test_a_refusal_without_its_phase_is_found(self):
        k = next(c for c in self.m["cases"] if c["expect"] == "refuse")
        k["phase"] = "parse"
        problems = manifest.check(self.m, self.rules)
        self.assertEqual(len(problems), 1)
        self.assertIn("phase 'parse'", problems[0])

    def test_every_phase_is_used(self):
        used = {c.get("phase") for c in self.m["cases"] if c["expect"] == "refuse"}
        self.assertEqual(used, set(manifest.PHASES))

    def test_kinds_from_names(self):
        self.assertEqual(kinds.expected_from_name("externaldata-x.onnx"), ("refuse", "ExternalData"))
        self.assertEqual(kinds.expected_from_name("accept-x.onnx"), ("accept", None))
        self.assertIsNone(kinds.expected_from_name("other-x.onnx"))

