"""The npm peer the .ort tools run, ONNX Runtime's onnxruntime-node (tools/install_peer.sh
installs it): where it is, and why it cannot run here when it cannot."""
import os
import shutil

from gauntlet import settings


def module(folder=None, build=None):
    """onnxruntime-node under `folder` (a --peer option) or else the first installed of
    BUILD/peer and the checkout's build/peer (BUILD/peer's when neither is)."""
    folders = [folder] if folder else [os.path.join(settings.build_dir(build), "peer"),
                                       os.path.join(settings.ROOT, "build", "peer")]
    modules = [os.path.join(os.path.abspath(f), "node_modules", "onnxruntime-node") for f in folders]
    return next((m for m in modules if os.path.isdir(m)), modules[0])


def missing(path):
    """Why the peer at `path` cannot run (the reason of a skip), or None when it can."""
    if shutil.which("node") and os.path.isdir(path):
        return None
    return "node or the npm peer is missing (%s; tools/install_peer.sh installs it)" % path
