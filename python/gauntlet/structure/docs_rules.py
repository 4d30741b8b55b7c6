"""Rules for the repository's prose: a figure the README states about the committed data
is the data's (a test keeps it current, so it cannot drift), and no page names a path of
the machine that measured something (a reader's clone is elsewhere)."""
import json
import re

from gauntlet.structure import walk

# Absolute paths that only exist on one machine: worktrees, home folders.
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|root|Users)/[\w.-]+")
HOSTILE_FIGURES = re.compile(r"`hostile/corpus/` holds (\d+) generated cases.*?`manifest\.json` lists (\d+)", re.S)


def markdown_files(tree):
    """Every page of the repository (walk.py prunes the folders that are not its pages)."""
    return walk.files(tree, (".md",))


def machine_paths(tree):
    problems = []
    for page in markdown_files(tree):
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            m = MACHINE_PATH.search(line)
            if m:
                problems.append(f"{page.relative_to(tree)}:{n} names a machine path, {m.group(0)}")
    return problems


def hostile_figures(tree):
    """The README's count of committed hostile cases and of the manifest's cases."""
    m = HOSTILE_FIGURES.search((tree / "README.md").read_text(encoding="utf-8"))
    if not m:
        return ["README.md no longer says how many cases hostile/corpus/ holds and its manifest lists"]
    with open(tree / "hostile" / "corpus" / "manifest.json", encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    committed = sum(1 for c in cases if not c.get("generated_only"))
    problems = []
    if int(m.group(1)) != committed:
        problems.append(f"README.md says hostile/corpus/ holds {m.group(1)} cases; the manifest commits {committed}")
    if int(m.group(2)) != len(cases):
        problems.append(f"README.md says the manifest lists {m.group(2)} cases; it lists {len(cases)}")
    return problems


def problems(tree):
    return machine_paths(tree) + hostile_figures(tree)
