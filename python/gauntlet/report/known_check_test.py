"""A peer's valid-model differences are judged against its list only on the data set the list was
written on; on another one (the backend data a machine without the shared set generates) they are
shown, not judged. Our importer's are judged on every data set."""
import os
import shutil
import tempfile
import unittest

from gauntlet.report import known_check


class UnlistedDataSets(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="known-check-test-")
        self.addCleanup(shutil.rmtree, self.dir)
        for peer in ("opencv", "onnximport"):
            with open(os.path.join(self.dir, peer + ".txt"), "w", encoding="utf-8") as f:
                f.write("backend-1.23/node/test_dft  # refused: x\nhostile-case.onnx  # accepted\n")

    def status(self, imp, deviations, ran):
        return known_check.list_status(imp, [], deviations, set(ran), self.dir)

    def test_a_peer_on_another_data_set_is_shown_not_judged(self):
        k = self.status("opencv", {"backend-data-1.12.0/node/test_dft": "refused: x", "hostile-case.onnx": "accepted"},
                        ["backend-data-1.12.0/node/test_dft", "hostile-case.onnx"])
        self.assertEqual((k["stale"], k["new"]), ([], []))

    def test_a_peer_on_its_own_data_set_is_judged(self):
        k = self.status("opencv", {"backend-1.23/node/test_gather_0": "refused: y", "hostile-case.onnx": "accepted"},
                        ["backend-1.23/node/test_gather_0", "backend-1.23/node/test_dft", "hostile-case.onnx"])
        self.assertEqual(k["new"], ["backend-1.23/node/test_gather_0  # refused: y"])
        self.assertEqual(k["stale"], ["backend-1.23/node/test_dft  # refused: x"])

    def test_our_importer_is_judged_on_every_data_set(self):
        k = self.status("onnximport", {"backend-data-1.12.0/node/test_abs": "refused: z", "hostile-case.onnx": "accepted"},
                        ["backend-data-1.12.0/node/test_abs", "hostile-case.onnx"])
        self.assertEqual(k["new"], ["backend-data-1.12.0/node/test_abs  # refused: z"])


if __name__ == "__main__":
    unittest.main()
