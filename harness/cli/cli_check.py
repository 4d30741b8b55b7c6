#!/usr/bin/python3
"""The `onnximport check` contract (ARCHITECTURE.md, "Command line"): one tab-separated
line per file, FILE<TAB>ok or FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE, and exit
0 (all imported), 1 (any refused) or 2 (usage error). Inputs are written byte by byte here
so the expected offsets are known exactly.

usage: check_cli.py PATH/TO/onnximport
"""
import os
import subprocess
import sys
import tempfile

KINDS = {"Malformed", "InvalidModel", "Unsupported", "ExternalData", "Io"}
failures = []


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field_int(num, v):
    return varint(num << 3) + varint(v)


def field_len(num, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def tensor_type(elem):
    shape = field_len(1, field_int(1, 1))  # one dim of value 1
    return field_len(1, field_int(1, elem) + field_len(2, shape))


def value_info(name):
    return field_len(1, name) + field_len(2, tensor_type(1))


def minimal_model():
    node = field_len(1, "X") + field_len(2, "Y") + field_len(4, "Identity")
    graph = field_len(1, node) + field_len(2, "g") + field_len(11, value_info("X")) + field_len(12, value_info("Y"))
    return field_int(1, 9) + field_len(2, "cli-test") + field_len(7, graph) + field_len(8, field_int(2, 21))


def deep_type_model(level):
    """An input whose TypeProto nests sequence types until a message sits at `level`
    (ModelProto 0, graph 1, input 2, type 3, sequence_type 4, elem_type 5, ...)."""
    msg = b""
    for k in range(level, 3, -1):
        msg = field_len(4 if k % 2 == 0 else 1, msg)
    graph = field_len(11, field_len(1, "x") + field_len(2, msg))
    return field_int(1, 9) + field_len(8, field_int(2, 21)) + field_len(7, graph)


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


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

        # --max-nesting: the same file is refused at 8 and accepted at 9.
        rc, out, _ = run(binary, "check", "--max-nesting", "8", deep)
        expect(rc == 1, f"--max-nesting 8: exit 1, got {rc}")
        check_error_line(out.rstrip("\n"), deep, "Malformed", str(len(deep_type_model(9)) - 2),
                         "ModelProto.graph.input[0].type.sequence_type.elem_type.sequence_type.elem_type.sequence_type.elem_type")
        rc, out, _ = run(binary, "check", "--max-nesting", "9", deep)
        expect(rc == 0 and out == f"{deep}\tok\n", f"--max-nesting 9: accepted, got {rc} {out!r}")

        # Usage errors: exit 2, nothing on stdout, a reason on stderr.
        for args in ([], ["check"], ["check", "--bogus", ok], ["check", "--max-nesting", "7", ok],
                     ["check", "--max-nesting", "251", ok], ["check", "--max-nesting", "x", ok], ["frobnicate", ok]):
            rc, out, err = run(binary, *args)
            expect(rc == 2, f"usage {args}: exit 2, got {rc}")
            expect(out == "", f"usage {args}: empty stdout, got {out!r}")
            expect(err != "", f"usage {args}: a reason on stderr")

        # --help: exit 0, text on stdout.
        for args in (["--help"], ["check", "--help"]):
            rc, out, _ = run(binary, *args)
            expect(rc == 0 and "check" in out, f"{args}: exit 0 with help text, got {rc}")

    if failures:
        print(f"{len(failures)} CLI check(s) failed")
        return 1
    print("onnximport check: CLI contract holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
