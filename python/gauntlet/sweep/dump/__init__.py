"""The parts of onnx_dump.py, the structural dump (sweep/DUMP_FORMAT.md) written from the
Python onnx package: its lexical rules, float bits from the wire, what this onnx can
represent, and the blocks of tensors, types and graphs."""
