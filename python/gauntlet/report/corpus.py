"""Reads (and copies) the hostile corpus for the report and the matrix (hostile/README.md).

The manifest is read strictly by python/gauntlet/manifest.py (every case's rule_id must be
defined by docs/rules.md); this module turns its cases into the plain dicts the matrix and
the report use. A folder without a manifest still works: every `<kind>-<case>.onnx` in it
is a case, its expectation taken from the name.
"""
import os
import shutil
import subprocess

from gauntlet import kinds, manifest

KINDS = kinds.PREFIXES
MODEL_SUFFIXES = (".onnx", ".ort")
expected_from_name = kinds.expected_from_name


def load_corpus(directory):
    """Every case of the corpus with its expectation, sorted by file name, and the
    manifest's scalar fields.

    Each item: file, path, expected ('accept'|'refuse'), expected_kind (or None), rule_id,
    rule (one line: section, ID and text), description, facts (dict), options (dict of
    import options, may be empty), endless (following the reference reads forever or blocks),
    phase (refusals: where a careful importer refuses it, docs/rules.md).
    """
    cases, meta = [], {}
    if os.path.exists(os.path.join(directory, "manifest.json")):
        m = manifest.read(directory)
        meta = {k: v for k, v in m.items() if not isinstance(v, (list, dict))}
        for k in manifest.cases(directory):
            cases.append({
                "file": k["file"], "path": k["path"], "expected": k["expect"],
                "expected_kind": k.get("kind") if k["expect"] == "refuse" else None,
                "rule_id": k["rule_id"], "rule": f"§{k['section']} {k['rule_id']}: {k['rule']}",
                "description": k.get("why", ""), "facts": k.get("facts") or {}, "options": k.get("options") or {},
                "endless": bool(k.get("endless")), "phase": k.get("phase"),
            })
    else:
        for name in sorted(os.listdir(directory)):
            named = expected_from_name(name) if name.endswith(MODEL_SUFFIXES) else None
            if named:
                cases.append({"file": name, "path": os.path.join(directory, name), "expected": named[0],
                              "expected_kind": named[1], "rule_id": None, "rule": "", "description": "",
                              "facts": {}, "options": {}})
    cases.sort(key=lambda c: c["file"])
    return cases, meta


def copy_corpus(src, dst):
    """A copy of the corpus folder as it is: links kept as links, FIFOs made as FIFOs (never
    opened), and the 2 GiB cases' holes kept as holes, which shutil's copy writes out
    (docs/performance.md, "Sizes the tests rely on")."""
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    subprocess.run(["cp", "-a", "--sparse=always", src, dst], check=True)
