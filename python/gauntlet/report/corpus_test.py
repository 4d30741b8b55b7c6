"""The matrix's copy of the corpus (corpus.copy_corpus) keeps what the cases are made of: a
FIFO stays a FIFO (copying its contents would block), a link stays a link, and a sparse file
stays sparse (the generated corpus holds 2 GiB cases that are almost all hole).

usage: python3 -m gauntlet test report.corpus_test   (ctest matrix_corpus_copy)
"""
import os
import stat
import tempfile
import unittest

from gauntlet.report.corpus import copy_corpus


class CopyCorpus(unittest.TestCase):
    def test_fifos_links_and_holes_are_kept(self):
        with tempfile.TemporaryDirectory() as folder:
            src = os.path.join(folder, "src")
            os.mkdir(src)
            os.mkfifo(os.path.join(src, "fifo.bin"))
            os.symlink("../outside.bin", os.path.join(src, "link.bin"))
            with open(os.path.join(src, "sparse.onnx"), "wb") as f:
                f.truncate(1 << 30)
            dst = os.path.join(folder, "work", "corpus")
            copy_corpus(src, dst)
            self.assertTrue(stat.S_ISFIFO(os.lstat(os.path.join(dst, "fifo.bin")).st_mode))
            self.assertEqual(os.readlink(os.path.join(dst, "link.bin")), "../outside.bin")
            copied = os.stat(os.path.join(dst, "sparse.onnx"))
            self.assertEqual(copied.st_size, 1 << 30)
            self.assertLess(copied.st_blocks * 512, 1 << 20, "the hole was written out")


if __name__ == "__main__":
    unittest.main()
