"""harness/fuzz/onnx_reference.proto against the installed onnx.proto, ctest
`fuzz_reference_schema`: protoc compiles both and every message, field (number, label,
type, type name, default, oneof, packed), enum value and reserved range must be the same,
so fuzz_diff_protobuf compares against the same reference whichever file it was built
from. Exit 77 (skipped) without protoc, python3-protobuf or /usr/include/onnx/onnx.proto.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from gauntlet.settings import ROOT
OURS = os.path.join(ROOT, "harness", "fuzz", "onnx_reference.proto")
INSTALLED = os.environ.get("ONNX_PROTO", "/usr/include/onnx/onnx.proto")


def descriptors(proto, tmp, name):
    from google.protobuf import descriptor_pb2
    src = os.path.join(tmp, name + ".proto")
    with open(proto, encoding="utf-8") as f, open(src, "w", encoding="utf-8") as out:
        out.write("".join(line for line in f if "LITE_RUNTIME" not in line))
    out_path = os.path.join(tmp, name + ".pb")
    subprocess.run(["protoc", f"--descriptor_set_out={out_path}", f"-I{tmp}", src], check=True)
    fs = descriptor_pb2.FileDescriptorSet()
    with open(out_path, "rb") as f:
        fs.ParseFromString(f.read())
    return fs.file[0]


def enum_facts(e):
    return {v.name: v.number for v in e.value}


def message_facts(m):
    fields = {}
    for f in m.field:
        fields[f.number] = (f.name, f.label, f.type, f.type_name, f.default_value,
                            m.oneof_decl[f.oneof_index].name if f.HasField("oneof_index") else None,
                            f.options.packed if f.options.HasField("packed") else None)
    return {"fields": fields,
            "enums": {e.name: enum_facts(e) for e in m.enum_type},
            "nested": {n.name: message_facts(n) for n in m.nested_type},
            "reserved": sorted((r.start, r.end) for r in m.reserved_range),
            "reserved_names": sorted(m.reserved_name)}


def file_facts(fd):
    return {"package": fd.package, "syntax": fd.syntax or "proto2",
            "enums": {e.name: enum_facts(e) for e in fd.enum_type},
            "messages": {m.name: message_facts(m) for m in fd.message_type}}


def differences(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'the installed file' if k in b else 'ours'}")
            else:
                out += differences(a[k], b[k], f"{path}/{k}")
        return out
    return [] if a == b else [f"{path}: ours {a!r}, installed {b!r}"]


def main():
    try:
        import google.protobuf  # noqa: F401
    except ImportError:
        print("skipped: python3-protobuf is not installed")
        return 77
    if not shutil.which("protoc") or not os.path.isfile(INSTALLED):
        print(f"skipped: protoc or {INSTALLED} is missing")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        ours = file_facts(descriptors(OURS, tmp, "ours"))
        installed = file_facts(descriptors(INSTALLED, tmp, "installed"))
    diff = differences(ours, installed)
    n_fields = sum(len(m["fields"]) for m in ours["messages"].values())
    if diff:
        print("\n".join(diff))
        print(f"{len(diff)} differences between {OURS} and {INSTALLED}")
        print("0 passed, 1 failed")
        return 1
    print(f"onnx_reference.proto: {len(ours['messages'])} messages, {n_fields} top-level fields, "
          f"the same descriptors as {INSTALLED}")
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
