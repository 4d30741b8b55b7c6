"""The hand-quoting rule fails on a name put between quote characters raw, on its line or split over
two, and passes on quoted() and on literals that only end with a quote."""
import pathlib
import tempfile
import unittest

from gauntlet.structure import message_rules


class PlantedMessages(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def plant(self, statement):
        path = self.root / "importer" / "src" / "ort" / "check.cpp"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"void f(std::string_view out) {{\n    {statement}\n}}\n")
        return message_rules.problems(self.root)

    def test_a_name_between_single_quotes_by_hand_fails(self):
        self.assertEqual(self.plant("""c.invalid(at, "output '" + std::string(out) + "' differs");"""),
                         ["importer/src/ort/check.cpp:2: a name quoted by hand in a message, "
                          "not by core/text.hpp's quoted()"])

    def test_double_quotes_and_a_call_split_over_lines_fail_too(self):
        self.assertEqual(len(self.plant("""fail("name \\"" + std::string(out) + "\\"");""")), 1)
        self.assertEqual(len(self.plant("""fail("output '"\n        + std::string(out));""")), 1)

    def test_quoted_and_unquoted_text_pass(self):
        self.assertEqual(self.plant("""fail("output " + quoted(out, '\\'') + " differs");"""), [])
        self.assertEqual(self.plant("""fail(std::string(out) + " is required");"""), [])

    def test_files_outside_the_library_are_not_read(self):
        path = self.root / "harness" / "tests" / "t.cpp"
        path.parent.mkdir(parents=True)
        path.write_text("""x("'" + std::string(out));\n""")
        self.assertEqual(message_rules.problems(self.root), [])


if __name__ == "__main__":
    unittest.main()
