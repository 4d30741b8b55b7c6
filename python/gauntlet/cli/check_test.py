"""The `onnximport check` contract (docs/cli.md, "check"): one tab-separated
line per file, FILE<TAB>ok or FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE, and exit
0 (all imported), 1 (any refused) or 2 (usage error). Inputs are written byte by byte here
so the expected offsets are known exactly.

usage: cli_check.py PATH/TO/onnximport
(usage errors, --help and standard input: cli_usage.py; escaping: cli_escaping.py)
"""
import json
import os
import subprocess
import sys
import tempfile

from gauntlet.cli.expect import closing, expect
from gauntlet.cli.wire import deep_type_model, minimal_model

from gauntlet.kinds import KINDS
from gauntlet.settings import ROOT

CORPUS = os.path.join(ROOT, "hostile", "corpus")


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr



def check_error_line(line, path, kind, offset, field_path):
    cols = line.split("\t")
    expect(len(cols) == 5, f"{path}: five tab-separated columns, got {cols!r}")
    if len(cols) != 5:
        return
    expect(cols[0] == path, f"{path}: first column is the file, got {cols[0]!r}")
    expect(cols[1] == kind, f"{path}: kind {kind}, got {cols[1]!r}")
    expect(cols[2] == offset, f"{path}: offset {offset}, got {cols[2]!r}")
    expect(cols[3] == field_path, f"{path}: field path {field_path}, got {cols[3]!r}")
    expect(cols[4] != "" and "\n" not in cols[4], f"{path}: a one-line message, got {cols[4]!r}")


def check_json(binary, files, lines):
    """--json: one object per file with the same facts as the lines (docs/cli.md schema)."""
    rc, out, _ = run(binary, "check", "--json", *files)
    expect(rc == 1, f"check --json mixed: exit 1, got {rc}")
    records = [json.loads(line) for line in out.splitlines()]
    expect(len(records) == len(lines) == 5, f"check --json mixed: five records, got {out!r}")
    expect(records[:1] == [{"file": files[0], "status": "ok"}], f"check --json: the ok record, got {records[:1]}")
    for record, line in zip(records[1:], lines[1:]):
        _, kind, offset, path, message = line.split("\t")
        expected = {"file": record.get("file"), "status": "refused", "kind": kind,
                    "offset": None if offset == "-" else int(offset), "field_path": None if path == "-" else path,
                    "message": message}
        expect(record == expected and record["kind"] in KINDS, f"check --json: {record} against {line!r}")


def check_max_nesting(binary, deep):
    """--max-nesting: the same file is refused at 8 and accepted at 9."""
    rc, out, _ = run(binary, "check", "--max-nesting", "8", deep)
    expect(rc == 1, f"--max-nesting 8: exit 1, got {rc}")
    check_error_line(out.rstrip("\n"), deep, "Malformed", str(len(deep_type_model(9)) - 2),
                     "ModelProto.graph.input[0].type.sequence_type.elem_type.sequence_type.elem_type.sequence_type.elem_type")
    rc, out, _ = run(binary, "check", "--max-nesting", "9", deep)
    expect(rc == 0 and out == f"{deep}\tok\n", f"--max-nesting 9: accepted, got {rc} {out!r}")


def check_format(binary):
    """--format: the named format is read whatever the content says (rules O1, O16)."""
    carrying = os.path.join(CORPUS, "accept-onnx-carrying-ortm.onnx")  # ORTM at 4..7, a .onnx
    relu = os.path.join(CORPUS, "accept-ort-relu.ort")
    rc, out, _ = run(binary, "check", carrying, relu)
    expect(rc == 0, f"check by content: both read, got {rc} {out!r}")
    rc, out, _ = run(binary, "check", "--format", "ort", carrying)
    expect(rc == 1, f"--format ort on a .onnx: exit 1, got {rc}")
    check_error_line(out.rstrip("\n"), carrying, "Malformed", "0", "InferenceSession.root")
    rc, out, _ = run(binary, "check", "--format", "onnx", relu)
    expect(rc == 1, f"--format onnx on a .ort: exit 1, got {rc}")
    check_error_line(out.rstrip("\n"), relu, "Malformed", "2", "ModelProto")
    rc, out, err = run(binary, "check", "--format", "flatbuffer", relu)
    expect(rc == 2 and out == "" and "--format" in err, f"--format flatbuffer: usage error, got {rc} {err!r}")


def check_onnxruntime_limits(binary):
    """--onnxruntime-limits: a .ort valid here but past ONNX Runtime's Verifier depth (O2, O18)."""
    deep = os.path.join(CORPUS, "accept-ort-nested-if-24.ort")
    rc, out, _ = run(binary, "check", deep)
    expect(rc == 0 and out == f"{deep}\tok\n", f"nested If 24 deep: accepted by default, got {rc} {out!r}")
    rc, out, _ = run(binary, "check", "--onnxruntime-limits", deep)
    expect(rc == 1, f"--onnxruntime-limits: exit 1, got {rc}")
    check_error_line(out.rstrip("\n"), deep, "Unsupported", "-", "InferenceSession")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="onnx-gauntlet-cli-") as d:
        def write(name, data):
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            return path

        ok = write("ok.onnx", minimal_model())
        truncated = minimal_model() + b"\x80"
        malformed = write("malformed.onnx", truncated)
        no_ir = write("no-ir.onnx", minimal_model()[2:])  # drop the ir_version field
        deep = write("deep.onnx", deep_type_model(9))
        missing = os.path.join(d, "missing.onnx")

        # One accepted file: exit 0, one line, nothing on stderr.
        rc, out, err = run(binary, "check", ok)
        expect(rc == 0, f"check ok: exit 0, got {rc}")
        expect(out == f"{ok}\tok\n", f"check ok: line {out!r}")
        expect(err == "", f"check ok: empty stderr, got {err!r}")

        # Several files: one line each, in order; any refusal makes the exit 1.
        rc, out, err = run(binary, "check", ok, malformed, no_ir, missing, d)
        lines = out.splitlines()
        expect(rc == 1, f"check mixed: exit 1, got {rc}")
        expect(len(lines) == 5, f"check mixed: five lines, got {lines!r}")
        if len(lines) == 5:
            expect(lines[0] == f"{ok}\tok", f"check mixed: first line {lines[0]!r}")
            check_error_line(lines[1], malformed, "Malformed", str(len(truncated) - 1), "ModelProto")
            check_error_line(lines[2], no_ir, "InvalidModel", "0", "ModelProto.ir_version")
            check_error_line(lines[3], missing, "Io", "-", "-")
            check_error_line(lines[4], d, "Io", "-", "-")

        check_json(binary, [ok, malformed, no_ir, missing, d], lines)
        check_max_nesting(binary, deep)
    check_format(binary)
    check_onnxruntime_limits(binary)

    return closing()


if __name__ == "__main__":
    sys.exit(main())
