"""Seeds of fuzz_external: models whose metadata_props carry their side files
(`file:NAME` = bytes, `link:NAME` = a link's target; harness/fuzz/fuzz_external.cpp),
one per rule of spec section 5 that a location, an offset or a length can break, and the
accepted cases around them. Writes corpus/fuzz_external/NAME (or the folder given).

  python/gauntlet/fuzz/seed_external.py [OUT_DIR]
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

from gauntlet.fuzz import paths

WEIGHTS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # 62 bytes of text


def external(name, location, dims, dtype=TensorProto.FLOAT, offset=None, length=None, extra=()):
    t = TensorProto(name=name, data_type=dtype, dims=dims)
    t.data_location = TensorProto.EXTERNAL
    entries = [("location", location)]
    if offset is not None:
        entries.append(("offset", str(offset)))
    if length is not None:
        entries.append(("length", str(length)))
    for key, value in entries + list(extra):
        e = t.external_data.add()
        e.key, e.value = key, value
    return t


def model(tensors, files=(), links=(), constant=None):
    outputs = [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in tensors]
    nodes = []
    if constant is not None:
        nodes.append(helper.make_node("Constant", [], ["c"], value=constant))
        outputs.append(helper.make_tensor_value_info("c", constant.data_type, list(constant.dims)))
    graph = helper.make_graph(nodes, "g", [], outputs, initializer=tensors)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    for key, value in [("file:" + n, v) for n, v in files] + [("link:" + n, v) for n, v in links]:
        e = m.metadata_props.add()
        e.key, e.value = key, value
    return m


def seeds():
    w16 = WEIGHTS[:16]
    yield "accept-whole-file", model([external("w", "w.bin", [4])], files=[("w.bin", w16)])
    yield "accept-offset-length", model([external("w", "w.bin", [4], offset=8, length=16)],
                                        files=[("w.bin", WEIGHTS[:40])])
    yield "accept-subfolder", model([external("w", "sub/d/w.bin", [4])], files=[("sub/d/w.bin", w16)])
    yield "accept-shared-file", model([external("a", "w.bin", [2], offset=0), external("b", "w.bin", [2], offset=8)],
                                      files=[("w.bin", w16)])
    yield "accept-link-inside", model([external("w", "l.bin", [4])], files=[("w.bin", w16)], links=[("l.bin", "w.bin")])
    yield "accept-link-chain", model([external("w", "a", [4])], files=[("w.bin", w16)],
                                     links=[("a", "b"), ("b", "w.bin")])
    yield "accept-link-to-folder", model([external("w", "ld/w.bin", [4])], files=[("sub/w.bin", w16)],
                                         links=[("ld", "sub")])
    yield "accept-uint8-empty", model([external("w", "e.bin", [0], dtype=TensorProto.UINT8)], files=[("e.bin", "")])
    yield "accept-constant-attribute", model([], files=[("c.bin", w16)],
                                             constant=external("cv", "c.bin", [4]))
    yield "accept-checksum-ignored", model([external("w", "w.bin", [4], extra=[("checksum", "00")])],
                                           files=[("w.bin", w16)])
    yield "refuse-link-outside", model([external("w", "l.bin", [4])], links=[("l.bin", "../outside")])
    yield "refuse-link-absolute", model([external("w", "l.bin", [4])], links=[("l.bin", "/nonexistent/w.bin")])
    yield "refuse-link-loop", model([external("w", "a", [4])], links=[("a", "b"), ("b", "a")])
    yield "refuse-parent", model([external("w", "../outside", [4])])
    yield "refuse-parent-inside", model([external("w", "sub/../../outside", [4])], files=[("sub/x", "")])
    yield "refuse-absolute", model([external("w", "/nonexistent/w.bin", [4])])
    yield "refuse-missing", model([external("w", "missing.bin", [4])], files=[("w.bin", w16)])
    yield "refuse-folder", model([external("w", "sub", [4])], files=[("sub/w.bin", w16)])
    yield "refuse-length-beyond", model([external("w", "w.bin", [4], length=64)], files=[("w.bin", w16)])
    yield "refuse-offset-beyond", model([external("w", "w.bin", [4], offset=100)], files=[("w.bin", w16)])
    yield "refuse-short-file", model([external("w", "w.bin", [8])], files=[("w.bin", w16)])
    yield "refuse-length-differs", model([external("w", "w.bin", [4], length=8)], files=[("w.bin", w16)])
    yield "refuse-negative-offset", model([external("w", "w.bin", [4], extra=[("offset", "-1")])],
                                          files=[("w.bin", w16)])
    yield "refuse-duplicate-location", model([external("w", "w.bin", [4], extra=[("location", "x.bin")])],
                                             files=[("w.bin", w16), ("x.bin", w16)])
    # The target itself never writes through a link the input made: files are written
    # first (so ld is a folder and the link is skipped), and a link beneath a link is skipped.
    yield "accept-file-before-link", model([external("w", "ld/escape", [4])], files=[("ld/escape", w16)],
                                           links=[("ld", "..")])
    yield "refuse-link-beneath-link", model([external("w", "ld/y", [4])], files=[("w.bin", w16)],
                                            links=[("ld", ".."), ("ld/y", "w.bin")])
    yield "refuse-ort-marker", model([external("w", "_ORT_MEM_ADDR_/w.bin", [4])])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(paths.CORPUS, "fuzz_external")
    os.makedirs(out, exist_ok=True)
    n = 0
    for name, m in seeds():
        with open(os.path.join(out, name), "wb") as f:
            f.write(m.SerializeToString())
        n += 1
    print(f"seed_external: {n} seeds in {out}")


if __name__ == "__main__":
    main()
