"""Reads the hostile corpus (ARCHITECTURE.md "Hostile corpus"; spec section 8, second point).

The generator writes `<kind>-<case>.onnx` files plus `manifest.json`. The file name alone
fixes the expected outcome (kind `accept` must import, any other kind must be refused with
that kind); the manifest adds the spec rule each case exercises and, for accepted files,
the facts to check. This module turns both into one list of plain dicts so the matrix and
the report do not each parse the manifest their own way.
"""
import json
import os

# Lower-case kind in a file name -> kind printed by `onnximport check`.
KINDS = {
    "malformed": "Malformed",
    "invalidmodel": "InvalidModel",
    "unsupported": "Unsupported",
    "externaldata": "ExternalData",
    "io": "Io",
}
MODEL_SUFFIXES = (".onnx", ".ort")


def expected_from_name(file_name):
    """('accept', None) or ('refuse', 'Malformed') ... from `<kind>-<case>.ext`; None if unnamed."""
    stem = os.path.basename(file_name)
    prefix = stem.split("-", 1)[0].lower()
    if prefix == "accept":
        return "accept", None
    if prefix in KINDS:
        return "refuse", KINDS[prefix]
    return None


def _entries(manifest):
    """The per-file entries of a manifest, whichever container shape the generator chose."""
    if isinstance(manifest, list):
        return manifest
    if isinstance(manifest, dict):
        for key in ("cases", "files", "entries"):
            if isinstance(manifest.get(key), list):
                return manifest[key]
            if isinstance(manifest.get(key), dict):
                return [dict(v, file=k) for k, v in manifest[key].items()]
        # A dict keyed by file name.
        if all(isinstance(v, dict) for v in manifest.values()):
            return [dict(v, file=k) for k, v in manifest.items()]
    return []


def _first(entry, *keys):
    for key in keys:
        if key in entry and entry[key] not in (None, ""):
            return entry[key]
    return None


def _rule_text(rule):
    """A rule may be a string or {section, sentence}; the report shows one line."""
    if isinstance(rule, dict):
        section = _first(rule, "section", "id")
        sentence = _first(rule, "sentence", "text", "rule")
        return " ".join(str(x) for x in (f"§{section}" if section else None, sentence) if x)
    return "" if rule is None else str(rule)


def load_corpus(directory):
    """Every case of the corpus with its expectation, sorted by file name.

    The manifest is the authority when present (its `cases`: file, expect, kind, section,
    rule, why, facts, options, generated_only; hostile/src/corpus.cpp writes it); a case
    file need not be a plain file (a folder or a link named .onnx is an Io case). Without
    a manifest, every `<kind>-<case>.onnx` file in the folder is a case.

    Each item: file, path, expected ('accept'|'refuse'), expected_kind (or None), rule
    (one line), description, facts (dict), options (dict of import options, may be empty).
    """
    manifest_path = os.path.join(directory, "manifest.json")
    entries = None
    manifest_meta = {}
    if os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if isinstance(manifest, dict):
            manifest_meta = {k: v for k, v in manifest.items() if not isinstance(v, (list, dict))}
        entries = [e for e in _entries(manifest) if isinstance(e, dict) and _first(e, "file", "name", "path")]

    if entries is None:
        names = sorted(n for n in os.listdir(directory) if n.endswith(MODEL_SUFFIXES) and expected_from_name(n))
        entries = [{"file": n} for n in names]

    cases = []
    for entry in entries:
        name = str(_first(entry, "file", "name", "path"))
        path = os.path.join(directory, name)
        if entry.get("generated_only") and not os.path.lexists(path):
            continue  # a committed copy leaves out what git cannot hold
        expected, kind = expected_from_name(name) or ("refuse", None)
        declared = _first(entry, "expect", "expected", "outcome")
        if isinstance(declared, str) and declared.lower() in ("accept", "accepted", "ok", "import"):
            expected, kind = "accept", None
        elif isinstance(declared, str) and declared.lower() in ("refuse", "refused", "reject"):
            expected = "refuse"
        declared_kind = _first(entry, "kind", "expected_kind")
        if expected == "refuse" and isinstance(declared_kind, str) and declared_kind.lower() in KINDS:
            kind = KINDS[declared_kind.lower()]
        rule = _first(entry, "rule", "spec_rule", "spec")
        section = _first(entry, "section", "spec_section")
        rule_text = _rule_text(rule)
        if section is not None and not isinstance(rule, dict):
            rule_text = f"§{section} {rule_text}".strip()
        cases.append({
            "file": name,
            "path": path,
            "expected": expected,
            "expected_kind": kind,
            "rule": rule_text,
            "description": str(_first(entry, "why", "description", "summary") or ""),
            "facts": _first(entry, "facts") or {},
            "options": _first(entry, "options") or {},
        })
    cases.sort(key=lambda c: c["file"])
    return cases, manifest_meta
