"""Reads outside the folder, proven (docs/matrix.md, "Read outside the folder"): the canary
file beside the corpus, and the hashes that prove a result read it or /etc/passwd."""
import hashlib
import os

CANARY = "onnx-gauntlet-canary.bin"


def write_canary(work):
    """Writes 16 bytes drawn for this run into work/CANARY: (its path, its bytes)."""
    canary_bytes = os.urandom(16)
    canary_path = os.path.join(work, CANARY)
    with open(canary_path, "wb") as f:
        f.write(canary_bytes)
    return canary_path, canary_bytes


def outside_hashes(canary_bytes):
    """SHA-256 -> what it proves was read: the canary, or /etc/passwd (whole or 16 bytes)."""
    out = {hashlib.sha256(canary_bytes).hexdigest(): f"{CANARY} (this run's {len(canary_bytes)} bytes)"}
    try:
        with open("/etc/passwd", "rb") as f:
            passwd = f.read()
        out[hashlib.sha256(passwd).hexdigest()] = "/etc/passwd"
        out[hashlib.sha256(passwd[:16]).hexdigest()] = "/etc/passwd (its first 16 bytes)"
    except OSError:
        pass
    return out


def mark_outside(row, proofs):
    hits = []
    for imp, r in row["results"].items():
        for tensor, digest in (r.get("tensors") or {}).items():
            if digest in proofs:
                r["read_outside"] = {"target": proofs[digest], "sha256": digest, "tensor": tensor}
                hits.append({"importer": imp, **r["read_outside"]})
                break
    row["read_outside"] = hits
