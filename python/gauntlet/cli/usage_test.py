"""Strict command lines (docs/cli.md "Options"): every usage error of
every subcommand exits 2 with nothing on stdout and a reason on stderr; `--` ends the
options; `--help` and `--version` only alone; `-` reads the model from standard input
(external data refused there unless --external-dir is given, and for .ort --ort-data).

usage: cli_usage.py PATH/TO/onnximport
"""
import os
import re
import subprocess
import sys
import tempfile

from gauntlet.cli.expect import closing, expect
from gauntlet.cli.wire import deep_type_model, field_int, field_len, identity_graph, minimal_model, model

from gauntlet.settings import ROOT



def run(binary, *args, stdin=b"", cwd=None):
    p = subprocess.run([binary, *args], input=stdin, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def external_model():
    """An initializer whose four floats live in w.bin beside the model (spec section 5)."""
    entry = field_len(1, "location") + field_len(2, "w.bin")
    tensor = field_int(1, 4) + field_int(2, 1) + field_len(8, "w") + field_len(13, entry) + field_int(14, 1)
    return model(identity_graph(initializers=field_len(5, tensor)))


def usage_errors(binary, ok, deep):
    cases = [
        [], ["frobnicate", ok], ["--version", "extra"], ["--help", "extra"],
        ["check"], ["check", "--"], ["check", "--bogus", ok], ["check", "-x", ok], ["check", "--json=1", ok],
        ["check", "--max-nesting"], ["check", ok, "--max-nesting"],
        ["check", "--max-nesting", "9", "--max-nesting", "9", ok],
        ["check", "--external-dir", "", ok], ["check", "--ort-data", "", ok], ["check", "-", "-"],
        ["check", ok, "--help"], ["check", "--help", ok], ["check", "-h", ok],
        ["dump"], ["dump", ok, ok], ["dump", "--json", ok], ["dump", "--max-nesting"], ["dump", ok, "--ort-data"],
        ["bench"], ["bench", "-"], ["bench", ok, ok], ["bench", "--repeat", ok], ["bench", ok, "--repeat"],
        ["bench", "--memory=1", ok], ["bench", "--memory", "--memory", ok], ["check", "--memory", ok],
    ]
    for value in ("7", "251", "x", "9x", "", " 9", "+9", "0x10", "9.0", "99999999999999999999"):
        cases.append(["check", "--max-nesting", value, deep])
        cases.append(["check", "--max-nesting=" + value, deep])
    for value in ("abc", "0", "-1", "1e3", "10001", "2 "):
        cases.append(["bench", "--repeat", value, ok])
    for args in cases:
        rc, out, err = run(binary, *args)
        expect(rc == 2, f"usage {args}: exit 2, got {rc}")
        expect(out == "", f"usage {args}: empty stdout, got {out!r}")
        expect(err.startswith("onnximport") or err.startswith("usage"), f"usage {args}: a reason on stderr, got {err!r}")


def help_and_version(binary):
    for args in (["--help"], ["-h"], ["help"], ["check", "--help"], ["dump", "--help"], ["bench", "-h"]):
        rc, out, _ = run(binary, *args)
        expect(rc == 0 and out.startswith("usage: onnximport"), f"{args}: exit 0 with help text, got {rc} {out!r}")
    with open(os.path.join(ROOT, "importer", "include", "onnximport", "version.hpp")) as f:
        parts = dict(re.findall(r"#define ONNXIMPORT_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
    rc, out, _ = run(binary, "--version")
    expected = "onnximport %s.%s.%s\n" % (parts["MAJOR"], parts["MINOR"], parts["PATCH"])
    expect(rc == 0 and out == expected, f"--version: {expected!r}, got {rc} {out!r}")


def options_anywhere(binary, d, deep):
    """`--` makes option-like names files; options may follow the files; `=` values."""
    for name in ("--help", "-x.onnx", "--max-nesting"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(minimal_model())
    rc, out, _ = run(binary, "check", "--", "--help", "-x.onnx", "--max-nesting", cwd=d)
    expect(rc == 0 and out == "--help\tok\n-x.onnx\tok\n--max-nesting\tok\n", f"check -- NAMES: got {rc} {out!r}")
    rc, out, _ = run(binary, "check", "--max-nesting=8", deep)
    expect(rc == 1, f"--max-nesting=8 refuses the deep model, got {rc}")
    rc, out, _ = run(binary, "check", deep, "--max-nesting", "9")
    expect(rc == 0, f"--max-nesting 9 after the file accepts it, got {rc} {out!r}")
    rc, out, _ = run(binary, "dump", "--", "--help", cwd=d)
    expect(rc == 0 and out.startswith("onnx-gauntlet-dump 1\n"), f"dump -- --help dumps the file, got {rc}")


def standard_input(binary, d, ok):
    rc, out, err = run(binary, "check", "-", stdin=minimal_model())
    expect(rc == 0 and out == "-\tok\n", f"check - : ok, got {rc} {out!r} {err!r}")
    rc, out, _ = run(binary, "check", "-", stdin=minimal_model() + b"\x80")
    expect(rc == 1 and out.startswith("-\tMalformed\t"), f"check - of a cut model: Malformed, got {out!r}")
    rc, out, _ = run(binary, "check", "-", stdin=b"")
    expect(rc == 1 and out.startswith("-\tInvalidModel\t"), f"check - of nothing: InvalidModel, got {out!r}")
    _, from_file, _ = run(binary, "dump", ok)
    rc, from_stdin, _ = run(binary, "dump", "-", stdin=minimal_model())
    expect(rc == 0 and from_stdin == from_file, "dump - writes what dump FILE writes")
    ext = os.path.join(d, "external.onnx")
    with open(ext, "wb") as f:
        f.write(external_model())
    with open(os.path.join(d, "w.bin"), "wb") as f:
        f.write(bytes(16))
    rc, out, _ = run(binary, "check", ext)
    expect(rc == 0, f"check of the external-data file: ok, got {out!r}")
    rc, out, _ = run(binary, "check", "-", stdin=external_model())
    expect(rc == 1 and out.startswith("-\tExternalData\t"), f"check - with external data: refused, got {out!r}")
    rc, out, _ = run(binary, "check", "--external-dir", d, "-", stdin=external_model())
    expect(rc == 0 and out == "-\tok\n", f"check --external-dir DIR - : ok, got {rc} {out!r}")


def ort_companion(binary, d):
    """--ort-data names a .ort model's companion file (docs/ort.md, "External data"); the
    model and its bytes come from the committed hostile corpus."""
    corpus = os.path.join(ROOT, "hostile", "corpus")
    with open(os.path.join(corpus, "accept-ort-external-basic.ort"), "rb") as f:
        ort = f.read()
    with open(os.path.join(corpus, "accept-ort-external-basic.ort.data"), "rb") as f:
        data = f.read()
    m = os.path.join(d, "m.ort")
    with open(m, "wb") as f:
        f.write(ort)
    with open(m + ".data", "wb") as f:
        f.write(data)
    rc, out, _ = run(binary, "check", m)
    expect(rc == 0, f"check of a .ort beside its companion: ok, got {rc} {out!r}")
    rc, out, _ = run(binary, "check", "-", stdin=ort)
    expect(rc == 1 and "\tExternalData\t" in out, f"check - of a .ort with external data: refused, got {out!r}")
    rc, out, _ = run(binary, "check", "--external-dir", d, "--ort-data", "m.ort.data", "-", stdin=ort)
    expect(rc == 0 and out == "-\tok\n", f"check --external-dir DIR --ort-data FILE - : ok, got {rc} {out!r}")
    os.rename(m + ".data", os.path.join(d, "w.bin"))
    rc, out, _ = run(binary, "check", m)
    expect(rc == 1 and "\tExternalData\t" in out, f"check without the companion: refused, got {out!r}")
    rc, out, _ = run(binary, "dump", "--ort-data", "w.bin", m)
    expect(rc == 0 and "source external\n" in out, f"dump --ort-data w.bin: dumped from w.bin, got {rc}")
    rc, out, _ = run(binary, "check", "--ort-data=../w.bin", m)
    expect(rc == 1 and "\tExternalData\t" in out, f"--ort-data with a '..' segment: refused, got {out!r}")
    # A model that names its companion (docs/rules.md, O7) is imported with it in every mode,
    # bench --memory's bytes included: no FILE.data is put in place of the model's name.
    named = os.path.join(corpus, "accept-ort-external-named-by-metadata.ort")
    rc, out, _ = run(binary, "bench", "--repeat", "1", "--memory", named)
    expect(rc == 0 and out.count("\n") == 3 and "error" not in out,
           f"bench --memory of a .ort that names its companion: three modes, got {rc} {out!r}")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])  # some runs change the working directory
    with tempfile.TemporaryDirectory(prefix="onnx-gauntlet-cli-usage-") as d:
        ok, deep = os.path.join(d, "ok.onnx"), os.path.join(d, "deep.onnx")
        for path, data in ((ok, minimal_model()), (deep, deep_type_model(9))):
            with open(path, "wb") as f:
                f.write(data)
        usage_errors(binary, ok, deep)
        help_and_version(binary)
        options_anywhere(binary, d, deep)
        standard_input(binary, d, ok)
        ort_companion(binary, d)
    return closing()


if __name__ == "__main__":
    sys.exit(main())
