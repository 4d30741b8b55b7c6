"""The fourth outcome of the matrix, "accepted, read differently" (docs/matrix.md): what a
reader read (read_summary.py, read_summary.js) against what the case holds.

What a case holds comes first from the manifest's facts (checked on this importer by the
hostile test suite) and then, for the whole summary, from the reference reading: Python onnx
on libprotobuf (the `onnx.load-noext` column), the wire format as protobuf defines it.
The answer is the first difference, as one line, or None.
"""

REFERENCE = "onnx.load-noext"

# Manifest fact -> how to find it in a summary (tests/test_hostile.cpp check_facts).
GRAPH_FACTS = {
    "ir_version": lambda read: read["ir_version"],
    "node_count": lambda read: read["nodes"],
    "initializer_count": lambda read: len(read["initializers"]),
}
TENSOR_FACTS = {"tensor_data_type": "elem_type", "tensor_dims": "dims", "tensor_sha256": "sha256"}


def _normal(value):
    """Facts hold JSON integers; summaries hold 64-bit integers as decimal strings."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _initializer(read, name):
    return next((t for t in read["initializers"] if t["name"] == name), None)


def against_facts(read, facts):
    """The first manifest fact the summary contradicts, or None. A tensor the reader did not
    list, or whose bytes it did not hash (external data), is not judged."""
    for fact, get in GRAPH_FACTS.items():
        if fact in (facts or {}) and _normal(get(read)) != _normal(facts[fact]):
            return f"{fact}: read {get(read)!r}, the manifest says {facts[fact]!r}"
    for fact, key in TENSOR_FACTS.items():
        for name, want in sorted(((facts or {}).get(fact) or {}).items()):
            t = _initializer(read, name)
            if t is None or t[key] is None:
                continue
            if _normal(t[key]) != _normal(want):
                return f"initializer {name!r} {key}: read {t[key]!r}, the manifest says {want!r} ({fact})"
    return None


def _tensor_difference(i, got, want):
    for key in ("name", "elem_type", "dims", "sha256"):
        if key == "sha256" and (got[key] is None or want[key] is None):
            continue
        if _normal(got[key]) != _normal(want[key]):
            return f"initializers[{i}] {key}: read {got[key]!r}, the reference read {want[key]!r}"
    return None


def against_reference(read, reference):
    """The first field where two summaries differ, in the order a reader meets them."""
    for key in ("ir_version", "opsets", "nodes"):
        if _normal(read[key]) != _normal(reference[key]):
            return f"{key}: read {read[key]!r}, the reference read {reference[key]!r}"
    for i, (got, want) in enumerate(zip(read["op_types"], reference["op_types"])):
        if got != want:
            return f"op_types[{i}]: read {got!r}, the reference read {want!r}"
    if len(read["initializers"]) != len(reference["initializers"]):
        return f"initializers: read {len(read['initializers'])}, the reference read {len(reference['initializers'])}"
    for i, (got, want) in enumerate(zip(read["initializers"], reference["initializers"])):
        diff = _tensor_difference(i, got, want)
        if diff:
            return diff
    return None


def first_difference(read, facts, reference=None):
    """None when the reader read what the case holds, else the first difference."""
    return against_facts(read, facts) or (against_reference(read, reference) if reference else None)


def judge_reads(row_results, facts, valid_or_accept):
    """Marks each accepted result that carries a summary and read something else
    `read_differently` (and not a match). Only cases the spec accepts are judged: a
    refused case's reading means nothing."""
    if not valid_or_accept:
        return
    ref = row_results.get(REFERENCE) or {}
    reference = ref.get("read") if ref.get("outcome") == "accepted" else None
    if reference and against_facts(reference, facts):
        reference = None  # a reference that misreads the case judges no one: the facts alone do
    for column, r in row_results.items():
        if r.get("outcome") != "accepted" or not isinstance(r.get("read"), dict):
            continue
        diff = first_difference(r["read"], facts, None if column == REFERENCE else reference)
        if diff:
            r["read_differently"] = diff
            if r.get("match"):
                r["match"] = False
