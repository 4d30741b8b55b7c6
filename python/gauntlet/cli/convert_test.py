"""`onnximport convert` (docs/cli.md "convert"): exit codes, usage errors, the
.onnx output with aligned external data read back by `check` and `dump`, `.ort` output
and back to `.onnx` with equal dumps, a taken external-data name giving a generation name, a target folder that is a link out or a link at OUT refused
with nothing written, no output or companion file that is the input or a file it reads (by
device and inode, a hard link too) with the input untouched, and the progress line for an
input over 64 MiB (rewritten in place on a terminal, only its last state in a log).

usage: cli_convert.py PATH/TO/onnximport
"""
import os
import pty
import re
import subprocess
import sys
import tempfile

from gauntlet.cli.expect import closing, expect
from gauntlet.cli.wire import field_int, field_len, identity_graph, minimal_model, model, raw_initializer, value_info


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def weights_model(size):
    return model(identity_graph(initializers=raw_initializer("W", size)))


def external_offsets(binary, path):
    rc, out, _ = run(binary, "dump", path)
    expect(rc == 0, f"dump {path}: exit 0, got {rc}")
    return [int(m) for m in re.findall(r'external_data "offset" "(\d+)"', out)], out


def converts_with_aligned_external_data(binary, tmp):
    src = os.path.join(tmp, "w.onnx")
    write(src, weights_model(4096))
    _, original = external_offsets(binary, src)
    for alignment in ("1", "64", "4096"):
        out_dir = os.path.join(tmp, "a" + alignment)
        os.mkdir(out_dir)
        out = os.path.join(out_dir, "m.onnx")
        rc, stdout, err = run(binary, "convert", "--external-data", "m.data", "--threshold", "100",
                              "--alignment", alignment, "--threads", "2", src, out)
        expect(rc == 0 and stdout == "", f"convert --alignment {alignment}: exit 0, quiet; got {rc} {err!r}")
        expect(sorted(os.listdir(out_dir)) == ["m.data", "m.onnx"], f"alignment {alignment}: two files, got "
                                                                    f"{os.listdir(out_dir)}")
        offsets, dumped = external_offsets(binary, out)
        expect(len(offsets) == 1 and offsets[0] % int(alignment) == 0, f"alignment {alignment}: offsets {offsets}")
        expect(dumped.count("sha256") == original.count("sha256") and
               re.findall(r"sha256 \w+", dumped) == re.findall(r"sha256 \w+", original),
               f"alignment {alignment}: the bytes read back are the original's")
    rc, _, _ = run(binary, "check", os.path.join(tmp, "a64", "m.onnx"))
    expect(rc == 0, "check of the converted model: exit 0")


def a_taken_data_name_gets_a_generation(binary, tmp):
    """A second convert into the folder writes the data under `w.<16 hex>.bin`, says so in one line on
    stderr, and removes the superseded file; a third takes the free name again (docs/write.md, "Generations").
    The same for a .ort and its companion, which the .ort names (docs/rules.md, O7)."""
    src = os.path.join(tmp, "g.onnx")
    write(src, weights_model(4096))
    for model, data in (("m.onnx", "m.data"), ("m.ort", "m.ort.data")):
        out_dir = os.path.join(tmp, "generations-" + model)
        os.mkdir(out_dir)
        out = os.path.join(out_dir, model)
        for turn in range(3):
            rc, _, err = run(binary, "convert", "--external-data", data, src, out)
            names = sorted(os.listdir(out_dir))
            if turn == 1:
                generation = [n for n in names if re.fullmatch(r"w\.[0-9a-f]{16}\.bin", n)]
                expect(rc == 0 and len(names) == 2 and len(generation) == 1,
                       f"{model} over a pair: the data under a generation name, the old removed; got {rc} {names}")
                expect(err.count("\n") == 1 and f"external data written as '{generation[0]}': '{data}' exists" in err,
                       f"{model}: one line naming the generation and why; got {err!r}")
            else:
                expect(rc == 0 and err == "" and names == sorted([data, model]),
                       f"{model} turn {turn}: {rc} {names} {err!r}")
            rc, _, _ = run(binary, "check", out)
            expect(rc == 0, f"{model} turn {turn}: the model in the folder checks")


def refusals_leave_nothing(binary, tmp):
    src = os.path.join(tmp, "src.onnx")
    write(src, weights_model(2048))
    os.mkdir(os.path.join(tmp, "outside"))
    os.symlink(os.path.join(tmp, "outside"), os.path.join(tmp, "linkdir"))
    rc, _, err = run(binary, "convert", "--external-data", "m.data", "--threshold", "0", src,
                     os.path.join(tmp, "linkdir", "m.onnx"))
    expect(rc == 1 and "Unsupported" in err, f"a target folder that is a link: exit 1, Unsupported; got {rc} {err!r}")
    expect(os.listdir(os.path.join(tmp, "outside")) == [], "nothing written through the link")
    victim = os.path.join(tmp, "victim")
    write(victim, b"keep")
    os.mkdir(os.path.join(tmp, "out"))
    os.symlink(victim, os.path.join(tmp, "out", "m.onnx"))
    rc, _, err = run(binary, "convert", src, os.path.join(tmp, "out", "m.onnx"))
    expect(rc == 1, f"a link at OUT: exit 1, got {rc}")
    expect(open(victim, "rb").read() == b"keep", "the link's target is not clobbered")
    for name in ("../escape.data", "/tmp/abs.data"):
        rc, _, err = run(binary, "convert", "--external-data", name, "--threshold", "0", src,
                         os.path.join(tmp, "out", "n.onnx"))
        expect(rc == 1 and "ExternalData" in err, f"--external-data {name}: exit 1, ExternalData; got {rc} {err!r}")
    expect(sorted(os.listdir(os.path.join(tmp, "out"))) == ["m.onnx"], "the refusals left nothing in out/")
    expect(not os.path.exists(os.path.join(tmp, "escape.data")), "nothing escaped")
    ort_cases(binary, src, os.path.join(tmp, "out"))


def the_input_survives(binary, tmp):
    """No output replaces the input model or its external-data file (docs/write.md)."""
    d = os.path.join(tmp, "survive")
    os.mkdir(d)
    plain, src = os.path.join(tmp, "survive-src.onnx"), os.path.join(d, "in.onnx")
    write(plain, weights_model(4096))
    rc, _, err = run(binary, "convert", "--external-data", "w.bin", "--threshold", "0", plain, src)
    expect(rc == 0, f"an input with external data: exit 0; got {rc} {err!r}")
    os.link(src, os.path.join(d, "hard.onnx"))
    os.link(src, os.path.join(d, "hard.ort"))
    before = {name: open(os.path.join(d, name), "rb").read() for name in ("in.onnx", "w.bin")}
    cases = [["--external-data", "in.onnx", src, os.path.join(d, "o.onnx")],
             ["--external-data", "w.bin", "--threshold", "0", src, os.path.join(d, "o.onnx")],
             [src, src], [src, os.path.join(d, "hard.onnx")], [src, os.path.join(d, "hard.ort")]]
    for args in cases:
        rc, _, err = run(binary, "convert", *args)
        expect(rc == 1 and "Unsupported" in err and "the input model or a file it reads" in err,
               f"convert {args}: exit 1, refused as the input; got {rc} {err!r}")
    after = {name: open(os.path.join(d, name), "rb").read() for name in ("in.onnx", "w.bin")}
    expect(after == before, "the input model and its external data are unchanged")
    expect(sorted(os.listdir(d)) == ["hard.onnx", "hard.ort", "in.onnx", "w.bin"], f"nothing else written: {os.listdir(d)}")
    rc, _, err = run(binary, "check", src)
    expect(rc == 0, f"the input still checks; got {rc} {err!r}")


def ort_cases(binary, src, out):
    """.onnx -> .ort -> .onnx, dumps equal; external .ort only with its companion's name."""
    ort, back = os.path.join(out, "m.ort"), os.path.join(out, "back.onnx")
    rc, _, err = run(binary, "convert", src, ort)
    expect(rc == 0 and os.path.exists(ort), f".ort OUT: exit 0 and written; got {rc} {err!r}")
    rc, _, err = run(binary, "convert", ort, back)
    expect(rc == 0, f".ort IN, .onnx OUT: exit 0; got {rc} {err!r}")
    dumps = [run(binary, "dump", f)[1] for f in (src, ort, back)]
    # A .ort has no graph names: its .onnx names the main graph (docs/write.md, "From a .ort").
    named = dumps[1].replace('graph\n  name ""\n', 'graph\n  name "main_graph"\n', 1)
    expect(named != dumps[1] and dumps[2] == named, "the .onnx of a .ort dumps as the .ort, its main graph named")
    hashes = [sorted(line for line in d.splitlines() if "sha256" in line) for d in dumps]
    expect(hashes[0] == hashes[1], "the .ort holds the .onnx's tensors (the dumps differ only by docs/ort-normalizations.md)")
    expect(err == "", f"a .ort of typed values: nothing on stderr; got {err!r}")
    # An operator without a type rule (Gradient): the value is written untyped, and convert says so.
    training = "ai.onnx.preview.training"
    node = field_len(1, "X") + field_len(2, "U") + field_len(4, "Gradient") + field_len(7, training)
    untyped_src = os.path.join(out, "..", "untyped.onnx")
    with open(untyped_src, "wb") as f:
        f.write(model(field_len(1, node) + field_len(11, value_info("X")) + field_len(12, field_len(1, "U"))) +
                field_len(8, field_len(1, training) + field_int(2, 1)))
    rc, _, err = run(binary, "convert", untyped_src, os.path.join(out, "u.ort"))
    expect(rc == 0 and "1 value(s) written without a type" in err and "'U' of Gradient" in err,
           f"an untyped value: exit 0 and a note on stderr; got {rc} {err!r}")
    # An operator outside onnx's: refused by name, nothing written.
    custom = field_len(1, "X") + field_len(2, "U") + field_len(4, "Mystery")
    with open(untyped_src, "wb") as f:
        f.write(model(field_len(1, custom) + field_len(11, value_info("X")) + field_len(12, field_len(1, "U"))))
    rc, _, err = run(binary, "convert", untyped_src, os.path.join(out, "c.ort"))
    expect(rc == 1 and "Unsupported" in err and "operator Mystery at opset 21" in err and
           not os.path.exists(os.path.join(out, "c.ort")), f"an unknown operator: exit 1, by name; got {rc} {err!r}")
    rc, _, err = run(binary, "convert", "--external-data", "other.data", src, os.path.join(out, "x.ort"))
    expect(rc == 1 and "Unsupported" in err and "x.ort.data" in err, f"a .ort companion under another name: {rc} {err!r}")
    expect(not os.path.exists(os.path.join(out, "x.ort")), "the refused .ort was not written")
    rc, _, err = run(binary, "convert", "--external-data", "e.ort.data", "--threshold", "0", "--alignment", "64",
                     src, os.path.join(out, "e.ort"))
    expect(rc == 0 and os.path.exists(os.path.join(out, "e.ort.data")), f"external .ort: exit 0; got {rc} {err!r}")
    target = os.path.join(out, "p.ort")  # the companion named as OUT's path plus .data
    rc, _, err = run(binary, "convert", "--external-data", target + ".data", src, target)
    expect(rc == 0 and os.path.exists(target + ".data"), f"external .ort by the companion's path: {rc} {err!r}")


def usage_errors(binary, tmp):
    ok = os.path.join(tmp, "ok.onnx")
    write(ok, minimal_model())
    out = os.path.join(tmp, "usage", "o.onnx")
    os.mkdir(os.path.dirname(out))
    cases = [["convert"], ["convert", ok], ["convert", ok, out, out], ["convert", ok, out + ".txt"],
             ["convert", "--alignment", "3", ok, out], ["convert", "--alignment", "0", ok, out],
             ["convert", "--alignment", "2147483648", ok, out], ["convert", "--threads", "0", ok, out],
             ["convert", "--threshold", "-1", ok, out], ["convert", "--external-data", "", ok, out],
             ["convert", "--json", ok, out]]
    for args in cases:
        rc, stdout, err = run(binary, *args)
        expect(rc == 2 and stdout == "" and err, f"usage {args}: exit 2 with a reason, got {rc} {err!r}")
    expect(os.listdir(os.path.dirname(out)) == [], "usage errors wrote nothing")
    rc, _, err = run(binary, "convert", os.path.join(tmp, "missing.onnx"), out)
    expect(rc == 1 and "Io" in err, f"a missing IN: exit 1, Io; got {rc} {err!r}")


def progress_for_large_inputs(binary, tmp):
    small, large = os.path.join(tmp, "small.onnx"), os.path.join(tmp, "large.onnx")
    write(small, weights_model(1 << 20))
    write(large, weights_model(65 << 20))
    rc, _, err = run(binary, "convert", small, os.path.join(tmp, "small-out.onnx"))
    expect(rc == 0 and err == "", f"1 MiB: no progress line, got {err!r}")
    rc, _, err = run(binary, "convert", "--external-data", "large.data", large, os.path.join(tmp, "large-out.onnx"))
    expect(rc == 0 and err == "onnximport: convert: 100% (65 of 65 MiB)\n", f"65 MiB to a log: the last line only, got {err!r}")
    expect(os.path.getsize(os.path.join(tmp, "large.data")) == 65 << 20, "65 MiB: the weights went external")
    err = stderr_on_a_terminal([binary, "convert", large, os.path.join(tmp, "large-out.ort")])
    steps = re.findall(r"\ronnximport: convert: (\d+)% \((\d+) of 65 MiB\)", err)
    expect(len(steps) >= 2 and steps[-1] == ("100", "65") and err.endswith("MiB)\n"),
           f"65 MiB on a terminal: the line rewritten in place as the write goes, got {err!r}")


def stderr_on_a_terminal(command):
    """What `command` writes to its stderr when that is a terminal (a pseudo-terminal)."""
    controller, terminal = pty.openpty()
    p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    out = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO once the child has closed the terminal
            break
        if not chunk:
            break
        out += chunk
    p.wait()
    os.close(controller)
    return out.decode("utf-8", "replace").replace("\r\n", "\n")


def main(argv):
    binary = argv[1]
    with tempfile.TemporaryDirectory(prefix="cli-convert-") as tmp:
        converts_with_aligned_external_data(binary, tmp)
        a_taken_data_name_gets_a_generation(binary, tmp)
        refusals_leave_nothing(binary, tmp)
        the_input_survives(binary, tmp)
        usage_errors(binary, tmp)
        progress_for_large_inputs(binary, tmp)
    return closing()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
