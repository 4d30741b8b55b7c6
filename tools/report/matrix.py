#!/usr/bin/python3
"""The cross-importer matrix (issue 8), in the spirit of JSONTestSuite's parsing matrix.

Every case of the hostile corpus (refusals and `accept-` cases) goes through four
importers: this one (`onnximport check`), the Python onnx package (onnx.load, and
onnx.load + onnx.checker.check_model(full_check=True)), and ONNX Runtime from npm
(InferenceSession.create). Each runs in a subprocess with a timeout and each result is
classified as accepted, refused, crashed or timed out, then compared with what the spec
expects (the file name's kind; spec section 8). The point is to show importer authors
where their importer differs from the spec.

Our importer runs as one process per file (it starts in milliseconds and a crash then
touches one case only). The peers are long-lived workers (peer_onnx.py, peer_ort.js)
answering one file per request, restarted after a crash or a timeout; the two peers run
side by side, one per core.

    matrix.py --corpus DIR --importer build/bin/onnximport --peer-dir build/peer \
              --out build/report/matrix.json [--timeout 10]
"""
import argparse
import json
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import load_corpus  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"

# The four columns, in the order the report shows them.
IMPORTERS = [
    ("onnximport", "onnx-gauntlet (this importer)"),
    ("onnx.load", "Python onnx: onnx.load"),
    ("onnx.checker", "Python onnx: onnx.load + check_model(full_check=True)"),
    ("onnxruntime", "ONNX Runtime (npm onnxruntime-node): InferenceSession.create"),
]

# A hostile file may declare huge tensors; a peer that believes it must not take the
# machine down with it. 8 GiB of address space is far above what any case needs and
# leaves room for V8's and ORT's reservations.
ADDRESS_SPACE_LIMIT = 8 << 30


def _limit_memory():
    os.setsid()  # own process group, so a timeout kills the worker and its children
    try:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))
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


def applies(case, importer):
    """Whether the spec fixes this importer's outcome for this case.

    A case with import options (max_nesting, external_dir, import from bytes) tests this
    importer's options; the peers have none of them, so their outcome there is shown but
    not judged. `import: bytes` cannot be asked of a command line that opens files, so
    that case is judged by the hostile test suite (hostile_tests), not here.
    """
    options = case.get("options") or {}
    if importer == "onnximport":
        return options.get("import") != "bytes"
    return not options


def run_ours(importer, path, timeout, options=None):
    """`onnximport check FILE`: ok, or KIND OFFSET FIELD_PATH MESSAGE (ARCHITECTURE.md CLI)."""
    options = options or {}
    argv = [importer, "check"]
    if "max_nesting" in options:
        argv += ["--max-nesting", str(options["max_nesting"])]
    if "external_dir" in options:
        # Relative to the corpus folder, as the hostile test suite reads it.
        argv += ["--external-dir", os.path.join(os.path.dirname(path), str(options["external_dir"]))]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            argv + [path], capture_output=True, timeout=timeout,
            preexec_fn=_limit_memory,
        )
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "message": f"no answer within {timeout} s", "seconds": timeout}
    seconds = round(time.monotonic() - start, 4)
    out = proc.stdout.decode("utf-8", "replace").rstrip("\n")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode < 0 or proc.returncode not in (0, 1):
        return {"outcome": "crashed", "seconds": seconds,
                "message": _one_line(f"{_signal_name(proc.returncode)}: {err[-600:]}")}
    fields = out.split("\n")[-1].split("\t") if out else []
    if proc.returncode == 0 and len(fields) >= 2 and fields[1] == "ok":
        return {"outcome": "accepted", "message": "", "seconds": seconds}
    if proc.returncode == 1 and len(fields) >= 5:
        return {
            "outcome": "refused", "seconds": seconds,
            "kind": fields[1],
            "offset": None if fields[2] == "-" else int(fields[2]),
            "field_path": None if fields[3] == "-" else fields[3],
            "message": _one_line("\t".join(fields[4:])),
        }
    return {"outcome": "crashed", "seconds": seconds,
            "message": _one_line(f"unexpected output (exit {proc.returncode}): {out[-300:]} {err[-300:]}")}


class Worker:
    """A long-lived peer process speaking one JSON line per request and per answer."""

    def __init__(self, name, argv, log_path, startup_timeout=60):
        self.name = name
        self.argv = argv
        self.log_path = log_path
        self.startup_timeout = startup_timeout
        self.proc = None
        self.buffer = b""
        self.version = None
        self.restarts = 0
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
            preexec_fn=_limit_memory,
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

    def request(self, path, timeout):
        """(answer dict, seconds) or a crash/timeout verdict; the worker restarts lazily."""
        if self.proc is None:
            self.start()
            self.restarts += 1
        log_mark = os.path.getsize(self.log_path)
        start = time.monotonic()
        try:
            self.proc.stdin.write((json.dumps(path) + "\n").encode())
            self.proc.stdin.flush()
            line = self._read_line(timeout)
        except (EOFError, BrokenPipeError):
            code = self.proc.wait()
            self.proc = None
            return {"crashed": f"{_signal_name(code)}: {self._log_tail(log_mark)}"}, time.monotonic() - start
        if line is None:
            self.kill()
            return {"timeout": f"no answer within {timeout} s"}, timeout
        return json.loads(line), time.monotonic() - start

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
    return {"outcome": part.get("outcome", "crashed"), "message": part.get("message", ""),
            "seconds": round(seconds, 4)}


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


def run_python_peer(cases, log_dir, timeout, results, progress):
    worker = Worker("python-onnx", [PYTHON, os.path.join(HERE, "peer_onnx.py")],
                    os.path.join(log_dir, "peer_onnx.log"))
    try:
        worker.start()
    except Exception as e:  # noqa: BLE001 - any start failure means "not run"
        return {"status": "not run", "reason": str(e)}
    for case in cases:
        answer, seconds = worker.request(os.path.abspath(case["path"]), timeout)
        results[case["file"]]["onnx.load"] = _verdict(answer, seconds, "load")
        results[case["file"]]["onnx.checker"] = _verdict(answer, seconds, "check")
        progress("onnx")
    worker.close()
    return {"status": "run", "version": worker.version, "restarts": worker.restarts}


def run_ort_peer(cases, peer_dir, log_dir, timeout, results, progress):
    module = os.path.join(peer_dir, "node_modules", "onnxruntime-node")
    if not os.path.exists(os.path.join(module, "package.json")):
        return {"status": "not run", "reason": f"onnxruntime-node is not installed in {peer_dir} "
                                                "(tools/install_peer.sh installs it)"}
    worker = Worker("onnxruntime", ["node", os.path.join(HERE, "peer_ort.js"), module],
                    os.path.join(log_dir, "peer_ort.log"))
    try:
        worker.start()
    except Exception as e:  # noqa: BLE001
        return {"status": "not run", "reason": str(e)}
    for case in cases:
        answer, seconds = worker.request(os.path.abspath(case["path"]), timeout)
        results[case["file"]]["onnxruntime"] = _verdict(answer, seconds)
        progress("ort")
    worker.close()
    return {"status": "run", "version": worker.version, "restarts": worker.restarts}


def summarize(cases, importers):
    """Per importer: how its results compare with the spec, in the counts the report prints."""
    summary = {}
    for imp, status in importers.items():
        if status.get("status") != "run":
            continue
        s = {"cases": 0, "match": 0, "mismatch": 0,
             "accepted_spec_refuses": 0, "refused_spec_accepts": 0, "wrong_kind": 0,
             "crashed": 0, "timeout": 0, "not_judged": 0}
        for case in cases:
            r = case["results"].get(imp)
            if r is None:
                continue
            if r["match"] is None:
                s["not_judged"] += 1
                if r["outcome"] in ("crashed", "timeout"):
                    s[r["outcome"]] += 1  # a crash is a finding whatever the options
                continue
            s["cases"] += 1
            s["match" if r["match"] else "mismatch"] += 1
            if r["outcome"] in ("crashed", "timeout"):
                s[r["outcome"]] += 1
            elif case["expected"] == "refuse" and r["outcome"] == "accepted":
                s["accepted_spec_refuses"] += 1
            elif case["expected"] == "accept" and r["outcome"] == "refused":
                s["refused_spec_accepts"] += 1
            elif not r["match"]:
                s["wrong_kind"] += 1
        summary[imp] = s
    return summary


def run_matrix(cases, importer, peer_dir, timeout, log_dir, ours=None, say=print):
    """The matrix document for `cases`. `ours` may carry this importer's results already
    (make_report.py runs them for the hostile table first); they are not run twice."""
    os.makedirs(log_dir, exist_ok=True)
    results = {c["file"]: {} for c in cases}
    total = len(cases)
    done = {"ours": 0, "onnx": 0, "ort": 0}
    active = ["ours"]
    lock = threading.Lock()
    last_print = [0.0]

    def progress(which):
        with lock:
            done[which] += 1
            now = time.monotonic()
            finished = all(done[k] == total for k in active)
            if now - last_print[0] >= 5 or finished:
                last_print[0] = now
                say("  matrix: " + ", ".join(f"{k} {done[k]}/{total}" for k in active))

    started = time.monotonic()
    for case in cases:
        if ours and case["file"] in ours:
            results[case["file"]]["onnximport"] = ours[case["file"]]
            done["ours"] += 1
        else:
            results[case["file"]]["onnximport"] = run_ours(importer, case["path"], timeout, case.get("options"))
            progress("ours")
    importers = {"onnximport": {"status": "run", "version": "working tree"}}

    # The two peers side by side: one core each.
    active = ["onnx", "ort"]
    peer_status = {}

    def python_peer():
        peer_status["onnx"] = run_python_peer(cases, log_dir, timeout, results, progress)

    def ort_peer():
        peer_status["ort"] = run_ort_peer(cases, peer_dir, log_dir, timeout, results, progress)

    threads = [threading.Thread(target=python_peer), threading.Thread(target=ort_peer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    importers["onnx.load"] = dict(peer_status["onnx"])
    importers["onnx.checker"] = dict(peer_status["onnx"])
    importers["onnxruntime"] = dict(peer_status["ort"])

    out_cases = []
    for case in cases:
        row = {k: case.get(k) for k in ("file", "path", "expected", "expected_kind", "rule", "description", "facts",
                                        "options")}
        row["results"] = {}
        for imp, r in results[case["file"]].items():
            r = dict(r)
            r["match"] = matches(case, r, imp)
            row["results"][imp] = r
        out_cases.append(row)

    doc = {
        "status": "run",
        "timeout_seconds": timeout,
        "seconds": round(time.monotonic() - started, 1),
        "importers": [dict(importers[k], id=k, label=label) for k, label in IMPORTERS],
        "summary": summarize(out_cases, importers),
        "cases": out_cases,
    }
    for imp, s in doc["summary"].items():
        say(f"  matrix: {imp}: {s['match']}/{s['cases']} as the spec says; accepted {s['accepted_spec_refuses']} "
            f"the spec refuses, refused {s['refused_spec_accepts']} it accepts, {s['crashed']} crashed, "
            f"{s['timeout']} timed out")
    for imp in ("onnx.load", "onnxruntime"):
        if importers[imp].get("status") != "run":
            say(f"  matrix: {imp}: not run: {importers[imp].get('reason')}")
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, help="folder of <kind>-<case>.onnx files and manifest.json")
    ap.add_argument("--importer", required=True, help="path to build/bin/onnximport")
    ap.add_argument("--peer-dir", default="build/peer", help="where tools/install_peer.sh installed the npm peer")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per file and importer")
    ap.add_argument("--out", required=True, help="matrix.json to write")
    ap.add_argument("--log-dir", default=None, help="worker stderr logs (default: next to --out)")
    args = ap.parse_args()

    cases, _ = load_corpus(args.corpus)
    log_dir = args.log_dir or os.path.dirname(os.path.abspath(args.out))
    doc = run_matrix(cases, args.importer, args.peer_dir, args.timeout, log_dir,
                     say=lambda line: print(line, flush=True))
    doc["corpus"] = os.path.abspath(args.corpus)
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
