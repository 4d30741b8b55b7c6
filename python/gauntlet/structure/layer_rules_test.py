"""The layer rules fail on each planted violation, however the include is spelled, and pass
on a clean tree."""
import pathlib
import tempfile
import unittest

from gauntlet.structure import layer_rules

CLEAN = {
    "importer/src/core/refusal.hpp": "#pragma once\n",
    "importer/src/format/tensor_limits.hpp": "#pragma once\n#include <cstdint>\n",
    "importer/src/format/data_type.cpp": "#include <onnximport/data_type.hpp>\nnamespace onnximport {\n}\n",
    "importer/src/model/storage.hpp": '#include "core/refusal.hpp"\n#include "format/tensor_limits.hpp"\n',
    "importer/src/onnx/fields.hpp": '#include "model/storage.hpp"\n#include <onnx_fields.hpp>\n',
    "importer/src/onnx/read_tensor.cpp": '#include "onnx/fields.hpp"\nnamespace onnximport::detail {\n}\n',
    "importer/src/ort/read_tensor.cpp": '#include "format/tensor_limits.hpp"\n#include <ort_generated.h>\n',
    "importer/src/write/ort/put_tensor.cpp": '#include "format/tensor_limits.hpp"\n#include "write/ort/x.hpp"\n',
    "importer/src/write/ort/x.hpp": "#pragma once\n",
    "importer/src/import.cpp": '#include "onnx/fields.hpp"\n#include "ort/read_tensor.cpp"\n',
}


class PlantedViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        for path, text in CLEAN.items():
            self.write(path, text)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(text)

    def plant(self, path, include):
        self.write(path, f"#include {include}\n")
        return layer_rules.problems(self.root)

    def test_a_clean_tree_passes(self):
        self.assertEqual(layer_rules.problems(self.root), [])
        self.assertEqual(len(list(layer_rules.includes(self.root))), 11)

    def test_model_including_onnx_fails(self):
        self.assertEqual(self.plant("importer/src/model/value_index.hpp", '"onnx/fields.hpp"'),
                         ['importer/src/model/value_index.hpp (model/) includes "onnx/fields.hpp", of onnx/'])

    def test_ort_including_onnx_through_the_include_path_fails(self):
        self.assertEqual(self.plant("importer/src/ort/read_node.cpp", "<onnx/fields.hpp>"),
                         ["importer/src/ort/read_node.cpp (ort/) includes <onnx/fields.hpp>, of onnx/"])

    def test_write_including_onnx_by_a_relative_path_fails(self):
        self.assertEqual(self.plant("importer/src/write/ort/put_node.cpp", '"../../onnx/fields.hpp"'),
                         ['importer/src/write/ort/put_node.cpp (write/) includes "../../onnx/fields.hpp", of onnx/'])

    def test_a_relative_path_to_a_file_that_is_not_there_still_counts(self):
        self.assertEqual(len(self.plant("importer/src/write/put.cpp", '"../onnx/tensor_layout.hpp"')), 1)

    def test_format_standing_on_another_layer_fails(self):
        self.assertEqual(self.plant("importer/src/format/attribute_type.hpp", '"core/refusal.hpp"'),
                         ['importer/src/format/attribute_type.hpp (format/) includes "core/refusal.hpp", of core/'])

    def test_a_reader_defining_public_api_fails(self):
        self.write("importer/src/onnx/data_type.cpp", "namespace onnximport {\nint f() { return 0; }\n}\n")
        self.assertEqual(layer_rules.problems(self.root),
                         ["importer/src/onnx/data_type.cpp defines part of the public API (namespace onnximport): "
                          "define it below the readers"])

    def test_wire_including_the_generated_onnx_header_fails(self):
        self.assertEqual(len(self.plant("importer/src/wire/reader.hpp", "<onnx_fields.hpp>")), 1)

    def test_fuzz_wire_reaching_past_the_wire_reader_fails(self):
        self.write("harness/fuzz/fuzz_wire.cpp", '#include "wire/reader.hpp"\n#include "fuzz_check.hpp"\n')
        self.assertEqual(layer_rules.problems(self.root), [])
        self.write("harness/fuzz/fuzz_wire.cpp", '#include "onnx/fields.hpp"\n')
        self.assertEqual(layer_rules.problems(self.root),
                         ["fuzz_wire.cpp includes onnx/fields.hpp: it tests the wire reader alone"])

    def test_the_lowering_pass_reaching_flatbuffers_fails(self):
        self.write("importer/src/write/ort/assembly.hpp", '#include <ort_generated.h>\n')
        self.write("importer/src/write/ort/plan.hpp", '#include "write/ort/x.hpp"\n#include <vector>\n')
        self.assertEqual(self.plant("importer/src/write/ort/lower.cpp", '"write/ort/plan.hpp"'), [])
        self.write("importer/src/write/ort/x.hpp", '#include "assembly.hpp"\n')
        self.assertEqual(layer_rules.problems(self.root),
                         ["importer/src/write/ort/lower.cpp (the .ort writer's lowering pass) reaches "
                          "ort_generated.h: only put_*.cpp serialize",
                          "importer/src/write/ort/plan.hpp (the .ort writer's lowering pass) reaches "
                          "ort_generated.h: only put_*.cpp serialize"])

    def test_a_readme_row_that_differs_from_the_rules_fails(self):
        rows = "".join(f"| `{layer}/` | what | {', '.join(f'`{f}/`' for f in sorted(allowed))} |\n"
                       for layer, allowed in layer_rules.ALLOWED.items())
        self.write("importer/src/README.md", "| layer | holds | includes |\n| --- | --- | --- |\n" + rows)
        self.assertEqual(layer_rules.problems(self.root), [])
        self.write("importer/src/README.md", rows.replace("| `core/`, `format/`, `io/`, `model/` |", "| `core/`, `io/` |"))
        self.assertEqual(layer_rules.problems(self.root),
                         ["importer/src/README.md: the row of model/ names ['core', 'io', 'model'], the layer rules "
                          "['core', 'format', 'io', 'model']"])


if __name__ == "__main__":
    unittest.main()
