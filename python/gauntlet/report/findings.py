"""The matrix's findings (docs/matrix.md, "Findings"): what the outcome table means, in two
views, as JSONTestSuite shows its parsers.

- classes: each way an importer departs from the rules, once per importer and rule, with
  its smallest reproducing file, the rule and the importer's own message; crashes, reads
  outside the folder, hangs, memory amplifications, internal errors and "read differently"
  first.
- pruned: the cases grouped by identical outcome rows across every importer that ran, the
  largest group first.
"""
import os
import re

# Class names, in the order the findings list them.
CLASSES = ("crashed", "read outside the folder", "hang (timed out)", "memory amplification",
           "refused by an internal error", "accepted, read differently", "accepts what the spec refuses",
           "refuses what the spec accepts", "refused with another kind")

# A refusal whose resident memory rose past both bounds is an amplification: the reader paid
# far more than the file's size for a file it did not take. 64 times is four times what rule
# O15 lets this importer's own model take of a .ort (16 times); under 256 MiB the runtimes'
# own arenas and heaps grow with no help from the file (docs/matrix.md, "Memory").
AMPLIFICATION_FACTOR = 64
AMPLIFICATION_FLOOR_KIB = 256 << 10


def amplified(row, r):
    """A refusal whose memory rose past AMPLIFICATION_FLOOR_KIB and AMPLIFICATION_FACTOR times the file."""
    memory = r.get("memory_kib")
    if r["outcome"] != "refused" or memory is None or memory <= AMPLIFICATION_FLOOR_KIB:
        return False
    return memory * 1024 > AMPLIFICATION_FACTOR * _size(row)


# What a reader throws when the input reaches code that assumed something of it (a null or
# missing member, an index past the end, recursion without a bound), as opposed to the errors
# it raises to refuse (docs/matrix.md, "Internal errors"). Python's own errors of that kind
# are named by their class; JavaScript readers throw TypeError and RangeError to refuse too
# (onnxjs, protobufjs), so there only the engine's messages count.
PYTHON_INTERNAL = {"TypeError", "AttributeError", "IndexError", "KeyError", "RecursionError", "ZeroDivisionError",
                   "UnboundLocalError"}
JAVASCRIPT_ENGINE = re.compile(r"Cannot (read|set) properties of|Cannot convert undefined or null|Cannot destructure"
                               r"| is not a function| is not iterable| is not a constructor| is not defined"
                               r"|Maximum call stack size exceeded|Invalid (typed )?array length")
# A WebAssembly trap stops a reader compiled to wasm where its native build aborts or takes a
# signal: a Rust panic traps as "unreachable" (tract), and the INT64_MIN / -1 that kills native
# ONNX Runtime with SIGFPE traps as "divide result unrepresentable" in its wasm build. V8's
# messages (Node 20), whole: a worker may pass the trap on as a plain Error (tractjs does).
WASM_TRAPS = {"unreachable", "memory access out of bounds", "divide by zero", "divide result unrepresentable",
              "remainder by zero", "float unrepresentable in integer range", "table index is out of bounds",
              "null function or function signature mismatch"}


def internal_error(r):
    """A refusal by an error the reader did not mean to raise."""
    if r["outcome"] != "refused":
        return False
    if r.get("language") == "python":
        return r.get("error_type") in PYTHON_INTERNAL
    if r.get("language") == "javascript":
        message = r.get("message", "")
        if message in WASM_TRAPS:
            return True
        return r.get("error_type") in ("TypeError", "RangeError", "ReferenceError") and bool(
            JAVASCRIPT_ENGINE.search(message))
    return False


def result_class(row, r):
    """The class of one result, or None when it is as the spec says or not judged. A crash,
    a read outside the folder, a hang, an amplification and an internal error count whatever
    the options."""
    if r["outcome"] == "crashed":
        return "crashed"
    if r.get("read_outside"):
        return "read outside the folder"
    if r["outcome"] == "timeout":
        return "hang (timed out)"
    if amplified(row, r):
        return "memory amplification"
    if internal_error(r):
        return "refused by an internal error"
    if r.get("match") is not False:
        return None
    if r.get("read_differently"):
        return "accepted, read differently"
    if row["expected"] == "refuse" and r["outcome"] == "accepted":
        return "accepts what the spec refuses"
    if row["expected"] == "accept" and r["outcome"] == "refused":
        return "refuses what the spec accepts"
    return "refused with another kind"


def _message(cls, r):
    if cls == "refused by an internal error":
        return f"{r['error_type']}: {r.get('message') or ''}"
    if cls == "memory amplification":
        return f"{r['memory_kib'] // 1024} MiB resident, then refused: {r.get('message') or ''}"
    if r.get("read_outside"):
        return f"read {r['read_outside']['target']} into {r['read_outside']['tensor']}"
    return r.get("read_differently") or r.get("message") or ""


def _size(row):
    try:
        return os.lstat(row["path"]).st_size
    except (OSError, KeyError, TypeError):
        return float("inf")


def classes(rows, importer_ids):
    """One entry per (class, importer, rule): its count and smallest reproducer."""
    found = {}
    for row in rows:
        for imp in importer_ids:
            r = row["results"].get(imp)
            cls = result_class(row, r) if r else None
            if cls is None:
                continue
            key = (CLASSES.index(cls), importer_ids.index(imp), row.get("rule_id") or "")
            entry = found.setdefault(key, {"class": cls, "importer": imp, "rule_id": row.get("rule_id"),
                                           "rule": row.get("rule"), "cases": 0, "size": float("inf")})
            entry["cases"] += 1
            size = _size(row)
            if size < entry["size"] or "reproducer" not in entry:
                entry.update(size=size, reproducer=row["file"], valid=bool(row.get("valid")), message=_message(cls, r))
    out = []
    for _key, entry in sorted(found.items()):
        entry["size"] = None if entry["size"] == float("inf") else entry["size"]
        out.append(entry)
    return out


def cell(r):
    """The outcome of one result as the pruned view compares it."""
    if r is None:
        return "-"
    if r.get("read_outside"):
        return "read outside"
    if r.get("read_differently"):
        return "read differently"
    return r["outcome"]


def pruned(rows, importer_ids):
    """Groups of cases whose outcomes agree, importer by importer."""
    groups = {}
    for row in rows:
        outcomes = tuple(cell(row["results"].get(imp)) for imp in importer_ids)
        key = (row["expected"], outcomes)
        group = groups.setdefault(key, {"expected": row["expected"], "outcomes": dict(zip(importer_ids, outcomes)),
                                        "cases": []})
        group["cases"].append(row["file"])
    return sorted(groups.values(), key=lambda g: (-len(g["cases"]), g["expected"], g["cases"][0]))


def findings(doc):
    """The findings section of a matrix document (matrix.run_matrix)."""
    ran = [i["id"] for i in doc["importers"] if i.get("status") == "run"]
    rows = doc["cases"] + (doc.get("valid") or {}).get("cases", [])
    found = classes(rows, ran)
    return {"importers": ran, "classes": found, "pruned": pruned(rows, ran),
            "counts": {c: sum(e["cases"] for e in found if e["class"] == c) for c in CLASSES}}
