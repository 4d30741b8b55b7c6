"""`selftest.py skip-newer BUILD_DIR`: what the installed onnx cannot represent. A model
holding fields newer than the installed onnx is reported as skipped with the field named,
never as passed."""
import os
import shutil
import subprocess

import onnx

from gauntlet import settings
from gauntlet.sweep.model_builders import base_model, save

SWEEP = settings.module_argv("gauntlet") + ["sweep"]
SKIP_EXIT = 77  # ctest's SKIP_RETURN_CODE for the sweep tests


def with_unknown_field(message, field_number, payload):
    """The message with a length-delimited field appended that this onnx may not know."""
    assert field_number < 16
    extra = bytes([field_number << 3 | 2, len(payload)]) + payload
    copy = type(message)()
    copy.ParseFromString(message.SerializeToString() + extra)
    return copy


def newer_field_models(data):
    """Writes a model per field this onnx lacks into data: {model folder: the skip reason's words}."""
    cases = {}
    # NodeProto.overload (8) and TensorProto.metadata_props (16 needs two key bytes;
    # ValueInfoProto.metadata_props (4) stands in for the metadata fields).
    if "overload" not in onnx.NodeProto.DESCRIPTOR.fields_by_name:
        model = base_model("overload")
        node = with_unknown_field(model.graph.node[0], 8, b"v2")
        model.graph.node[0].CopyFrom(node)
        save(model, data, "node_overload")
        cases["node_overload"] = "(NodeProto) field 8 (overload)"
    if "metadata_props" not in onnx.ValueInfoProto.DESCRIPTOR.fields_by_name:
        model = base_model("metadata")
        entry = onnx.StringStringEntryProto(key="k", value="v").SerializeToString()
        model.graph.input[0].CopyFrom(with_unknown_field(model.graph.input[0], 4, entry))
        save(model, data, "value_info_metadata")
        cases["value_info_metadata"] = "(ValueInfoProto) field 4 (metadata_props)"
    # An enum value this onnx does not know: data_location 2 is refused by the importer,
    # so an AttributeProto.type beyond TYPE_PROTOS cannot be used either; unknown enum
    # values are unknown fields to proto2 and take the same path as the cases above.
    return cases


def sweep_failures(build_dir, data, cases):
    """Runs the sweep over data; what it reported other than every case skipped, naming its field."""
    env = dict(os.environ, BUILD=build_dir)
    r = subprocess.run(SWEEP + [data], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    text = r.stdout.decode("utf-8", "replace")
    print(text, end="")
    lines = text.strip().splitlines()
    failures = []
    expected = "0 passed, 0 failed, %d skipped" % len(cases)
    if r.returncode != 0 or not lines or not lines[-1].startswith(expected):
        failures.append("expected the last line to start with %r, exit 0 (got exit %d)"
                        % (expected, r.returncode))
    for rel, reason in cases.items():
        if not any(line.startswith(rel + "\tskipped\t") and reason in line for line in lines):
            failures.append("%s is not reported as skipped naming %r" % (rel, reason))
    return failures


def main(build_dir):
    # A fixed place, so the sweep's table for it does not pile up under BUILD/sweep/.
    data = os.path.join(build_dir, "sweep-skip-newer-models")
    if os.path.exists(data):
        shutil.rmtree(data)
    try:
        cases = newer_field_models(data)
        if not cases:
            print("skip-newer: the installed onnx %s knows every field used here; nothing to test"
                  % onnx.__version__)
            return SKIP_EXIT
        failures = sweep_failures(build_dir, data, cases)
        for f in failures:
            print("FAILED: " + f)
        return 1 if failures else 0
    finally:
        shutil.rmtree(data)
