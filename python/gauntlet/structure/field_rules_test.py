"""The field-number rule fails on each planted literal, however the call is laid out, and passes on
enums, on numbers no message has and on files that do not build with WireWriter."""
import pathlib
import tempfile
import unittest

from gauntlet.structure import field_rules

HEADER = "namespace proto {\nenum class Graph : uint32_t { node = 1, name = 2 };\nenum class Model { graph = 7 };\n}\n"
BUILDER = "#include \"wire_writer.hpp\"\nvoid build(WireWriter& w) {\n    w.message(p::Model::graph, g);\n}\n"


class PlantedLiterals(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        self.write("importer/schema/onnx_fields.hpp", HEADER)
        self.write("harness/tests/build.cpp", BUILDER)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(text)

    def plant(self, call):
        self.write("hostile/src/case.cpp", f"WireWriter w;\nint x;\n{call}\n")
        return field_rules.problems(self.root)

    def test_a_clean_tree_passes(self):
        self.assertEqual(field_rules.largest_field_number(self.root), 7)
        self.assertEqual(len(field_rules.builders(self.root)), 1)
        self.assertEqual(field_rules.problems(self.root), [])

    def test_a_literal_defined_by_the_header_fails(self):
        self.assertEqual(self.plant("w.int_field(7, 1);"),
                         ["hostile/src/case.cpp:3: field 7 written as a number, not onnx_fields.hpp's enum"])

    def test_each_writing_call_is_checked(self):
        for call in ("w.bytes_field(2, b);", "w.key(1u, 2);", "w.packed_int64(3, v);", "w.len_header(4, n);",
                     "w.fixed32_field(5, 0);", "w.double_field(6, 1.0);"):
            with self.subTest(call=call):
                self.assertEqual(len(self.plant(call)), 1)

    def test_a_call_split_over_lines_fails_at_its_number(self):
        self.assertEqual(self.plant("w.message(\n    1,\n    g);"),
                         ["hostile/src/case.cpp:4: field 1 written as a number, not onnx_fields.hpp's enum"])

    def test_a_number_above_every_field_passes(self):
        self.assertEqual(self.plant("w.int_field(8, 1);  // a field no message has"), [])

    def test_a_file_without_wirewriter_is_not_a_builder(self):
        self.write("harness/tests/other.cpp", "void f() { log.message(3, text); }\n")
        self.assertEqual(field_rules.problems(self.root), [])


if __name__ == "__main__":
    unittest.main()
