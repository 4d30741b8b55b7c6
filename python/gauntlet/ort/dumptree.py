"""The structural dump (sweep/DUMP_FORMAT.md) as a tree: each line is a node whose
children are the lines indented one level (two spaces) deeper under it."""


class Line:
    __slots__ = ("text", "children")

    def __init__(self, text, children=None):
        self.text = text
        self.children = children if children is not None else []

    @property
    def key(self):
        return self.text.split(" ", 1)[0]

    @property
    def value(self):
        parts = self.text.split(" ", 1)
        return parts[1] if len(parts) > 1 else ""

    def find(self, key):
        return [c for c in self.children if c.key == key]

    def first(self, key):
        found = self.find(key)
        return found[0] if found else None


def parse(text):
    root = Line("<root>")
    stack = [(-1, root)]
    for raw in text.split("\n"):
        if not raw:
            continue
        stripped = raw.lstrip(" ")
        level = (len(raw) - len(stripped)) // 2
        while stack[-1][0] >= level:
            stack.pop()
        line = Line(stripped)
        stack[-1][1].children.append(line)
        stack.append((level, line))
    return root


def render(root):
    out = []

    def walk(line, level):
        out.append("  " * level + line.text)
        for c in line.children:
            walk(c, level + 1)

    for c in root.children:
        walk(c, 0)
    return "\n".join(out) + "\n"
