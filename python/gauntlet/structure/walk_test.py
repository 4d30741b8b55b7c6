"""The structure rules' walk: build, dot, npm and cache folders are pruned, a folder removed while the
walk runs is skipped (a glob raised FileNotFoundError there), and the rest is found."""
import os
import pathlib
import tempfile
import unittest

from gauntlet.structure import walk


class Walk(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def plant(self, *rels):
        for rel in rels:
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text("x\n")

    def found(self, suffixes):
        return [str(p.relative_to(self.root)) for p in walk.files(self.root, suffixes)]

    def test_pruned_folders_are_not_walked(self):
        self.plant("build/a.py", "build-asan/b.cpp", ".git/c.py", "python/__pycache__/d.py",
                   "tools/node_modules/e.py", "python/gauntlet/build_rows.py", "importer/src/f.cpp", "x.hpp")
        self.assertEqual(self.found((".py",)), ["python/gauntlet/build_rows.py"])
        self.assertEqual(self.found((".cpp", ".hpp")), ["importer/src/f.cpp", "x.hpp"])

    def test_a_folder_removed_during_the_walk_is_skipped(self):
        self.plant("a/keep.py", "b/gone/lost.py")
        real_walk = os.walk

        def walk_removing(top, *args, **kwargs):  # the folder goes after its parent was listed
            for here, subfolders, names in real_walk(top, *args, **kwargs):
                yield here, subfolders, names
                if here.endswith("/b"):
                    (self.root / "b" / "gone" / "lost.py").unlink()
                    (self.root / "b" / "gone").rmdir()
        walk.os.walk = walk_removing
        try:
            self.assertEqual(self.found((".py",)), ["a/keep.py"])
        finally:
            walk.os.walk = real_walk


if __name__ == "__main__":
    unittest.main()
