"""Pointers into the docs resolve: a comment or a page that names `docs/PAGE.md` names a page that
exists; one that names a section of it (`docs/PAGE.md, "Section"`, `docs/PAGE.md ("Section")`, a link
`[..](PAGE.md#anchor)`) names a heading, a bold lead-in or a table's key that the page has; a link
names a file that exists; `rule X12` names a rule of docs/rules.md. Sections are renamed and moved as
the measurements grow; a pointer left behind sends its reader nowhere."""
import re

from gauntlet.structure import walk

# Files whose comments and prose point into the docs. The structure rules' own files are left out:
# their tests plant pages that do not exist, by name.
SUFFIXES = (".cpp", ".hpp", ".h", ".py", ".sh", ".js", ".md", ".txt", ".cmake", ".yml", ".fbs", "Makefile")
OWN_FOLDER = ("python", "gauntlet", "structure")
# Pages written for another layout than the repository's.
OTHER_LAYOUT = {"hostile/RELEASE.md": "the corpus release's README: its links are the tarball's (gauntlet corpus)"}

NAMED_PAGE = re.compile(r"(?<![\w/.-])docs/([\w.-]+\.md)")
SECTION = re.compile(r"""(?<![\w/.-])docs/([\w.-]+\.md)(?:,\s*|\s+\(\s*|\s+)"([^"\n]{1,120})\"""")
LINK = re.compile(r"\]\(([\w./-]*?[\w-]+\.(?:md|png))(?:#([\w-]+))?\)")
RULE = re.compile(r"(?:\b[Rr]ules?|docs/rules\.md,?)\s+([A-Z]{1,2}\d+)\b")
RULE_ID = re.compile(r"^\| ([A-Z]{1,2}\d+) \|", re.M)
# A line break inside a comment or a paragraph, with the next line's comment marker: a section's
# name may wrap.
LINE_BREAK = re.compile(r"[ \t]*\n[ \t]*(?:/{2,3}|#|\*|>)?[ \t]*")
HEADING = re.compile(r"^#+[ \t]+(.+)$", re.M)
LEAD_IN = re.compile(r"\*\*(.+?)\*\*", re.S)
TABLE_KEY = re.compile(r"^\|\s*([^|\n]+?)\s*\|", re.M)


def key(text):
    """A section's name as pointers and pages may both write it: without backticks, bold marks,
    case, wrapping and a closing full stop or colon."""
    return " ".join(re.sub(r"[`*]", "", text).split()).rstrip(".:").lower()


def anchor(heading):
    """The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", re.sub(r"`", "", heading).strip().lower()).replace(" ", "-")


def sections(page_text):
    """The names a pointer may use for a page's sections: its headings, bold lead-ins and the first
    cells of its tables' rows (docs/ort-normalizations.md names each normalization so)."""
    return [key(n) for pattern in (HEADING, LEAD_IN, TABLE_KEY) for n in pattern.findall(page_text)]


def names_section(wanted, names):
    """A section named `wanted` exactly, or a longer name that begins with it (a date or host after a
    comma, a subtitle): pointers shorten long headings."""
    return any(n == wanted or (n.startswith(wanted) and not n[len(wanted)].isalnum()) for n in names)


class Pages:
    """The pages the pointers name, each read and parsed once."""

    def __init__(self):
        self.texts = {}
        self.names = {}

    def text(self, path):
        """The page's text, or None when there is no such file."""
        if path not in self.texts:
            self.texts[path] = path.read_text(encoding="utf-8") if path.is_file() else None
        return self.texts[path]

    def sections(self, path):
        if path not in self.names:
            self.names[path] = sections(self.text(path))
        return self.names[path]


def missing_pages(text, docs, pages):
    return [f"names docs/{page}, which does not exist"
            for page in sorted(set(NAMED_PAGE.findall(text))) if pages.text(docs / page) is None]


def missing_sections(joined, docs, pages):
    found = []
    for page, section in SECTION.findall(joined):
        if pages.text(docs / page) is not None and not names_section(key(section), pages.sections(docs / page)):
            found.append(f'points to docs/{page}, "{section}": no such section')
    return found


def broken_links(joined, folder, pages):
    found = []
    for target, fragment in LINK.findall(joined):
        target_path = (folder / target).resolve()
        if not target_path.exists():
            found.append(f"links to {target}, which does not exist")
        elif fragment and fragment not in {anchor(h) for h in HEADING.findall(pages.text(target_path))}:
            found.append(f"links to {target}#{fragment}: no such heading")
    return found


def unknown_rules(text, rule_ids):
    return [f"names rule {rule}, which docs/rules.md does not state"
            for rule in sorted(set(RULE.findall(text))) if rule not in rule_ids]


def problems_in(tree, path, pages, rule_ids):
    """What `path` points to that does not exist, each problem prefixed with the file's name."""
    text = path.read_text(encoding="utf-8", errors="replace")
    name = path.relative_to(tree)
    docs = tree / "docs"
    joined = LINE_BREAK.sub(" ", text)
    found = missing_pages(text, docs, pages) + missing_sections(joined, docs, pages) + unknown_rules(text, rule_ids)
    if path.suffix == ".md" and str(name) not in OTHER_LAYOUT:
        found += broken_links(joined, path.parent, pages)
    return [f"{name} {problem}" for problem in found]


def source_files(tree):
    return [p for p in walk.files(tree, SUFFIXES) if p.relative_to(tree).parts[:3] != OWN_FOLDER]


def problems(tree):
    pages = Pages()
    rule_ids = set(RULE_ID.findall(pages.text(tree / "docs" / "rules.md") or ""))
    found = []
    for path in source_files(tree):
        found += problems_in(tree, path, pages, rule_ids)
    return found
