"""The bitwise comparison of python/gauntlet/ort/ort_to_onnx.py can fail: outputs as run_models.js hands
them back that differ in a single bit, a name, a type, a shape or a count are told apart.

usage: python3 -m gauntlet test ort.ort_to_onnx_test   (ctest ort_to_onnx_compare)
"""
import unittest

import numpy as np

from gauntlet.ort import test_data
from gauntlet.ort.ort_to_onnx import difference

F32, F16, STR = 1, 10, 8


def output(name, elem_type, array):
    return dict(test_data.encode(elem_type, np.asarray(array)), name=name)


class Bitwise(unittest.TestCase):
    def test_equal_outputs_pass(self):
        a = [output("y", F32, np.array([1.5, np.nan, -np.inf], np.float32)), output("s", STR, np.array(["a"], object))]
        b = [output("y", F32, np.array([1.5, np.nan, -np.inf], np.float32)), output("s", STR, np.array(["a"], object))]
        self.assertIsNone(difference(a, b))

    def test_one_ulp_negative_zero_and_a_nan_payload_differ(self):
        one = np.array([1.0, 2.0], np.float32)
        ulp = one.copy()
        ulp[1] = np.nextafter(ulp[1], np.float32(3))
        self.assertIn("1 of 2 elements differ; first at [1]", difference([output("y", F32, one)], [output("y", F32, ulp)]))
        self.assertIn("first at [0]", difference([output("y", F32, np.zeros(1, np.float32))],
                                                 [output("y", F32, -np.zeros(1, np.float32))]))
        quiet = np.array([0x7E00], np.uint16).view(np.float16)
        other = np.array([0x7E01], np.uint16).view(np.float16)
        self.assertIn("1 of 1 elements differ", difference([output("h", F16, quiet)], [output("h", F16, other)]))

    def test_names_types_shapes_strings_and_counts_differ(self):
        z = np.zeros((2, 1), np.float32)
        self.assertIn("name y, the .ort's x", difference([output("x", F32, z)], [output("y", F32, z)]))
        self.assertIn("type float16", difference([output("x", F32, z)], [output("x", F16, z.astype(np.float16))]))
        self.assertIn("dims [1, 2]", difference([output("x", F32, z)], [output("x", F32, z.reshape(1, 2))]))
        s = [output("s", STR, np.array(["a", "é"], object))]
        self.assertIn("first at [1]", difference(s, [output("s", STR, np.array(["a", "e"], object))]))
        self.assertIn("1 outputs, the .ort's run 2", difference([output("x", F32, z)] * 2, [output("x", F32, z)]))


if __name__ == "__main__":
    unittest.main()
