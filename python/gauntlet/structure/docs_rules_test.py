"""The prose rules fail on each planted violation, and pass on a clean tree."""
import json
import pathlib
import tempfile
import unittest

from gauntlet.structure import docs_rules

README = """# A project

`hostile/corpus/` holds {committed} generated cases, named by kind; `manifest.json` lists {listed}, with
each file's expected outcome.
"""


class PlantedViolations(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        cases = [{"file": "accept-a.onnx"}, {"file": "malformed-b.onnx"},
                 {"file": "io-fifo.onnx", "generated_only": True}]
        (self.root / "hostile" / "corpus").mkdir(parents=True)
        (self.root / "hostile" / "corpus" / "manifest.json").write_text(json.dumps({"cases": cases}))
        (self.root / "docs").mkdir()
        self.readme(2, 3)

    def tearDown(self):
        self.tmp.cleanup()

    def readme(self, committed, listed):
        (self.root / "README.md").write_text(README.format(committed=committed, listed=listed))

    def test_a_clean_tree_passes(self):
        self.assertEqual(docs_rules.problems(self.root), [])

    def test_pages_in_build_dot_and_npm_folders_are_not_pages(self):
        for rel in ("build-x/x.md", ".git/y.md", "docs/node_modules/z.md", "docs/a.md"):
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text("# page\n")
        found = [str(p.relative_to(self.root)) for p in docs_rules.markdown_files(self.root)]
        self.assertEqual(found, ["README.md", "docs/a.md"])

    def test_a_stale_count_of_committed_cases_fails(self):
        self.readme(435, 3)
        self.assertEqual(docs_rules.problems(self.root),
                         ["README.md says hostile/corpus/ holds 435 cases; the manifest commits 2"])

    def test_a_stale_count_of_listed_cases_fails(self):
        self.readme(2, 2)
        self.assertEqual(docs_rules.problems(self.root), ["README.md says the manifest lists 2 cases; it lists 3"])

    def test_a_readme_without_the_figures_fails(self):
        (self.root / "README.md").write_text("# A project\n")
        self.assertEqual(len(docs_rules.problems(self.root)), 1)

    def test_a_machine_path_in_a_page_fails(self):
        (self.root / "docs" / "speed.md").write_text("Run `bench --old /work/wt-old/bin/bench`.\n")
        self.assertEqual(docs_rules.problems(self.root), ["docs/speed.md:1 names a machine path, /work/wt-old"])

    def test_paths_inside_the_repository_and_build_folders_pass(self):
        (self.root / "docs" / "speed.md").write_text("Run `build/bin/bench` on `/usr/include/onnx/onnx.proto`.\n")
        (self.root / "build").mkdir()
        (self.root / "build" / "npm.md").write_text("/home/me/x\n")
        self.assertEqual(docs_rules.problems(self.root), [])


if __name__ == "__main__":
    unittest.main()
