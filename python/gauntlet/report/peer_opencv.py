"""Matrix worker for OpenCV's ONNX importer: cv2.dnn.readNetFromONNX.

Same protocol as peer_onnx.py: a request {"path": ...} per line, an answer per line:
{"outcome": "accepted"|"refused", "message": ..., "tensors": {...}}. When the network
has no inputs (the canary cases output their initializer), it is also run once and
`tensors` holds the SHA-256 of each output's bytes, so a read from outside the folder
shows. Writes {"ready": true, "version": ...} once cv2 is imported. OpenCV aborts on
some inputs; the driver restarts the worker.
"""
import hashlib
import json
import sys


from gauntlet.report.peer_refusal import refusal


def main():
    import cv2

    try:
        cv2.setLogLevel(0)
    except Exception:  # noqa: BLE001 - older builds lack it; the log goes to stderr anyway
        pass
    out = sys.stdout
    out.write(json.dumps({"ready": True, "version": cv2.__version__}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        path = json.loads(line)["path"]
        try:
            net = cv2.dnn.readNetFromONNX(path)
            if net.empty():
                raise RuntimeError("readNetFromONNX returned an empty network")
            answer = {"outcome": "accepted", "message": ""}
            try:
                # A graph without inputs can run as it is: its outputs are its constants.
                outputs = net.forward(net.getUnconnectedOutLayersNames())
                answer["tensors"] = {f"out{i}": hashlib.sha256(o.tobytes()).hexdigest() for i, o in enumerate(outputs)}
            except Exception:  # noqa: BLE001 - running is evidence, never a verdict
                pass
        except Exception as e:  # cv2.error and friends
            answer = refusal(e)
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
