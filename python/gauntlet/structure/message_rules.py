"""Refusals show bytes of the input through importer/src/core/text.hpp (`quoted`, `escaped`), which
escapes control bytes, never between quote characters written by hand (docs/harness.md, "Structure
rules"): in importer/src, a string literal that ends with a quote character and is followed by
`+ std::string(`, on its line or the next, is refused. On the tree before AFL++ found the first such
name (0f18e178, docs/fuzzing.md) it finds eight: in three of the four files that let input bytes reach
a message raw, and around the .ort writer's own key; the fourth wrote names without quotes, a shape no
pattern tells from a field's name (write/ort/node_operator.cpp: escaped() now)."""
import re

from gauntlet.structure import walk

SOURCES = ("importer", "src")
HAND_QUOTED = re.compile(r"""(?:'|\\")"\s*\+\s*std::string\(""")


def problems(tree):
    found = []
    for path in walk.files(tree.joinpath(*SOURCES), (".hpp", ".cpp")):
        text = path.read_text()
        for m in HAND_QUOTED.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(tree)}:{line}: a name quoted by hand in a message, "
                         "not by core/text.hpp's quoted()")
    return found
