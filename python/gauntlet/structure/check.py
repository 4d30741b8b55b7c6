"""The structural rules, checked on the source tree (`python3 -m gauntlet structure [TREE]`):

- layers include only the layers below them (importer/src/README.md), the readers implement
  no public API, and fuzz_wire builds from wire/ and core/ alone (layer_rules.py);
- the decode path never writes its input: no PROT_WRITE, no const_cast in importer/src;
- no process-wide state: no block cache in the public API, no atomics in importer/src;
- public headers are what a user reads: no Model::storage(), no testing/ folder;
- no function in importer/src over 60 lines (universal-ctags gives each one's extent);
- the README's Performance section stays under 250 words;
- a script's usage is its whole leading comment block, never a fixed line range of itself;
- no line of the C++ sources over 120 columns;
- builders name onnx.proto's fields by importer/schema/onnx_fields.hpp's enums: a WireWriter call takes a
  literal field number only above every number the header defines (field_rules.py);
- importer/src puts no name between quote characters by hand in a message: core/text.hpp quotes it,
  control bytes escaped (message_rules.py);
- the harness's Python: no edit of the module search path, modules of at most 400 lines and functions of at
  most 60, one definition of the settings, every test module registered with CTest (python_rules.py);
- the README's figures about the committed hostile corpus are the manifest's, and no page
  names a path of the measuring machine (docs_rules.py);
- every pointer into the docs resolves: pages, sections, links and rule IDs (pointer_rules.py).

Prints one line per broken rule and ends with 'N passed, N failed'."""
import pathlib
import re
import shutil
import subprocess
import sys

from gauntlet import settings
from gauntlet.structure import docs_rules, field_rules, layer_rules, message_rules, pointer_rules, python_rules, walk

TREE = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else settings.ROOT)
SRC = TREE / "importer" / "src"
INCLUDE = TREE / "importer" / "include" / "onnximport"

MAX_FUNCTION_LINES = 60
MAX_PERFORMANCE_WORDS = 250
MAX_COLUMNS = 120
CXX_FOLDERS = ("importer", "cli", "harness", "hostile", "bench", "sweep")

failures = []
checks = 0


def check(ok, message):
    global checks
    checks += 1
    if not ok:
        failures.append(message)
        print("FAIL:", message)


def sources(folder):
    return walk.files(folder, (".hpp", ".cpp"))


def check_layers():
    check(sum(1 for _ in layer_rules.includes(TREE)) > 200, "the layer rules found almost no includes")
    for problem in layer_rules.problems(TREE):
        check(False, problem)


def check_hermetic():
    for path in sources(SRC):
        text = path.read_text()
        name = path.relative_to(TREE)
        check("PROT_WRITE" not in text, f"{name} maps something writable")
        check("const_cast" not in text, f"{name} uses const_cast")
        check("std::atomic" not in text, f"{name} keeps process-wide state (std::atomic)")
    public = "".join(p.read_text() for p in sources(INCLUDE))
    check("block_cache" not in public, "the public API has a process-wide block cache")
    check(not re.search(r"\bstorage\s*\(\s*\)", public), "the public API has Model::storage()")
    check(not (INCLUDE / "testing").exists(), "importer/include/onnximport/testing exists")


def check_function_lengths():
    ctags = shutil.which("ctags")
    check(ctags is not None, "universal-ctags is missing (tools/install_deps.sh installs it)")
    if not ctags:
        return
    out = subprocess.run([ctags, "-R", "--languages=C++", "--kinds-C++=f", "--fields=+ne", "-x",
                          "--_xformat=%{line} %{end} %N %F", str(SRC)], capture_output=True, text=True, check=True)
    functions = 0
    for line in out.stdout.splitlines():
        start, end, name, path = line.split(" ", 3)
        if end == "-":
            continue
        functions += 1
        lines = int(end) - int(start) + 1
        check(lines <= MAX_FUNCTION_LINES, f"{name} ({path}:{start}) has {lines} lines")
    check(functions > 100, f"ctags found only {functions} functions in importer/src")


def check_readme():
    text = (TREE / "README.md").read_text()
    m = re.search(r"^## Performance\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    check(m is not None, "README.md has no Performance section")
    if m:
        words = len(re.findall(r"\S+", m.group(1)))
        check(words < MAX_PERFORMANCE_WORDS, f"README's Performance section has {words} words")


def check_usage_texts():
    fixed_range = re.compile(r"sed -n '\d+,\d+p' \"\$0\"")
    scripts = sorted(TREE.glob("tools/**/*.sh")) + sorted(TREE.glob("sweep/**/*.sh")) + [TREE / ".ci" / "run"]
    for path in scripts:
        check(not fixed_range.search(path.read_text()), f"{path.relative_to(TREE)} prints a fixed line range as usage")


def check_line_lengths():
    for folder in CXX_FOLDERS:
        for path in sources(TREE / folder):
            long = [n for n, line in enumerate(path.read_text().splitlines(), 1) if len(line) > MAX_COLUMNS]
            check(not long, f"{path.relative_to(TREE)}: lines over {MAX_COLUMNS} columns: {long[:10]}")


def check_field_numbers():
    check(field_rules.largest_field_number(TREE) >= 25, "onnx_fields.hpp's field numbers were not found")
    check(len(field_rules.builders(TREE)) > 20, "the field-number rule found almost no builders")
    for problem in field_rules.problems(TREE):
        check(False, problem)


check_layers()
check_hermetic()
check_function_lengths()
check_readme()
check_usage_texts()
check_line_lengths()
check_field_numbers()
for problem in (python_rules.problems(TREE) + docs_rules.problems(TREE) + pointer_rules.problems(TREE) +
                message_rules.problems(TREE)):
    check(False, problem)
check(len(python_rules.python_files(TREE)) > 50, "the Python rules found almost no Python files")
check(len(pointer_rules.source_files(TREE)) > 300, "the pointer rules found almost no files")
print(f"{checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
