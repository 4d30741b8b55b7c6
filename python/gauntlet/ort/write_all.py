"""Drives python/gauntlet/ort/write_ort.js: ONNX Runtime writes the .ort of each model.

write_all(peer_module, jobs, timeout) -> ({rel: None | error message}, version), where jobs
is a list of (rel, src, dst). A worker that crashes or stops answering is restarted, and
the model it was writing is recorded as refused with what happened.
"""
import json
import os
import select
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


class Worker:
    def __init__(self, peer_module):
        self.proc = subprocess.Popen(
            ["node", os.path.join(HERE, "write_ort.js"), peer_module],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        ready = self.answer(120)
        if not ready or not ready.get("ready"):
            self.close()
            raise RuntimeError("the ONNX Runtime worker did not start")
        self.version = ready.get("version", "?")

    def answer(self, timeout):
        """The next JSON line, or None after `timeout` seconds or at the worker's end."""
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def write_all(peer_module, jobs, timeout=120):
    results = {}
    worker = Worker(peer_module)
    version = worker.version
    try:
        for rel, src, dst in jobs:
            if os.path.exists(dst):
                os.remove(dst)
            worker.proc.stdin.write(json.dumps({"src": src, "dst": dst}) + "\n")
            worker.proc.stdin.flush()
            got = worker.answer(timeout)
            if got is None:
                results[rel] = "the ONNX Runtime worker crashed or took over %d s" % timeout
                worker.close()
                worker = Worker(peer_module)
                continue
            results[rel] = None if got.get("ok") else " ".join(str(got.get("message", "")).split())
    finally:
        worker.close()
    return results, version
