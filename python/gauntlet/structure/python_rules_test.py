"""The Python structure rules fail on each planted violation, and pass on a clean tree."""
import pathlib
import tempfile
import textwrap
import unittest

from gauntlet.structure import python_rules

CLEAN = '''"""A module of the package."""
from gauntlet import settings


def build():
    return settings.build_dir()
'''


class PlantedViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        (self.root / "python" / "gauntlet").mkdir(parents=True)
        self.plant("python/gauntlet/clean.py", CLEAN)

    def tearDown(self):
        self.tmp.cleanup()

    def plant(self, rel, text):
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))

    def problems(self):
        return python_rules.problems(self.root)

    def test_a_clean_tree_passes(self):
        self.assertEqual(self.problems(), [])

    def test_a_search_path_edit_fails(self):
        # Spelled in parts, so that a grep of the repository for the edit finds nothing.
        for edit in (".insert(0, 'tools')", ".append('tools')", " += ['tools']", " = ['tools']"):
            self.plant("tools/script.py", "import sys\nsys" + ".path" + edit + "\n")
            self.assertEqual(self.problems(), ["tools/script.py edits the module search path"], edit)

    def test_a_test_module_no_cmake_file_registers_fails(self):
        self.plant("python/gauntlet/bench/rows_test.py", CLEAN)
        self.assertEqual(self.problems(),
                         ["python/gauntlet/bench/rows_test.py runs in no CTest test (gauntlet test bench.rows_test)"])

    def test_a_test_module_registered_alone_or_in_a_foreach_passes(self):
        self.plant("python/gauntlet/bench/rows_test.py", CLEAN)
        self.plant("python/gauntlet/bench/plot_test.py", CLEAN)
        self.plant("python/gauntlet/gauntlet_test.py", CLEAN)
        self.plant("harness/CMakeLists.txt", """
            gauntlet_add_test(gauntlet test gauntlet_test)
            foreach(t plot rows)
              gauntlet_add_test(bench_${t} test bench.${t}_test)
            endforeach()
            """)
        self.assertEqual(self.problems(), [])

    def test_reading_the_search_path_passes(self):
        self.plant("tools/script.py", "import sys\nprint(sys" + ".path[0])\n")
        self.assertEqual(self.problems(), [])

    def test_a_second_root_and_interpreter_fail(self):
        self.plant("python/gauntlet/x.py", "ROOT = '.'\nPY = '" + "/usr/bin/" + "python3'\n")
        found = self.problems()
        self.assertEqual(len(found), 2, found)
        self.assertIn("assigns ROOT", found[0])
        self.assertIn("writes the interpreter's path", found[1])

    def test_a_second_backend_resolver_fails(self):
        self.plant("python/gauntlet/x.py", "def backend" "_data(build):\n    return build\n")
        self.assertIn("resolves the backend data", self.problems()[0])

    def test_a_long_function_and_a_long_module_fail(self):
        body = "".join("    x%d = %d\n" % (i, i) for i in range(60))
        self.plant("python/gauntlet/long.py", "def f():\n" + body + "\n" * 400)
        found = self.problems()
        self.assertEqual(len(found), 2, found)
        self.assertIn("long.py has 461 lines", found[0])
        self.assertIn("f has 61 lines", found[1])


    def test_sizes_at_their_limits_pass(self):
        body = "".join("    x%d = %d\n" % (i, i) for i in range(59))
        self.plant("python/gauntlet/edge.py", "def f():\n" + body + "\n" * (400 - 60))
        self.assertEqual(self.problems(), [])
