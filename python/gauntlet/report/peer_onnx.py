"""Matrix worker for the Python onnx package (cross-importer matrix).

One long-lived process answering one request per line, so importing onnx is paid once.
A request is a JSON object {"path": ..., "mode": "load" | "noext"}; the answer is one JSON
object per line:
  noext: {"noext": verdict}: onnx.load(path, load_external_data=False), the protobuf parse
         alone, which never opens another file; an accepted verdict carries `read`, what
         was read (read_summary.py, docs/matrix.md);
  load:  {"load": verdict, "check": verdict, "tensors": {...}}: onnx.load(path) (external
         data read from the model's folder, as a user gets it), then
         onnx.checker.check_model(model, full_check=True); `tensors` holds the SHA-256 of
         the bytes of every tensor the loaded model carries (initializers, sparse
         initializers' values, attribute tensors, in every graph), through onnx's numpy
         conversion where it succeeds and the raw bytes otherwise, so the matrix can see
         bytes read from outside the folder.
A verdict is {"outcome": "accepted"|"refused", "message": ...}. It writes {"ready": true,
"version": ...} once onnx is imported. A crash of the C++ protobuf or checker code ends
the process; the driver (matrix.py) sees that and restarts it. Run with
PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python in its environment, the same worker is the
pure-Python protobuf peer (peers_npm.py).
"""
import hashlib
import json
import sys


from gauntlet.report.peer_refusal import refusal
from gauntlet.text import one_line
from gauntlet.report.read_summary import summarize


def tensor_bytes(numpy_helper, t):
    try:
        return numpy_helper.to_array(t).tobytes()
    except Exception:  # noqa: BLE001 - a tensor numpy cannot convert still has raw bytes
        return bytes(t.raw_data)


def graph_tensors(numpy_helper, graph, prefix, out):
    for t in graph.initializer:
        out[f"{prefix}{t.name}"] = tensor_bytes(numpy_helper, t)
    for s in graph.sparse_initializer:
        out[f"{prefix}{s.values.name}:values"] = tensor_bytes(numpy_helper, s.values)
    for node in graph.node:
        for a in node.attribute:
            where = f"{prefix}{node.name or node.op_type}/{a.name}"
            if a.HasField("t"):
                out[where] = tensor_bytes(numpy_helper, a.t)
            if a.HasField("sparse_tensor"):
                out[f"{where}:values"] = tensor_bytes(numpy_helper, a.sparse_tensor.values)
            if a.HasField("g"):
                graph_tensors(numpy_helper, a.g, where + "/", out)
            for i, g in enumerate(a.graphs):
                graph_tensors(numpy_helper, g, f"{where}[{i}]/", out)


def main():
    import onnx
    import onnx.checker
    from onnx import numpy_helper

    from google.protobuf.internal import api_implementation

    out = sys.stdout
    # The protobuf backend in the version: the pure-Python peer must prove it is one.
    version = f"{onnx.__version__}, protobuf {api_implementation.Type()}"
    out.write(json.dumps({"ready": True, "version": version}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        path, mode = request["path"], request.get("mode", "load")
        answer = {}
        if mode == "noext":
            try:
                model = onnx.load(path, load_external_data=False)
                answer["noext"] = {"outcome": "accepted", "message": ""}
                try:
                    answer["noext"]["read"] = summarize(model)
                except Exception as e:  # noqa: BLE001 - a summary is evidence, never a verdict
                    answer["noext"]["read_error"] = one_line(f"{type(e).__name__}: {e}")
            except Exception as e:  # every refusal, whatever the class
                answer["noext"] = refusal(e)
        else:
            try:
                model = onnx.load(path)
                answer["load"] = {"outcome": "accepted", "message": ""}
                found = {}
                try:
                    graph_tensors(numpy_helper, model.graph, "", found)
                    for f in model.functions:
                        for node in f.node:
                            for a in node.attribute:
                                if a.HasField("t"):
                                    found[f"{f.name}/{node.name or node.op_type}/{a.name}"] = tensor_bytes(numpy_helper, a.t)
                except Exception:  # noqa: BLE001 - hashing is evidence, never a verdict
                    pass
                answer["tensors"] = {k: hashlib.sha256(v).hexdigest() for k, v in found.items()}
            except Exception as e:
                model = None
                answer["load"] = refusal(e)
                answer["check"] = refusal(e, "onnx.load refused: ")
            if model is not None:
                try:
                    onnx.checker.check_model(model, full_check=True)
                    answer["check"] = {"outcome": "accepted", "message": ""}
                except Exception as e:
                    answer["check"] = refusal(e)
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
