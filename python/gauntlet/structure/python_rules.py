"""The structure rules of the harness's Python (docs/harness.md, "Structure rules"):

- no edit of the module search path (sys's path list, found in the syntax tree): modules
  import each other as the package gauntlet;
- no module over MAX_MODULE_LINES lines and no function over MAX_FUNCTION_LINES;
- one definition of the settings: ROOT and PYTHON are assigned, the interpreter's path
  written and the backend data resolved (the shared data set's name) in settings.py alone;
- every test module (`*_test.py` of the package) runs in `make test`: a CMakeLists.txt
  registers it as `gauntlet test MODULE` (CTest finds no Python test by itself).

No module or function is excused: a size over its limit is split, not listed.
"""
import ast
import pathlib
import re

from gauntlet.structure import walk

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
SETTINGS = "python/gauntlet/settings.py"
THIS = "python/gauntlet/structure/python_rules.py"  # names the patterns it looks for
SINGLE_DEFINITIONS = (
    (re.compile(r"^\s*ROOT\s*=", re.M), "assigns ROOT"),
    (re.compile(r"^\s*PYTHON\s*=", re.M), "assigns PYTHON"),
    (re.compile(r"/usr/bin/python3"), "writes the interpreter's path"),
    (re.compile(r"onnx-backend-1\.23"), "names the shared backend data"),
    (re.compile(r"def backend_data\b"), "resolves the backend data"),
)


PACKAGE = ("python", "gauntlet")
# `gauntlet_add_test(NAME test MODULE ...)`, and the same in a foreach over a list of names.
REGISTERED = re.compile(r"\btest\s+([\w.]+_test)\b")
FOREACH = re.compile(r"foreach\(\s*(\w+)\s+([^)]*)\)(.*?)endforeach", re.S)


def python_files(root):
    """Every Python file of the repository that git would see (walk.py prunes build folders)."""
    return walk.files(root, (".py",))


def _is_search_path(node):
    """The attribute `path` of the name `sys` (a grep of the tree for the dotted name then finds nothing)."""
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def edits_search_path(tree):
    """A call of the list's insert, append or extend, or an assignment to it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("insert", "append", "extend") and _is_search_path(node.func.value):
                return True
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, (ast.Assign, ast.AugAssign)) and any(_is_search_path(t) for t in targets):
            return True
    return False


def long_functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                yield node.name, node.lineno, lines


def size_problems(rel, text, tree):
    """A message for each size over its limit in one module."""
    n = len(text.splitlines())
    if n > MAX_MODULE_LINES:
        yield f"{rel} has {n} lines (at most {MAX_MODULE_LINES})"
    for name, line, lines in long_functions(tree):
        yield f"{rel}:{line} {name} has {lines} lines (at most {MAX_FUNCTION_LINES})"


def registered_tests(root):
    """The test modules the CMakeLists.txt files register, a foreach's list expanded."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in walk.files(root, ("CMakeLists.txt",)))
    found = set(REGISTERED.findall(text))
    for var, names, body in FOREACH.findall(text):
        pattern = re.compile(r"\btest\s+([\w.]*\$\{" + var + r"\}[\w.]*)")
        found |= {t.replace("${" + var + "}", n) for t in pattern.findall(body) for n in names.split()}
    return found


def unregistered_tests(root):
    """A message for each test module of the package that no CMakeLists.txt registers."""
    registered = registered_tests(root)
    package = root.joinpath(*PACKAGE)
    for path in walk.files(package, ("_test.py",)):
        module = ".".join(path.relative_to(package).with_suffix("").parts)
        if module not in registered:
            yield f"{path.relative_to(root).as_posix()} runs in no CTest test (gauntlet test {module})"


def problems(root):
    """Every broken rule under root, one message each."""
    root = pathlib.Path(root)
    found = []
    for path in python_files(root):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, rel)
        if edits_search_path(tree):
            found.append(f"{rel} edits the module search path")
        if rel not in (SETTINGS, THIS):
            found += [f"{rel} {what} (only {SETTINGS} does)" for pattern, what in SINGLE_DEFINITIONS
                      if pattern.search(text)]
        found += size_problems(rel, text, tree)
    return found + list(unregistered_tests(root))
