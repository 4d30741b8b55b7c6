"""The pointer rules pass on pointers that resolve and fail on each planted one that does not."""
import pathlib
import tempfile
import unittest

from gauntlet.structure import pointer_rules

SPEED = """# Speed

## Four-byte slots, 2026-12-05 (tenth session)

**Shared strings.** Written once each.

| name | what |
| --- | --- |
| `castlike-as-cast` | a normalization |
"""

RULES = """# Rules

| ID | rule |
| --- | --- |
| O15 | The walk's work is bounded. |
"""


class Pointers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        self.write("docs/speed.md", SPEED)
        self.write("docs/rules.md", RULES)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def problems(self):
        return pointer_rules.problems(self.root)

    def test_pointers_to_headings_lead_ins_table_keys_and_rules_pass(self):
        self.write("src/a.cpp", '// Slots (docs/speed.md, "Four-byte slots"), strings (docs/speed.md,\n'
                                '// "Shared strings"), docs/speed.md "castlike-as-cast", rule O15.\n')
        self.write("docs/b.md", 'See docs/speed.md ("Four-byte slots") and [slots](speed.md#shared-strings).\n'
                                '[Speed](speed.md), [top](speed.md#speed).\n')
        self.assertEqual(self.problems(), ["docs/b.md links to speed.md#shared-strings: no such heading"])

    def test_a_section_wrapped_over_a_comment_line_is_read_whole(self):
        self.write("src/a.hpp", '/// Slots (docs/speed.md, "Four-byte\n    /// slots") are small.\n')
        self.write("src/a.py", '# Slots (docs/speed.md, "Eight-byte\n# slots") are large.\n')
        self.assertEqual(self.problems(), ['src/a.py points to docs/speed.md, "Eight-byte slots": no such section'])

    def test_a_shortened_heading_resolves_but_not_a_word_cut_short(self):
        self.write("src/a.cpp", '// (docs/speed.md, "Four-byte slots, 2026-12-05")\n// (docs/speed.md, "Four-byte sl")\n')
        self.assertEqual(self.problems(), ['src/a.cpp points to docs/speed.md, "Four-byte sl": no such section'])

    def test_a_missing_page_fails(self):
        self.write("src/a.cpp", "// The budget (docs/budget.md).\n")
        self.assertEqual(self.problems(), ["src/a.cpp names docs/budget.md, which does not exist"])

    def test_a_missing_section_fails(self):
        self.write("src/a.py", '"""Rows (docs/speed.md, "Eight-byte slots")."""\n')
        self.assertEqual(self.problems(), ['src/a.py points to docs/speed.md, "Eight-byte slots": no such section'])

    def test_a_link_to_a_missing_file_fails(self):
        self.write("docs/b.md", "The [plot](perf.png) and the [table](tables/perf.md).\n")
        self.assertEqual(self.problems(), ["docs/b.md links to perf.png, which does not exist",
                                           "docs/b.md links to tables/perf.md, which does not exist"])

    def test_an_unknown_rule_fails(self):
        self.write("src/a.cpp", "// Refused (rule O16), as docs/rules.md O15 says.\n")
        self.assertEqual(self.problems(), ["src/a.cpp names rule O16, which docs/rules.md does not state"])

    def test_the_rules_own_files_and_pages_of_another_layout_are_not_read(self):
        self.write("python/gauntlet/structure/x_test.py", '"docs/planted.md"\n')
        self.write("hostile/RELEASE.md", "[rules](docs/rules.md)\n")
        self.assertEqual(self.problems(), [])


if __name__ == "__main__":
    unittest.main()
