"""Untrusted bytes in the CLI's output (docs/cli.md "Escaping"): file names and
node names with TAB, newline, ESC, BEL, invalid UTF-8 and invisible control characters.
`check` must keep one line of two or five fields per file whose fields decode back to the
bytes, `--json` must parse and give the names back, and neither `check`, `dump` nor the
error messages on stderr may let a control byte through.

usage: cli_escaping.py PATH/TO/onnximport
"""
import json
import os
import subprocess
import sys
import tempfile

from gauntlet.cli.expect import closing, expect
from gauntlet.cli.escape import problems, unescape
from gauntlet.cli.wire import identity_graph, minimal_model, model

# File-name pieces (a file name is any bytes but / and NUL).
NAMES = [b"tab\there", b"new\nline", b"cr\rreturn", b"esc\x1b[31mred", b"bell\x07", b"del\x7f",
         b"back\\slash", b"looks\\x41escaped", b"quote\"d", b"utf8-\xc3\xa9", b"bad\xffbyte",
         b"overlong\xc0\xaf", b"surrogate\xed\xa0\x80", b"cut\xe2\x82", b"c1\xc2\x9bcsi",
         b"rtl\xe2\x80\xaeoverride", b"line\xe2\x80\xa8sep"]



def run(binary, *args, **kw):
    return subprocess.run([binary, *args], capture_output=True, **kw)


def check_field(field, original, where):
    expect(not problems(field), f"{where}: {problems(field)} in {field!r}")
    try:
        expect(unescape(field) == original, f"{where}: {field!r} does not decode to {original!r}")
    except ValueError as e:
        expect(False, f"{where}: {e}")


def check_text_lines(binary, files):
    """check over every name: one line per file, two or five fields, each decoding back."""
    p = run(binary, "check", *files.keys())
    expect(p.returncode == 1, f"check: exit 1 (some files refused), got {p.returncode}")
    lines = p.stdout.split(b"\n")
    expect(lines[-1] == b"", "check: output ends with a newline")
    lines = lines[:-1]
    expect(len(lines) == len(files), f"check: {len(files)} lines, got {len(lines)}")
    for line, (path, expect_ok) in zip(lines, files.items()):
        fields = line.split(b"\t")
        expect(len(fields) == (2 if expect_ok else 5), f"check {path!r}: field count of {line!r}")
        check_field(fields[0], path, f"check {path!r}: file field")
        for k, field in enumerate(fields[1:], 1):
            expect(not problems(field), f"check {path!r}: field {k}: {problems(field)}")
    # A spot check of the chosen escapes, so that decoding is not the only judge.
    expect(b"esc\\x1b[31mred" in p.stdout and b"tab\\there" in p.stdout and b"new\\nline" in p.stdout
           and b"back\\\\slash" in p.stdout and "utf8-é".encode() in p.stdout,
           f"check: ESC, TAB, newline, backslash escaped and UTF-8 kept as in docs/cli.md, got {p.stdout!r}")


def check_json(binary, files):
    p = run(binary, "check", "--json", *files.keys())
    expect(p.returncode == 1, f"check --json: exit 1, got {p.returncode}")
    expect(all(b < 0x80 for b in p.stdout), "check --json: ASCII only")
    lines = p.stdout.decode("ascii", "replace").splitlines()
    expect(len(lines) == len(files), f"check --json: {len(files)} lines, got {len(lines)}")
    for line, (path, expect_ok) in zip(lines, files.items()):
        try:
            record = json.loads(line)
        except ValueError as e:
            expect(False, f"check --json {path!r}: not JSON ({e}): {line!r}")
            continue
        try:
            valid = path.decode("utf-8") is not None
        except UnicodeDecodeError:
            valid = False
        if valid:
            expect(record.get("file") == path.decode() and "file_hex" not in record,
                   f"check --json {path!r}: file {record.get('file')!r}")
        else:
            expect(bytes.fromhex(record.get("file_hex", "")) == path, f"check --json {path!r}: file_hex")
        expect(record.get("status") == ("ok" if expect_ok else "refused"), f"check --json {path!r}: status")
        if not expect_ok:
            expect(record.get("kind") == "InvalidModel" and isinstance(record.get("offset"), int)
                   and record.get("field_path") == "ModelProto.graph.node[0]",
                   f"check --json {path!r}: kind, offset, field_path of {record}")


def check_messages(binary, d):
    """A resolution message quotes the node's and the input's names: the library escapes
    their control bytes as \\xHH (core/text.hpp), and the CLI escapes the message again
    wherever it shows it."""
    node, value = b"n\x1b[2J\tx", b"in\x1b]0;title\x07\nz"
    path = os.path.join(d.encode(), b"undefined-input.onnx")
    with open(path, "wb") as f:
        f.write(model(identity_graph(node_name=node, input_name=value)))
    p = run(binary, "check", path)
    fields = p.stdout.rstrip(b"\n").split(b"\t")
    expect(p.returncode == 1 and len(fields) == 5, f"check undefined input: one refusal line, got {p.stdout!r}")
    if len(fields) == 5:
        check_field(fields[4], unescape(fields[4]), "check message")
        def library_escaped(name):
            return b"".join(b"\\x%02x" % c if c < 0x20 or c == 0x7F else bytes([c]) for c in name)
        shown = unescape(fields[4])
        expect(library_escaped(node) in shown and library_escaped(value) in shown,
               f"check message names the node and the input: {fields[4]!r}")
        expect(b"\x1b" not in shown, f"no raw ESC reaches the message: {fields[4]!r}")
    p = run(binary, "dump", path)
    expect(p.returncode == 1 and p.stdout == b"", f"dump undefined input: refused, got {p.returncode}")
    err = p.stderr.rstrip(b"\n").split(b"\n")
    expect(len(err) == 1 and not problems(err[0]), f"dump's refusal on stderr: one clean line, got {p.stderr!r}")
    p = run(binary, "check", "--bogus\x1b[0m")
    expect(p.returncode == 2 and b"\x1b" not in p.stderr, f"usage error echoes its argument escaped: {p.stderr!r}")


def check_dump(binary, d):
    """The dump escapes every string itself (sweep/DUMP_FORMAT.md): no control byte but
    the line ends, whatever the names hold."""
    path = os.path.join(d, "named-node.onnx")
    with open(path, "wb") as f:
        f.write(model(identity_graph(node_name=b"n\x1b[31m\t\nx\xc2\x9b\xe2\x80\xae")))
    p = run(binary, "dump", path)
    expect(p.returncode == 0, f"dump named node: exit 0, got {p.returncode} {p.stderr!r}")
    bad = [line for line in p.stdout.split(b"\n") if any(b < 0x20 or b >= 0x7F for b in line)]
    expect(not bad, f"dump: lines with raw control or non-ASCII bytes: {bad!r}")
    expect(b'name "n\\x1b[31m\\x09\\x0ax\\xc2\\x9b\\xe2\\x80\\xae"' in p.stdout, "dump: the node name as DUMP_FORMAT.md says")


def check_bench_json(binary, d):
    path = os.path.join(d.encode(), b'q"uote\\ \x1b\xff.onnx')
    with open(path, "wb") as f:
        f.write(minimal_model())
    p = run(binary, "bench", "--json", "--repeat", "1", path)
    expect(p.returncode == 0, f"bench --json: exit 0, got {p.returncode} {p.stderr!r}")
    try:
        record = json.loads(p.stdout)
        expect(bytes.fromhex(record.get("file_hex", "")) == path and set(record["modes"]) == {"map", "read"}
               and all(m["median_ms"] >= 0 for m in record["modes"].values()),
               f"bench --json: file and both modes, got {record}")
        expect(not any("steps_ms" in m for m in record["modes"].values()), f"bench --json: no steps, got {record}")
    except (ValueError, KeyError, TypeError) as e:
        expect(False, f"bench --json: not the documented JSON ({e}): {p.stdout!r}")
    # --memory adds a third mode, the import of bytes read before the clock.
    p = run(binary, "bench", "--json", "--repeat", "2", "--memory", path)
    try:
        modes = json.loads(p.stdout)["modes"]
        expect(p.returncode == 0 and set(modes) == {"map", "read", "memory"}
               and all(m["median_ms"] >= 0 for m in modes.values()),
               f"bench --json --memory: exit 0 and three modes, got {p.returncode} {modes}")
    except (ValueError, KeyError, TypeError) as e:
        expect(False, f"bench --json --memory: not the documented JSON ({e}): {p.stdout!r}")
    # --steps adds each step's median (ImportOptions::times) to every mode; without it there are none.
    steps = ["read", "external", "define", "references", "types", "order", "consumers"]
    p = run(binary, "bench", "--json", "--repeat", "2", "--memory", "--steps", path)
    try:
        modes = json.loads(p.stdout)["modes"]
        expect(p.returncode == 0 and all(list(m["steps_ms"]) == steps and all(v >= 0 for v in m["steps_ms"].values())
                                         and m["steps_ms"]["read"] > 0 for m in modes.values()),
               f"bench --json --steps: every step of every mode, read above 0, got {p.returncode} {modes}")
    except (ValueError, KeyError, TypeError) as e:
        expect(False, f"bench --json --steps: not the documented JSON ({e}): {p.stdout!r}")
    # A file that cannot be opened: each mode holds its error, the message naming the file.
    missing = path + b"-missing"
    p = run(binary, "bench", "--json", "--repeat", "1", "--memory", missing)
    expect(p.returncode == 1 and not problems(p.stderr.replace(b"\n", b"")),
           f"bench --json of a missing file: exit 1, escaped stderr, got {p.returncode} {p.stderr!r}")
    try:
        modes = json.loads(p.stdout)["modes"]
        expect(set(modes) == {"map", "read", "memory"} and all(m["error"].startswith("Io: ") for m in modes.values()),
               f"bench --json of a missing file: an Io error per mode, got {modes}")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        expect(False, f"bench --json of a missing file: not the documented JSON ({e}): {p.stdout!r}")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="onnx-gauntlet-cli-escape-") as d:
        files = {}
        for name in NAMES:
            for accepted in (True, False):
                path = os.path.join(d.encode(), name + (b".onnx" if accepted else b"-undefined.onnx"))
                with open(path, "wb") as f:
                    f.write(minimal_model() if accepted else model(identity_graph(input_name=b"nowhere")))
                files[path] = accepted
        check_text_lines(binary, files)
        check_json(binary, files)
        check_messages(binary, d)
        check_dump(binary, d)
        check_bench_json(binary, d)
    return closing()


if __name__ == "__main__":
    sys.exit(main())
