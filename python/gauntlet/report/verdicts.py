"""The matrix's columns and how a result compares with the spec (docs/matrix.md): which
importer's outcome the spec fixes for a case, whether a result agrees, and the counts per
importer the report prints."""
from gauntlet.report import findings
from gauntlet.report.peers_more import MORE_IMPORTERS, MORE_ORT_READERS

# The columns, in the order the report shows them.
IMPORTERS = [
    ("onnximport", "onnx-gauntlet (this importer): onnximport check"),
    ("onnx.load", "Python onnx: onnx.load (external data loaded)"),
    ("onnx.load-noext", "Python onnx: onnx.load(load_external_data=False)"),
    ("onnx.checker", "Python onnx: onnx.load + check_model(full_check=True)"),
    ("opencv", "OpenCV dnn: cv2.dnn.readNetFromONNX"),
    ("protobufjs", "protobufjs: onnx.ModelProto.decode (Debian's onnx.proto)"),
    ("onnxruntime", "ONNX Runtime (npm onnxruntime-node): InferenceSession.create"),
    *MORE_IMPORTERS,
]

ORT_READERS = ("onnximport", "onnxruntime", *MORE_ORT_READERS)
ORT_EXTERNAL_RULES = ("O7", "O14")


def applies(case, importer):
    """Whether the spec fixes this importer's outcome for this case.

    A case with import options (max_nesting, external_dir, import from bytes) tests this
    importer's options; the peers have none of them, so their outcome there is shown but
    not judged. `import: bytes` cannot be asked of a command line that opens files, so
    that case is judged by the hostile test suite (hostile_tests), not here. A .ort case
    is judged only for the importers that read .ort, and its external data (rules O7 and
    O14, this project's extension) not for the ONNX Runtime readers, whose loaders have no reader for it.
    """
    options = case.get("options") or {}
    if case["file"].endswith(".ort") and (importer not in ORT_READERS or
                                          (importer != "onnximport" and case.get("rule_id") in ORT_EXTERNAL_RULES)):
        return False
    if importer == "onnximport":
        return options.get("import") != "bytes"
    return not options


def matches(case, result, importer):
    """Does this result agree with the spec? Our importer must also name the right kind.
    None when the spec does not fix this importer's outcome here (see applies)."""
    if not applies(case, importer):
        return None
    outcome = result["outcome"]
    if case["expected"] == "accept":
        return outcome == "accepted"
    if outcome != "refused":
        return False
    if importer == "onnximport" and case.get("expected_kind"):
        return result.get("kind") == case["expected_kind"]
    return True


def summarize(cases, importers):
    """Per importer: how its results compare with the spec, in the counts the report prints."""
    summary = {}
    for imp, status in importers.items():
        if status.get("status") != "run":
            continue
        s = {"cases": 0, "match": 0, "mismatch": 0,
             "accepted_spec_refuses": 0, "refused_spec_accepts": 0, "wrong_kind": 0,
             "crashed": 0, "timeout": 0, "not_judged": 0, "read_outside": 0, "read_differently": 0,
             "memory_amplified": 0, "internal_errors": 0}
        for case in cases:
            r = case["results"].get(imp)
            if r is None:
                continue
            if r.get("read_outside"):
                s["read_outside"] += 1
            if findings.amplified(case, r):
                s["memory_amplified"] += 1  # whatever the options (docs/matrix.md, "Memory")
            elif findings.internal_error(r):
                s["internal_errors"] += 1  # whatever the options (docs/matrix.md, "Internal errors")
            if r["match"] is None:
                s["not_judged"] += 1
                if r["outcome"] in ("crashed", "timeout"):
                    s[r["outcome"]] += 1  # a crash is a finding whatever the options
                continue
            s["cases"] += 1
            s["match" if r["match"] else "mismatch"] += 1
            if r["outcome"] in ("crashed", "timeout"):
                s[r["outcome"]] += 1
            elif r.get("read_differently"):
                s["read_differently"] += 1
            elif case["expected"] == "refuse" and r["outcome"] == "accepted":
                s["accepted_spec_refuses"] += 1
            elif case["expected"] == "accept" and r["outcome"] == "refused":
                s["refused_spec_accepts"] += 1
            elif not r["match"]:
                s["wrong_kind"] += 1
        summary[imp] = s
    return summary
