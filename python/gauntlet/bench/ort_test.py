"""A .ort twin is written again when the model or the program that wrote it is newer."""
import os
import tempfile
import unittest

from gauntlet.bench import ort


class Fresh(unittest.TestCase):
    def test_a_twin_older_than_its_model_or_its_writer_is_stale(self):
        with tempfile.TemporaryDirectory() as d:
            model, cli, twin = (os.path.join(d, n) for n in ("m.onnx", "onnximport", "m.ort"))
            self.assertFalse(ort.fresh(twin, model))  # not written yet
            for path, mtime in ((model, 100), (cli, 200), (twin, 150)):
                open(path, "w").close()
                os.utime(path, (mtime, mtime))
            self.assertTrue(ort.fresh(twin, model))
            self.assertFalse(ort.fresh(twin, model, cli))  # the writer changed since
            os.utime(twin, (200, 200))
            self.assertTrue(ort.fresh(twin, model, cli))


if __name__ == "__main__":
    unittest.main()
