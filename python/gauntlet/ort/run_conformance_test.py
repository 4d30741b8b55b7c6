"""The ONNX Runtime run (run_conformance.py) can fail.

usage: python3 -m gauntlet test ort.run_conformance_test compare   the comparison and the tensor conversions alone
       python3 -m gauntlet test ort.run_conformance_test runner    the whole runner on small models made here, one
                                         with a planted wrong expected output (exit 77,
                                         a skip, without node or the npm peer)
Run by ctest (ort_run_compare, ort_run_can_fail).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
from gauntlet import settings
from gauntlet.ort import peer
from gauntlet.ort import test_data
from gauntlet.ort.compare import compare

F32, F16, BOOL, STR, I64 = 1, 10, 9, 8, 7


class Compare(unittest.TestCase):
    def test_within_and_beyond_the_tolerance(self):
        e = np.array([1.0, 100.0, 0.0], dtype=np.float32)
        self.assertIsNone(compare([(F32, e)], [(F32, e * np.float32(1.0009))]))
        diff = compare([(F32, e)], [(F32, np.array([1.0, 100.2, 0.0], dtype=np.float32))])
        self.assertIn("1 of 3 elements differ; first at [1]", diff)
        self.assertIn("expected 100.0", diff)
        self.assertIsNotNone(compare([(F32, e)], [(F32, np.array([1.0, 100.0, 1e-6], dtype=np.float32))]))

    def test_nan_inf_and_the_lowest_float(self):
        e = np.array([np.nan, -np.inf], dtype=np.float32)
        self.assertIsNone(compare([(F32, e)], [(F32, e.copy())]))
        self.assertIn("first at [0]", compare([(F32, e)], [(F32, np.array([1, -np.inf], dtype=np.float32))]))
        lowest = np.array([np.nan, np.finfo(np.float32).min], dtype=np.float32)
        self.assertIn("first at [1]", compare([(F32, e)], [(F32, lowest)]))

    def test_float16_is_compared_in_float64(self):
        e = np.array([2048.0], dtype=np.float16)
        self.assertIsNone(compare([(F16, e)], [(F16, np.array([2050.0], dtype=np.float16))]))  # 1e-3 of 2048
        self.assertIsNotNone(compare([(F16, e)], [(F16, np.array([2052.0], dtype=np.float16))]))

    def test_exact_kinds_shapes_types_and_counts(self):
        b = np.array([[True, False]])
        self.assertIsNone(compare([(BOOL, b)], [(BOOL, b.copy())]))
        self.assertIn("first at [0, 1]", compare([(BOOL, b)], [(BOOL, np.array([[True, True]]))]))
        s = np.array(["a", "é"], dtype=object)
        self.assertIn("first at [1]", compare([(STR, s)], [(STR, np.array(["a", "e"], dtype=object))]))
        self.assertIn("shape [2, 1]", compare([(BOOL, b)], [(BOOL, b.reshape(2, 1))]))
        zeros = np.zeros(1, np.float32)
        self.assertIn("element type FLOAT16, expected FLOAT", compare([(F32, zeros)], [(F16, zeros.astype(np.float16))]))
        self.assertIn("1 outputs, expected 2", compare([(BOOL, b)] * 2, [(BOOL, b)]))


class Tensors(unittest.TestCase):
    def round_trip(self, elem_type, array):
        request = test_data.encode(elem_type, array)
        got_type, got = test_data.decode(dict(request, name="y"))
        self.assertEqual(got_type, elem_type)
        self.assertEqual(got.dtype, array.dtype)
        self.assertEqual(got.shape, array.shape)
        return got

    def test_bits_survive(self):
        halves = np.array([[1.5, -0.0, 65504.0], [np.inf, 6e-8, 0.1]], dtype=np.float16)
        got = self.round_trip(F16, halves)
        self.assertEqual(got.view(np.uint16).tolist(), halves.view(np.uint16).tolist())
        self.assertEqual(self.round_trip(I64, np.array([-2**63, 2**62], dtype=np.int64)).tolist(), [-2**63, 2**62])
        self.assertEqual(self.round_trip(BOOL, np.array([True, False, True])).tolist(), [True, False, True])
        self.assertEqual(self.round_trip(STR, np.array(["x", "ü"], dtype=object)).tolist(), ["x", "ü"])
        self.assertEqual(self.round_trip(F32, np.zeros((0, 3), np.float32)).shape, (0, 3))

    def test_typed_and_raw_float16_read_alike(self):
        values = np.array([0.5, -2.0, 1e-4], dtype=np.float16)
        typed = onnx.TensorProto(data_type=F16, dims=[3], int32_data=values.view(np.uint16).tolist())
        raw = numpy_helper.from_array(values, "x")
        for t in (typed, raw):
            elem_type, array = test_data.tensor_array(t)
            self.assertEqual(elem_type, F16)
            self.assertEqual(array.view(np.uint16).tolist(), values.view(np.uint16).tolist())

    def test_types_the_node_api_lacks_are_not_comparable(self):
        t = onnx.TensorProto(data_type=16, dims=[1], raw_data=b"\0\0")  # BFLOAT16
        with self.assertRaisesRegex(test_data.NotComparable, "BFLOAT16"):
            test_data.tensor_array(t)


def write_case(root, rel, graph_nodes, inputs, outputs, feeds, expected, initializers=()):
    """A backend-test-like folder: model.onnx and test_data_set_0/{input,output}_<i>.pb."""
    folder = os.path.join(root, rel)
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    graph = helper.make_graph(graph_nodes, "g", inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.save(model, os.path.join(folder, "model.onnx"))
    for kind, arrays in (("input", feeds), ("output", expected)):
        for i, a in enumerate(arrays):
            with open(os.path.join(folder, "test_data_set_0", "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(numpy_helper.from_array(a).SerializeToString())


def make_cases(root):
    info = helper.make_tensor_value_info
    x = np.array([[-1.5, 2.0], [0.25, -8.0]], dtype=np.float32)
    write_case(root, "node/test_abs", [helper.make_node("Abs", ["x"], ["y"])],
               [info("x", F32, [2, 2])], [info("y", F32, [2, 2])], [x], [np.abs(x)])
    write_case(root, "node/test_cast_half", [helper.make_node("Cast", ["x"], ["y"], to=F16)],
               [info("x", F32, [2, 2])], [info("y", F16, [2, 2])], [x], [x.astype(np.float16)])
    a, b = np.array([True, False, True]), np.array([True, True, False])
    write_case(root, "node/test_and", [helper.make_node("And", ["a", "b"], ["y"])],
               [info("a", BOOL, [3]), info("b", BOOL, [3])], [info("y", BOOL, [3])], [a, b], [a & b])
    s = np.array(["ab", "ü"], dtype=object)
    write_case(root, "node/test_identity_string", [helper.make_node("Identity", ["x"], ["y"])],
               [info("x", STR, [2])], [info("y", STR, [2])], [s], [s])
    unknown = helper.make_node("NoSuchOperator", ["x"], ["y"], domain="org.onnx-gauntlet.absent")
    write_case(root, "node/test_unknown_operator", [unknown],
               [info("x", F32, [2, 2])], [info("y", F32, [2, 2])], [x], [x])
    w = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    write_case(root, "node/test_add_weight", [helper.make_node("Add", ["x", "w"], ["y"])],
               [info("x", F32, [2, 2])], [info("y", F32, [2, 2])], [x], [x + w],
               initializers=[numpy_helper.from_array(w, "w")])
    wrong = np.abs(x)
    wrong[1, 0] = 0.26  # planted: 0.25 is right
    write_case(root, "node/test_abs_planted", [helper.make_node("Abs", ["x"], ["y"])],
               [info("x", F32, [2, 2])], [info("y", F32, [2, 2])], [x], [wrong])


class Runner(unittest.TestCase):
    """The whole driver over the cases above, ONNX Runtime included."""

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="ort-run-test-")
        cls.data = os.path.join(cls.root, "data")
        make_cases(cls.data)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def run_driver(self, *extra, known_lines=""):
        known = os.path.join(self.root, "known.txt")
        with open(known, "w", encoding="utf-8") as f:
            f.write(known_lines)
        out = os.path.join(self.root, "out")
        proc = subprocess.run(settings.module_argv("gauntlet.ort.run_conformance", sys.executable) + ["--known", known,
                               "--out", out, *extra, self.data], capture_output=True, text=True, timeout=300)
        with open(os.path.join(out, "table.tsv"), encoding="utf-8") as f:
            table = {r[0]: r[1:] for r in (line.rstrip("\n").split("\t") for line in f)}
        return proc, table

    def test_a_planted_difference_fails_and_the_rest_pass(self):
        proc, table = self.run_driver()
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual(table["node/test_abs_planted"][0], "failed")
        self.assertIn("first at [1, 0]: got 0.25, expected 0.26", table["node/test_abs_planted"][1])
        for rel in ("node/test_abs", "node/test_cast_half", "node/test_and", "node/test_identity_string",
                    "node/test_add_weight"):
            self.assertEqual(table[rel], ["passed", ""], rel)
        self.assertEqual(table["node/test_unknown_operator"][0], "cannot-load")
        self.assertIn("NoSuchOperator", table["node/test_unknown_operator"][1])
        self.assertTrue(proc.stdout.rstrip().endswith("5 passed, 1 failed"), proc.stdout)

    def test_known_lines_and_stale_ones(self):
        proc, table = self.run_driver(known_lines="node/test_abs_planted  # planted\nnode/test_abs  # stale\n")
        self.assertEqual(table["node/test_abs_planted"][0], "known")
        self.assertEqual(table["node/test_abs"][0], "failed")
        self.assertIn("remove the line", table["node/test_abs"][1])
        self.assertEqual(proc.returncode, 1)

    def test_files_of_ours(self):
        ours = os.path.join(self.root, "ours")
        os.makedirs(os.path.join(ours, "node", "test_abs"))
        shutil.copy(os.path.join(self.data, "node", "test_abs", "model.onnx"), os.path.join(ours, "node", "test_abs"))
        os.makedirs(os.path.join(ours, "node", "test_and"))
        with open(os.path.join(ours, "node", "test_and", "model.onnx"), "wb") as f:
            f.write(b"not a model")
        _proc, table = self.run_driver("--models-from", ours)
        self.assertEqual(table["node/test_abs"][0], "passed")
        self.assertEqual(table["node/test_and"][0], "failed")
        self.assertIn("ONNX Runtime runs the original model.onnx, not this file", table["node/test_and"][1])
        self.assertEqual(table["node/test_cast_half"][0], "failed")
        self.assertIn("no file", table["node/test_cast_half"][1])
        self.assertIn("ONNX Runtime runs the original", table["node/test_cast_half"][1])
        # Missing where ONNX Runtime cannot run the original either: listed, not failed.
        self.assertEqual(table["node/test_unknown_operator"][0], "cannot-load")
        self.assertIn("(the original too: ", table["node/test_unknown_operator"][1])

    def test_our_external_ort_must_be_refused_for_its_external_data(self):
        cli = os.path.join(settings.build_dir(), "bin", "onnximport")
        if not os.access(cli, os.X_OK):
            self.skipTest("no %s to write external .ort files with (set BUILD)" % cli)
        ours = os.path.join(self.root, "ours-external")

        def convert(rel):
            os.makedirs(os.path.join(ours, rel))
            out = os.path.join(ours, rel, "model.ort")
            subprocess.run([cli, "convert", os.path.join(self.data, rel, "model.onnx"), out,
                            "--external-data", "model.ort.data", "--threshold", "0"], check=True)
            return out
        self.assertGreater(os.path.getsize(convert("node/test_add_weight") + ".data"), 0)
        self.assertFalse(os.path.exists(convert("node/test_abs") + ".data"))  # no tensor: an inline .ort
        convert("node/test_abs_planted")
        os.makedirs(os.path.join(ours, "node", "test_and"))
        with open(os.path.join(ours, "node", "test_and", "model.ort"), "wb") as f:
            f.write(b"not a model, though it holds the key onnximport.ort_external_data")
        _proc, table = self.run_driver("--models-from", ours, "--file", "model.ort", "--expect-refused")
        self.assertEqual(table["node/test_add_weight"][0], "passed")
        self.assertIn("refused: ", table["node/test_add_weight"][1])
        self.assertIn("external data", table["node/test_add_weight"][1])
        self.assertEqual(table["node/test_abs"], ["passed", ""])  # run as an inline .ort
        self.assertEqual(table["node/test_abs_planted"][0], "failed")  # and judged as one
        # Refused, but not for external data, where ONNX Runtime loads the original: failed.
        self.assertEqual(table["node/test_and"][0], "failed")
        self.assertIn("ONNX Runtime runs the original model.onnx, not this file", table["node/test_and"][1])


def cases(argv):
    """The suite `gauntlet test ort.run_conformance_test compare|runner` runs."""
    if len(argv) != 1 or argv[0] not in ("compare", "runner"):
        raise SystemExit(__doc__)
    if argv[0] == "runner":
        reason = peer.missing(peer.module())
        if reason:
            print("skipped: " + reason)
            raise SystemExit(77)
    classes = (Compare, Tensors) if argv[0] == "compare" else (Runner,)
    return unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c) for c in classes)
