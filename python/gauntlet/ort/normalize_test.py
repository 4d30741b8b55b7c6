"""The conformance comparison can fail: the normalizations of normalize.py explain only
what ONNX Runtime does, and any other difference between two dumps stays a failure.
Run by ctest (ort_conformance_can_fail); exit 1 on the first wrong verdict."""
import sys

from gauntlet.ort import dumptree
from gauntlet.ort import normalize

ONNX = """onnx-gauntlet-dump 1
ir_version 8
producer_name "p"
model_version 0
opset_import "" 17
graph
  name "g"
  input "X"
    type tensor
      elem_type 1 FLOAT
      shape 1
        dim value 2
  output "Y"
    type tensor
      elem_type 1 FLOAT
      shape 1
        dim value 2
  initializer
    name "unused"
    data_type 1 FLOAT
    dims 1
    data_location 0
    source typed
    bytes 4
    sha256 aa
  node 0
    name ""
    op_type "Constant"
    domain ""
    output "C"
    attribute "value_int"
      attr_type 2 INT declared
      i 1
  node 1
    name "n"
    op_type "Add"
    domain ""
    input "X"
    input "C"
    output "Y"
training_info 0
functions 0
"""

ORT = """onnx-gauntlet-dump 1
ir_version 8
producer_name "p"
model_version 9223372036854775807
opset_import "" 17
opset_import "com.microsoft" 1
graph
  name ""
  input "X"
    type tensor
      elem_type 1 FLOAT
      shape 1
        dim value 2
  output "Y"
    type tensor
      elem_type 1 FLOAT
      shape 1
        dim value 2
  value_info "C"
    type none
  initializer
    name "C"
    data_type 7 INT64
    dims
    data_location 0
    source raw
    bytes 8
    sha256 7c9fa136d4413fa6173637e883b6998d32e1d675f88cddff9dcbcf331820f4b8
  node 0
    name "n"
    op_type "Add"
    domain ""
    input "X"
    input "C"
    output "Y"
training_info 0
functions 0
"""


def verdict(onnx_text, ort_text):
    a, b = dumptree.parse(onnx_text), dumptree.parse(ort_text)
    normalize.normalize(a, b)
    return dumptree.render(a) == dumptree.render(b)


def main():
    typed_x = '  input "X"\n    type tensor\n      elem_type 1 FLOAT\n      shape 1\n        dim value 2\n'
    untyped_x = '  input "X"\n    type none\n'
    assert typed_x in ONNX and typed_x in ORT
    cases = [
        ("what ONNX Runtime does is explained", ONNX, ORT, True),
        ("an untyped input given its inferred type is explained", ONNX.replace(typed_x, untyped_x), ORT, True),
        ("a typed input made untyped fails", ONNX, ORT.replace(typed_x, untyped_x), False),
        ("a different initializer hash fails", ONNX, ORT.replace("sha256 7c9f", "sha256 7c9e"), False),
        ("a different input type fails", ONNX, ORT.replace("elem_type 1 FLOAT", "elem_type 10 FLOAT16", 1), False),
        ("a dropped node fails", ONNX, ORT.replace('    op_type "Add"', '    op_type "Sub"'), False),
        ("a changed producer fails", ONNX, ORT.replace('producer_name "p"', 'producer_name "q"'), False),
        ("a different declared opset version fails", ONNX, ORT.replace('opset_import "" 17', 'opset_import "" 18'), False),
        ("a used initializer may not vanish", ONNX.replace('input "C"', 'input "unused"'),
         ORT.replace('input "C"', 'input "unused"'), False),
        ("a missing attribute of the .onnx fails", ONNX.replace('    output "Y"\n', '    output "Y"\n    attribute "k"\n'
                                                                  '      attr_type 2 INT declared\n      i 3\n', 1),
         ORT, False),
    ]
    bad = 0
    for name, a, b, expected in cases:
        got = verdict(a, b)
        print("%s: %s" % ("ok" if got == expected else "WRONG", name))
        bad += got != expected
    print("%d passed, %d failed" % (len(cases) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
