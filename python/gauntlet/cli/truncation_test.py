"""A mapped model file truncated by another process during `dump` (docs/cli.md
"A file that shrinks"): the CLI refuses that file as Io instead of dying of SIGBUS. The
CLI stops itself between the import and the dump (ONNXIMPORT_TEST_STOP_AFTER_IMPORT), this
test shrinks the file, then lets it go on, so the timing is exact.

usage: cli_truncation.py PATH/TO/onnximport
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

from gauntlet.cli.expect import closing, expect
from gauntlet.cli.escape import problems
from gauntlet.cli.wire import identity_graph, model, raw_initializer

PAYLOAD = 4 << 20  # well above the 1 MiB mapping threshold: the file is mapped



def wait_stopped(pid, seconds=30):
    """True once the process is stopped (state T in /proc/PID/stat)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        if state in ("T", "t"):
            return True
        time.sleep(0.01)
    return False


def dump_with_pause(binary, path, shrink_to):
    """Runs dump, truncates the file to shrink_to bytes (None: leaves it) while stopped."""
    env = dict(os.environ, ONNXIMPORT_TEST_STOP_AFTER_IMPORT="1")
    p = subprocess.Popen([binary, "dump", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stopped = wait_stopped(p.pid)
    if stopped and shrink_to is not None:
        os.truncate(path, shrink_to)
    p.send_signal(signal.SIGCONT)
    out, err = p.communicate(timeout=120)
    return stopped, p.returncode, out, err


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    data = model(identity_graph(initializers=raw_initializer("w", PAYLOAD)))
    with tempfile.TemporaryDirectory(prefix="onnx-gauntlet-cli-truncation-") as d:
        path = os.path.join(d, "big.onnx")
        with open(path, "wb") as f:
            f.write(data)
        # The same pause without truncation: the dump is whole (the pause changes nothing).
        stopped, rc, out, err = dump_with_pause(binary, path, None)
        expect(stopped, "the CLI stopped after the import")
        expect(rc == 0 and b"bytes %d\n" % PAYLOAD in out, f"untouched file: dumped, got {rc} {err!r}")
        for shrink_to in (0, 100, len(data) // 2):
            with open(path, "wb") as f:
                f.write(data)
            stopped, rc, out, err = dump_with_pause(binary, path, shrink_to)
            what = f"truncated to {shrink_to} bytes during dump"
            expect(stopped, f"{what}: the CLI stopped after the import")
            expect(rc == 1, f"{what}: exit 1 (refused), got {rc} (negative: killed by signal {-rc})")
            expect(out == b"", f"{what}: no partial dump on stdout, got {len(out)} bytes")
            lines = err.rstrip(b"\n").split(b"\n")
            expect(len(lines) == 1 and lines[0].startswith(b"onnximport: Io: ") and b"shrank" in lines[0]
                   and not problems(lines[0]), f"{what}: one Io refusal on stderr, got {err!r}")
    return closing()


if __name__ == "__main__":
    sys.exit(main())
