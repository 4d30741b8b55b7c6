#!/usr/bin/python3
"""Matrix worker for the Python onnx package (issue 8, cross-importer matrix).

One long-lived process answering one request per line, so importing onnx is paid once.
Each request is a JSON string (the model path); the answer is one JSON object per line
with two verdicts, because the package has two gates a user meets:
  load:  onnx.load(path)  (protobuf parse, external data loaded from the model's folder)
  check: onnx.load and then onnx.checker.check_model(model, full_check=True)
It writes {"ready": true, "version": ...} once onnx is imported. A crash of the C++
protobuf or checker code ends the process; the driver (matrix.py) sees that and restarts.
"""
import json
import sys


def one_line(text, limit=400):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def main():
    import onnx
    import onnx.checker

    out = sys.stdout
    out.write(json.dumps({"ready": True, "version": onnx.__version__}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        path = json.loads(line)
        answer = {}
        try:
            model = onnx.load(path)
            answer["load"] = {"outcome": "accepted", "message": ""}
        except Exception as e:  # every refusal, whatever the class
            model = None
            message = one_line(f"{type(e).__name__}: {e}")
            answer["load"] = {"outcome": "refused", "message": message}
            answer["check"] = {"outcome": "refused", "message": "onnx.load refused: " + message}
        if model is not None:
            try:
                onnx.checker.check_model(model, full_check=True)
                answer["check"] = {"outcome": "accepted", "message": ""}
            except Exception as e:
                answer["check"] = {"outcome": "refused", "message": one_line(f"{type(e).__name__}: {e}")}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
