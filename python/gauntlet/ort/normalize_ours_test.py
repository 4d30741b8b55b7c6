"""The round-trip comparison can fail: normalize_ours.py explains only what our .ort
writer's format forces, and any other difference between two dumps stays a failure.
Run by ctest (ort_roundtrip_can_fail); exit 1 on the first wrong verdict."""
import sys

from gauntlet.ort import dumptree
from gauntlet.ort import normalize_ours

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
    name "W"
    data_type 1 FLOAT
    dims 2
    data_location 0
    source typed
    bytes 8
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
    attribute "axis"
      attr_type 2 INT inferred
      i 0
training_info 0
functions 0
"""

# What our writer makes of it: no graph name, W raw, C an initializer, NodeArgs as value_info.
ORT = ONNX.replace('  name "g"', '  name ""').replace("source typed", "source raw").replace(
    "INT inferred", "INT declared").replace('''  node 0
    name ""
    op_type "Constant"
    domain ""
    output "C"
    attribute "value_int"
      attr_type 2 INT declared
      i 1
  node 1''', '''  value_info "C"
    type tensor
      elem_type 7 INT64
      shape 0
  initializer
    name "C"
    data_type 7 INT64
    dims
    data_location 0
    source raw
    bytes 8
    sha256 7c9fa136d4413fa6173637e883b6998d32e1d675f88cddff9dcbcf331820f4b8
  node 0''')

UNTYPED_Y = ('  output "Y"\n    type tensor\n      elem_type 1 FLOAT\n      shape 1\n        dim value 2\n',
             '  output "Y"\n    type none\n')

# A CastLike of X like W (FLOAT) that our writer wrote as Cast to 1 (castlike-as-cast).
CASTLIKE_ONNX = ONNX.replace('op_type "Add"', 'op_type "CastLike"').replace('    input "C"\n', '    input "W"\n')
CASTLIKE_ORT = ORT.replace('    op_type "Add"\n    domain ""\n    input "X"\n    input "C"\n',
                           '    op_type "Cast"\n    domain ""\n    input "X"\n').replace(
    '      attr_type 2 INT declared\n      i 0\n',
    '      attr_type 2 INT declared\n      i 0\n    attribute "to"\n      attr_type 2 INT declared\n      i 1\n')

CHANGES = {
    "a changed hash": ('sha256 aa', 'sha256 ab'),
    "a changed element type": ('elem_type 1 FLOAT\n      shape 1\n        dim value 2\n  output',
                               'elem_type 10 FLOAT16\n      shape 1\n        dim value 2\n  output'),
    "a changed op type": ('op_type "Add"', 'op_type "Sub"'),
    "a changed attribute value": ('      i 0\n', '      i 1\n'),
    "a vanished initializer": ('  initializer\n    name "W"\n    data_type 1 FLOAT\n    dims 2\n    data_location 0\n'
                               '    source raw\n    bytes 8\n    sha256 aa\n', ''),
    "a changed producer": ('producer_name "p"', 'producer_name "q"'),
    "a changed Constant value": ('sha256 7c9f', 'sha256 7c9e'),
}


def verdict(onnx_text, ort_text):
    a, b = dumptree.parse(onnx_text), dumptree.parse(ort_text)
    normalize_ours.normalize(a, b)
    return dumptree.render(a) == dumptree.render(b)


def main():
    failures = 0
    if not verdict(ONNX, ORT):
        print("FAIL: the writer's own normalizations are not all explained")
        failures += 1
    # An output the .onnx leaves untyped reads back with its inferred type (untyped-io-inferred).
    untyped_y = ONNX.replace(UNTYPED_Y[0], UNTYPED_Y[1])
    assert untyped_y != ONNX
    if not verdict(untyped_y, ORT):
        print("FAIL: the inferred type of an untyped output is not explained")
        failures += 1
    for what, (old, new) in CHANGES.items():
        assert old in ORT, what
        if verdict(ONNX, ORT.replace(old, new, 1)):
            print("FAIL: %s passed the comparison" % what)
            failures += 1
    assert CASTLIKE_ONNX != ONNX and 'op_type "Cast"' in CASTLIKE_ORT and 'attribute "to"' in CASTLIKE_ORT
    if not verdict(CASTLIKE_ONNX, CASTLIKE_ORT):
        print("FAIL: a CastLike written as its Cast is not explained")
        failures += 1
    if verdict(CASTLIKE_ONNX, CASTLIKE_ORT.replace("      i 1\n", "      i 7\n")):
        print("FAIL: a Cast to another type than target_type's passed the comparison")
        failures += 1
    print("%d passed, %d failed" % (len(CHANGES) + 4 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
