"""The matrix's importers as processes: this importer's command line, one
process per file, and the peers' long-lived workers (peer_onnx.py, peer_opencv.py,
peer_protobufjs.js, peer_ort.js), one JSON request and one JSON answer per line, restarted
after a crash or a time-out. Each answer carries its seconds and how far the reader's memory
rose to give it (docs/matrix.md, "Memory"). Each peer is pinned and named with its version:
the Debian package's or the npm lock's.
"""
import json
import os
import resource
import select
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
from gauntlet import settings
from gauntlet.resident import reset_peak, status_kib
from gauntlet.report.peers_more import MORE_COLUMNS, more_specs

ONNX_PROTO = "/usr/include/onnx/onnx.proto"  # Debian libonnx-dev: the schema the libprotobuf peers use too
# Worker name -> the matrix columns it fills.
PEER_COLUMNS = {
    "python-onnx": ("onnx.load", "onnx.load-noext", "onnx.checker"),
    "opencv": ("opencv",),
    "protobufjs": ("protobufjs",),
    "onnxruntime": ("onnxruntime",),
    **MORE_COLUMNS,
}

# A hostile file may declare huge tensors; a peer that believes it must not take the
# machine down with it. 8 GiB of address space is far above what any case needs and
# leaves room for V8's and ORT's reservations.
ADDRESS_SPACE_LIMIT = 8 << 30
# A worker left resident past this after an answer (a wasm memory never shrinks; an allocator
# may keep what it freed) would meet the next file with its heap full, and its answer and
# memory would depend on the file before: it is started again instead.
RESTART_ABOVE_KIB = 1 << 20


def _limit_memory(limit=ADDRESS_SPACE_LIMIT):
    os.setsid()  # own process group, so a timeout kills the worker and its children
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass


def _signal_name(code):
    try:
        return signal.Signals(-code).name
    except (ValueError, TypeError):
        return f"exit {code}"


def _one_line(text, limit=400):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_ours(importer, path, timeout, options=None):
    """`onnximport check FILE`: ok, or KIND OFFSET FIELD_PATH MESSAGE (docs/cli.md)."""
    options = options or {}
    argv = [importer, "check"]
    if "max_nesting" in options:
        argv += ["--max-nesting", str(options["max_nesting"])]
    if "external_dir" in options:
        # Relative to the corpus folder, as the hostile test suite reads it.
        argv += ["--external-dir", os.path.join(os.path.dirname(path), str(options["external_dir"]))]
    if "ort_data" in options:
        argv += ["--ort-data", str(options["ort_data"])]
    if "threads" in options:
        argv += ["--threads", str(options["threads"])]
    done = _run_measured(argv + [path], timeout)
    if done is None:
        return {"outcome": "timeout", "message": f"no answer within {timeout} s", "seconds": timeout}
    returncode, out, err, seconds, peak_kib = done
    out = out.decode("utf-8", "replace").rstrip("\n")
    err = err.decode("utf-8", "replace")
    verdict = _ours_verdict(returncode, out, err)
    verdict.update(seconds=seconds, memory_kib=peak_kib)
    return verdict


def _run_measured(argv, timeout):
    """(exit code or -signal, stdout, stderr, seconds, peak resident KiB) of one process under
    the matrix's limits, or None when it outlives `timeout` (then it is killed). wait4 gives
    the process's own peak, which subprocess's wait does not."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, preexec_fn=_limit_memory)
        ended = os.pidfd_open(proc.pid)  # readable when the process ends
        try:
            ready, _, _ = select.select([ended], [], [], timeout)
        finally:
            os.close(ended)
        if not ready:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = round(time.monotonic() - start, 4)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read(), err.read(), seconds, usage.ru_maxrss


def _ours_verdict(returncode, out, err):
    """The verdict of `onnximport check`'s exit code and last line."""
    if returncode < 0 or returncode not in (0, 1):
        return {"outcome": "crashed", "message": _one_line(f"{_signal_name(returncode)}: {err[-600:]}")}
    fields = out.split("\n")[-1].split("\t") if out else []
    if returncode == 0 and len(fields) >= 2 and fields[1] == "ok":
        return {"outcome": "accepted", "message": ""}
    if returncode == 1 and len(fields) >= 5:
        return {
            "outcome": "refused",
            "kind": fields[1],
            "offset": None if fields[2] == "-" else int(fields[2]),
            "field_path": None if fields[3] == "-" else fields[3],
            "message": _one_line("\t".join(fields[4:])),
        }
    return {"outcome": "crashed",
            "message": _one_line(f"unexpected output (exit {returncode}): {out[-300:]} {err[-300:]}")}


class Worker:
    """A long-lived peer process speaking one JSON line per request and per answer."""

    def __init__(self, name, argv, log_path, startup_timeout=60, cwd=None, address_space=ADDRESS_SPACE_LIMIT):
        self.name = name
        self.address_space = address_space
        self.argv = argv
        self.cwd = cwd
        self.log_path = log_path
        self.startup_timeout = startup_timeout
        self.proc = None
        self.buffer = b""
        self.version = None
        self.restarts = 0
        self.memory_kib = None
        self.log = open(log_path, "ab")

    def _read_line(self, timeout):
        """One answer line, or None on timeout; raises EOFError when the process ended."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def start(self):
        self.buffer = b""
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            preexec_fn=lambda: _limit_memory(self.address_space), cwd=self.cwd,
        )
        line = self._read_line(self.startup_timeout)
        if line is None:
            self.kill()
            raise RuntimeError(f"{self.name}: worker did not start within {self.startup_timeout} s")
        hello = json.loads(line)
        self.version = hello.get("version")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
        self.proc = None

    def _log_tail(self, since):
        self.log.flush()
        with open(self.log_path, "rb") as f:
            f.seek(since)
            return f.read()[-600:].decode("utf-8", "replace")

    def request(self, request, timeout):
        """(answer dict, seconds) or a crash/timeout verdict; the worker restarts lazily.
        Afterwards `memory_kib` is how far the worker's resident memory rose above its size at
        the request (None after a crash, or where the peak cannot be reset)."""
        if self.proc is None:
            self.start()
            self.restarts += 1
        log_mark = os.path.getsize(self.log_path)
        pid = self.proc.pid
        base = status_kib(pid, "VmRSS") if reset_peak(pid) else None
        self.memory_kib = None
        start = time.monotonic()
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
            line = self._read_line(timeout)
        except (EOFError, BrokenPipeError):
            code = self.proc.wait()
            self.proc = None
            # The message keeps the end of what the worker printed; the log keeps all of it.
            return {"crashed": f"{_signal_name(code)}: {self._log_tail(log_mark)} (all of it: {self.log_path} "
                               f"from byte {log_mark})"}, time.monotonic() - start
        peak = status_kib(pid, "VmHWM")
        if base is not None and peak is not None:
            self.memory_kib = max(0, peak - base)
        if line is None:
            self.kill()
            return {"timeout": f"no answer within {timeout} s"}, timeout
        seconds = time.monotonic() - start
        if (status_kib(pid, "VmRSS") or 0) > RESTART_ABOVE_KIB:
            self.kill()
        return json.loads(line), seconds

    def close(self):
        if self.proc:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
                self.kill()
        self.log.close()


def _verdict(answer, seconds, key=None):
    if "crashed" in answer:
        return {"outcome": "crashed", "message": _one_line(answer["crashed"]), "seconds": round(seconds, 4)}
    if "timeout" in answer:
        return {"outcome": "timeout", "message": answer["timeout"], "seconds": round(seconds, 4)}
    part = answer[key] if key else answer
    verdict = {"outcome": part.get("outcome", "crashed"), "message": part.get("message", ""),
               "seconds": round(seconds, 4)}
    if isinstance(part.get("read"), dict):  # what it read (docs/matrix.md)
        verdict["read"] = part["read"]
    for field in ("error_type", "language"):  # what was thrown (docs/matrix.md, "Internal errors")
        if part.get(field):
            verdict[field] = str(part[field])
    return verdict


def deb_version(package):
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def peer_specs(peer_dir):
    """name -> {argv, requests [(mode, [(column, answer key)])], version(worker version) -> str} or {reason}."""
    specs = {}
    onnx_deb, cv_deb, proto_deb = deb_version("python3-onnx"), deb_version("python3-opencv"), deb_version("libonnx-dev")
    specs["python-onnx"] = {
        "argv": settings.module_argv("gauntlet.report.peer_onnx"),
        "requests": [("noext", [("onnx.load-noext", "noext")]), ("load", [("onnx.load", "load"), ("onnx.checker", "check")])],
        "version": lambda v: f"onnx {v} (Debian python3-onnx {onnx_deb or '?'})"}
    if cv_deb:
        specs["opencv"] = {"argv": settings.module_argv("gauntlet.report.peer_opencv"), "requests": [("load", [("opencv", None)])],
                           "version": lambda v: f"OpenCV {v} (Debian python3-opencv {cv_deb})"}
    else:
        specs["opencv"] = {"reason": "Debian python3-opencv is not installed (tools/install_deps.sh python3-opencv)"}
    pbjs = os.path.join(peer_dir, "node_modules", "protobufjs")
    if os.path.isfile(os.path.join(pbjs, "package.json")) and os.path.isfile(ONNX_PROTO):
        specs["protobufjs"] = {"argv": ["node", os.path.join(HERE, "peer_protobufjs.js"), pbjs, ONNX_PROTO],
                               "requests": [("load", [("protobufjs", None)])],
                               "version": lambda v: f"protobufjs {v} (npm), schema {ONNX_PROTO} of Debian libonnx-dev {proto_deb or '?'}"}
    else:
        specs["protobufjs"] = {"reason": f"protobufjs is not installed in {peer_dir} (tools/install_peer.sh) or {ONNX_PROTO} is missing"}
    ort = os.path.join(peer_dir, "node_modules", "onnxruntime-node")
    if os.path.isfile(os.path.join(ort, "package.json")):
        specs["onnxruntime"] = {"argv": ["node", os.path.join(HERE, "peer_ort.js"), ort], "requests": [("load", [("onnxruntime", None)])],
                                "version": lambda v: f"onnxruntime-node {v} (npm, --ignore-scripts)"}
    else:
        specs["onnxruntime"] = {"reason": f"onnxruntime-node is not installed in {peer_dir} (tools/install_peer.sh installs it)"}
    specs.update(more_specs(peer_dir, onnx_deb))
    return specs


def run_peer(name, spec, cases, log_dir, cwd, timeout, results, progress):
    worker = Worker(name, spec["argv"], os.path.join(log_dir, f"peer_{name}.log"), cwd=cwd,
                    address_space=spec.get("address_space", ADDRESS_SPACE_LIMIT))
    started = time.monotonic()
    try:
        worker.start()
    except Exception as e:  # noqa: BLE001 - any start failure means "not run"
        # An end of output at start (EOFError) has no message of its own: the log has the why.
        why = f"{type(e).__name__} {e}".strip()
        return {"status": "not run", "reason": f"{why} (the worker's log: {worker.log_path})"}
    for case in cases:
        for mode, columns in spec["requests"]:
            request = {"path": os.path.abspath(case["path"]), "mode": mode}
            answer, seconds = worker.request(request, timeout)
            first_run = None
            if "crashed" in answer:
                # Judged on a fresh worker: a crash counts when the file alone makes it, not the
                # files the worker read before it (docs/matrix.md, "The worker protocol").
                first_run = _verdict(answer, seconds)
                answer, seconds = worker.request(request, timeout)
            for i, (column, key) in enumerate(columns):
                v = _verdict(answer, seconds, key)
                if first_run and v["outcome"] != "crashed":
                    v["first_run"] = first_run
                if worker.memory_kib is not None:
                    v["memory_kib"] = worker.memory_kib
                if i == 0 and isinstance(answer.get("tensors"), dict):
                    v["tensors"] = answer["tensors"]
                results[case["file"]][column] = v
        progress(name)
    worker.close()
    # Wall-clock seconds of this worker over every case (docs/matrix.md, time per peer).
    return {"status": "run", "version": spec["version"](worker.version), "restarts": worker.restarts,
            "seconds": round(time.monotonic() - started, 1)}


