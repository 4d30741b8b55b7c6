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
    """Every model file of the corpus with its expectation, sorted by file name.

    Each item: file (name), path, expected ('accept'|'refuse'), expected_kind (or None),
    rule (one line of text), facts (dict, accepted files), description.
    """
    manifest_path = os.path.join(directory, "manifest.json")
    by_file = {}
    manifest_meta = {}
    if os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if isinstance(manifest, dict):
            manifest_meta = {k: v for k, v in manifest.items() if not isinstance(v, (list, dict))}
        for entry in _entries(manifest):
            if not isinstance(entry, dict):
                continue
            name = _first(entry, "file", "name", "path", "filename")
            if name:
                by_file[os.path.basename(str(name))] = entry

    names = sorted(
        n for n in os.listdir(directory)
        if n.endswith(MODEL_SUFFIXES) and os.path.isfile(os.path.join(directory, n))
    )
    cases = []
    for name in names:
        from_name = expected_from_name(name)
        entry = by_file.get(name, {})
        if from_name is None and not entry:
            continue  # a helper file (external data target, ...) rather than a case
        expected, kind = from_name or ("refuse", None)
        declared = _first(entry, "expected", "outcome", "expect", "expected_kind", "kind")
        if isinstance(declared, str):
            low = declared.lower()
            if low in ("accept", "accepted", "ok", "import"):
                expected, kind = "accept", None
            elif low in KINDS:
                expected, kind = "refuse", KINDS[low]
        cases.append({
            "file": name,
            "path": os.path.join(directory, name),
            "expected": expected,
            "expected_kind": kind,
            "rule": _rule_text(_first(entry, "rule", "spec_rule", "spec", "spec_section")),
            "description": str(_first(entry, "description", "why", "case", "summary") or ""),
            "facts": _first(entry, "facts", "check", "checks") or {},
        })
    return cases, manifest_meta
