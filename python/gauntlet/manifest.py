"""The hostile corpus manifest (hostile/README.md, "The manifest"), read strictly.

Unlike a tolerant reader, this one refuses a manifest it does not fully understand: a
wrong format line, a case without file, expect or rule_id, a refusal without a known
kind, a file name whose prefix disagrees with its expectation, a rule ID that
docs/rules.md does not define, or a rule text that is not the page's.
"""
import json
import os

from . import kinds, rules as rules_mod

FORMAT = "onnx-gauntlet hostile corpus, version 1"


class ManifestError(ValueError):
    pass


# The phase in which a careful importer refuses a case (docs/rules.md, "Phases of refusal").
PHASES = ("format", "wire", "message", "tensor", "graph", "external", "ort-verify", "ort-semantic")


def read(corpus_dir, rules=None):
    """The manifest of corpus_dir as a dict, checked; `rules` ({id: text}) defaults to docs/rules.md."""
    path = os.path.join(corpus_dir, "manifest.json")
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    problems = check(m, rules_mod.load() if rules is None else rules)
    if problems:
        raise ManifestError(f"{path}: " + "; ".join(problems[:10]) + (f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""))
    return m


def check(m, rules):
    """Every problem of manifest `m` as a list of strings (empty when it is sound)."""
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        return [f"format is not {FORMAT!r}"]
    if not isinstance(m.get("cases"), list) or not isinstance(m.get("side_files"), list):
        return ["cases and side_files must be lists"]
    problems, seen = [], set()
    for k in m["cases"]:
        file = k.get("file") if isinstance(k, dict) else None
        if not isinstance(file, str) or not file:
            problems.append("a case without a file name")
            continue
        if file in seen:
            problems.append(f"{file}: listed twice")
        seen.add(file)
        expect, kind = k.get("expect"), k.get("kind")
        named = kinds.expected_from_name(file)
        if expect not in ("accept", "refuse"):
            problems.append(f"{file}: expect is {expect!r}")
        elif named is None or named[0] != expect or (expect == "refuse" and named[1] != kind):
            problems.append(f"{file}: the name does not say expect={expect} kind={kind}")
        if expect == "refuse" and k.get("phase") not in PHASES:
            problems.append(f"{file}: phase {k.get('phase')!r} is not one of {', '.join(PHASES)}")
        rule_id = k.get("rule_id")
        if rule_id not in rules:
            problems.append(f"{file}: rule_id {rule_id!r} is not defined in docs/rules.md")
        elif k.get("rule") != rules[rule_id]:
            problems.append(f"{file}: rule is not docs/rules.md's text of {rule_id}")
    return problems


def cases(corpus_dir, rules=None):
    """The manifest's cases, each with `path` added; generated-only cases missing from the folder left out."""
    out = []
    for k in read(corpus_dir, rules)["cases"]:
        path = os.path.join(corpus_dir, k["file"])
        if k.get("generated_only") and not os.path.lexists(path):
            continue
        out.append(dict(k, path=path))
    return out
