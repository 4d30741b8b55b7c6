"""The valid models of the matrix (docs/matrix.md, "Valid models"): a deterministic sample of
the ONNX backend test models, beside the corpus's accept cases."""
import hashlib
import os

from gauntlet import settings


def backend_data_dir(build, explicit=None):
    """(label, folder) of the backend test data: the explicit folder, the shared 1.23 data
    when present, else the data set of the installed onnx (gauntlet.settings.backend_data)."""
    def label(folder):
        name = os.path.basename(os.path.normpath(folder))
        return name if name.startswith("backend") else f"backend-{name}"

    if explicit:
        return label(explicit), explicit
    data = settings.backend_data(build, "matrix")
    return ("backend-1.23" if data == settings.SHARED_BACKEND_DATA else label(data)), data


def valid_models(label, data_dir, count):
    """A deterministic sample of `count` backend models (the first by SHA-256 of their id) and the total."""
    found = []
    for dirpath, _dirs, files in os.walk(data_dir):
        if "model.onnx" in files:
            rel = os.path.relpath(dirpath, data_dir)
            found.append((hashlib.sha256(rel.encode()).hexdigest(), f"{label}/{rel}", os.path.join(dirpath, "model.onnx")))
    found.sort()
    chosen = sorted(found[:count], key=lambda x: x[1])
    return [{"file": i, "path": p, "expected": "accept", "expected_kind": None, "options": {}, "valid": True}
            for _, i, p in chosen], len(found)
