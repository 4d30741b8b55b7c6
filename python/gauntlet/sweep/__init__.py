"""The backend-test sweep (sweep/DUMP_FORMAT.md): the onnx package's dump, the comparison,
the edge models, the generated backend data and the .onnx writer's round trip."""
