"""Builders name onnx.proto's fields by importer/schema/onnx_fields.hpp's enums (docs/harness.md,
"Structure rules"): in a C++ file that uses WireWriter, a field-writing call takes a literal field
number only above every number the header defines, a field no message has, written on purpose.
A call split over lines counts where its number stands."""
import re

from gauntlet.structure import walk

CXX_FOLDERS = ("importer", "cli", "harness", "hostile", "bench", "sweep")
HEADER = ("importer", "schema", "onnx_fields.hpp")
CALL = re.compile(r"\b(?:int_field|bytes_field|message|fixed32_field|fixed64_field|float_field|double_field"
                  r"|key|packed_\w+|len_header)\(\s*(\d+)u?\s*,")
ENUM_VALUE = re.compile(r"\b\w+ = (\d+)")


def largest_field_number(tree):
    """The largest number onnx_fields.hpp gives a field, or 0 when it defines none."""
    numbers = [int(n) for n in ENUM_VALUE.findall(tree.joinpath(*HEADER).read_text())]
    return max(numbers, default=0)


def builders(tree):
    """The C++ files that write the wire format with WireWriter."""
    return [path for folder in CXX_FOLDERS for path in walk.files(tree / folder, (".hpp", ".cpp"))
            if "WireWriter" in path.read_text()]


def problems(tree):
    largest = largest_field_number(tree)
    found = []
    for path in builders(tree):
        text = path.read_text()
        for m in CALL.finditer(text):
            if int(m.group(1)) <= largest:
                line = text.count("\n", 0, m.start(1)) + 1
                found.append(f"{path.relative_to(tree)}:{line}: field {m.group(1)} written as a number, "
                             "not onnx_fields.hpp's enum")
    return found
