"""A .ort of a 200,000-node chain imports, written by ONNX Runtime and by our writer.

usage: python3 -m gauntlet test ort.chain_test   (ctest ort_chain_200k; BUILD names the build)

Both files are beyond the table limit of ONNX Runtime's own loader (1,000,000 tables, some
seven per node; docs/ort.md, "No cap of ours"): ONNX Runtime writes its file and then refuses to
load it, our writer writes its file and says so, and our reader imports both whole, every node
in order. ONNX Runtime's half is skipped (exit 77 when nothing failed) without node or the
npm peer (tools/install_peer.sh).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import onnx
from onnx import TensorProto, helper

from gauntlet import settings
from gauntlet.ort import peer
from gauntlet.ort.write_all import write_all

NODES = 200000


def chain_model(path, n):
    """v0 -> Relu -> v1 -> ... -> v<n>, float[4]."""
    nodes = [helper.make_node("Relu", ["v%d" % i], ["v%d" % (i + 1)]) for i in range(n)]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("v0", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("v%d" % n, TensorProto.FLOAT, [4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


class Chain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cli = os.path.join(settings.build_dir(), "bin", "onnximport")
        cls.root = tempfile.mkdtemp(prefix="onnx-gauntlet-chain-")
        cls.onnx = os.path.join(cls.root, "chain.onnx")
        chain_model(cls.onnx, NODES)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def imports_whole(self, path):
        """Our reader imports `path` with its defaults, every node of the chain in order."""
        check = subprocess.run([self.cli, "check", path], capture_output=True, text=True, timeout=600)
        self.assertEqual(check.stdout, "%s\tok\n" % path, check.stderr)
        dump = subprocess.run([self.cli, "dump", path], capture_output=True, text=True, timeout=600, check=True)
        lines = dump.stdout.splitlines()
        self.assertEqual(sum(1 for line in lines if line.startswith("  node ")), NODES)
        self.assertIn('  output "v%d"' % NODES, lines)
        self.assertEqual(lines.index('    input "v%d"' % (NODES - 1)) + 1, lines.index('    output "v%d"' % NODES))

    def test_the_file_onnx_runtime_writes_imports(self):
        module = peer.module()
        if peer.missing(module):
            self.skipTest(peer.missing(module))
        ort = os.path.join(self.root, "onnxruntime.ort")
        errors, version = write_all(module, [("chain", self.onnx, ort)], timeout=900)
        self.assertIsNone(errors["chain"], "ONNX Runtime %s did not write the .ort" % version)
        self.imports_whole(ort)
        # What ONNX Runtime answers when given its own file back (its loader's table limit).
        again, _ = write_all(module, [("reload", ort, os.path.join(self.root, "again.ort"))], timeout=900)
        print("ONNX Runtime %s on its own %d-node .ort (%d bytes): %s"
              % (version, NODES, os.path.getsize(ort), again["reload"] or "loaded"))

    def test_the_file_our_writer_writes_imports(self):
        ours = os.path.join(self.root, "ours.ort")
        convert = subprocess.run([self.cli, "convert", self.onnx, ours], capture_output=True, text=True, timeout=600)
        self.assertEqual(convert.returncode, 0, convert.stderr)
        self.assertIn("more than 1,000,000 tables", convert.stderr)  # written although ONNX Runtime will refuse it
        self.imports_whole(ours)


def cases(argv):
    """Run only when named (a minute of ONNX Runtime's time), never by a bare `gauntlet test`."""
    if argv:
        raise SystemExit(__doc__)
    return unittest.defaultTestLoader.loadTestsFromTestCase(Chain)
