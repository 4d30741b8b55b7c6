"""The matrix's further peers (docs/matrix.md): ONNX Runtime's wasm build and its JavaScript
model loader, tract in wasm, protobufjs 6 (onnx-proto), protobuf-es 2 (onnx-buf), onnxjs,
all pinned by tools/peer/package.json and installed by tools/install_peer.sh, and Python onnx
on the pure-Python protobuf decoder (Debian python3-onnx). Each is a long-lived worker of the
one line protocol; a peer whose package is missing is "not run" with the reason.
"""
import os

from gauntlet import settings

HERE = os.path.dirname(os.path.abspath(__file__))

# Worker name -> the matrix columns it fills, in the order the report shows them.
MORE_COLUMNS = {
    "python-onnx-pure": ("onnx.load-pure",),
    "onnxruntime-web": ("ort-web",),
    "ort-web-js": ("ort-web-js",),
    "tractjs": ("tractjs",),
    "onnx-proto": ("onnx-proto",),
    "onnx-buf": ("onnx-buf",),
    "onnxjs": ("onnxjs",),
}

MORE_IMPORTERS = [
    ("onnx.load-pure", "Python onnx on pure-Python protobuf: onnx.load(load_external_data=False)"),
    ("ort-web", "ONNX Runtime wasm (npm onnxruntime-web): InferenceSession.create"),
    ("ort-web-js", "ONNX Runtime web's JavaScript model loader (lib/onnxjs): Model.load"),
    ("tractjs", "tract in wasm (npm tractjs): load"),
    ("onnx-proto", "protobufjs 6 (npm onnx-proto): onnx.ModelProto.decode"),
    ("onnx-buf", "protobuf-es 2 (npm onnx-buf): fromBinary(ModelProtoSchema)"),
    ("onnxjs", "onnxjs (npm): InferenceSession.loadModel"),
]

# The readers of `.ort` among them.
MORE_ORT_READERS = ("ort-web", "ort-web-js")

# V8 reserves about 10 GiB of address space per WebAssembly memory (guard regions), so the
# wasm peers fail to start under peers.py's 8 GiB limit (measured: tractjs needs more than
# 16 GiB, 32 GiB works). Their heap is wasm32, at most 4 GiB whatever a file declares, so a
# wider limit still bounds them.
WASM_ADDRESS_SPACE = 64 << 30
WASM_WORKERS = ("onnxruntime-web", "tractjs")

# Worker -> (npm package, worker script, how its version is shown).
NPM_WORKERS = {
    "onnxruntime-web": ("onnxruntime-web", "peer_ort_web.js", "onnxruntime-web {} (npm), wasm build, Node entry"),
    "ort-web-js": ("onnxruntime-web", "peer_ort_web_js.js", "onnxruntime-web {} (npm), lib/onnxjs/model.js"),
    "tractjs": ("tractjs", "peer_tractjs.js", "tractjs {} (npm)"),
    "onnx-proto": ("onnx-proto", "peer_onnx_proto.js", "onnx-proto {} (npm)"),
    "onnx-buf": ("onnx-buf", "peer_onnx_buf.js", "onnx-buf {} (npm)"),
    "onnxjs": ("onnxjs", "peer_onnxjs.js", "onnxjs {} (npm)"),
}


def _npm_spec(name, peer_dir):
    package, script, shown = NPM_WORKERS[name]
    folder = os.path.join(os.path.abspath(peer_dir), "node_modules", package)
    column = MORE_COLUMNS[name][0]
    if not os.path.isfile(os.path.join(folder, "package.json")):
        return {"reason": f"npm {package} is not installed in {peer_dir} (tools/install_peer.sh installs it)"}
    spec = {"argv": ["node", os.path.join(HERE, script), folder], "requests": [("load", [(column, None)])],
            "version": shown.format}
    if name in WASM_WORKERS:
        spec["address_space"] = WASM_ADDRESS_SPACE
    return spec


def more_specs(peer_dir, onnx_deb):
    """name -> the spec peers.run_peer takes, or {reason} when it cannot run here."""
    specs = {"python-onnx-pure": {
        "argv": ["env", "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python",
                 *settings.module_argv("gauntlet.report.peer_onnx")],
        "requests": [("noext", [("onnx.load-pure", "noext")])],
        "version": lambda v: f"onnx {v} (Debian python3-onnx {onnx_deb or '?'})"}}
    for name in NPM_WORKERS:
        specs[name] = _npm_spec(name, peer_dir)
    return specs
