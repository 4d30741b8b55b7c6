"""Protobuf bytes of small ONNX models, written byte by byte so that the CLI tests know
every offset exactly (no onnx package needed)."""


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field_int(num, v):
    return varint(num << 3) + varint(v)


def field_len(num, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def tensor_type(elem):
    shape = field_len(1, field_int(1, 1))  # one dim of value 1
    return field_len(1, field_int(1, elem) + field_len(2, shape))


def value_info(name):
    return field_len(1, name) + field_len(2, tensor_type(1))


def model(graph):
    """ir_version 9, producer, the graph, opset 21."""
    return field_int(1, 9) + field_len(2, "cli-test") + field_len(7, graph) + field_len(8, field_int(2, 21))


def identity_graph(node_name=b"", input_name=b"X", initializers=b""):
    """X -> Identity -> Y; the node reads `input_name` (undefined unless it is X)."""
    node = field_len(1, input_name) + field_len(2, "Y") + field_len(4, "Identity")
    if node_name:
        node += field_len(3, node_name)
    return (field_len(1, node) + field_len(2, "g") + initializers + field_len(11, value_info("X")) +
            field_len(12, value_info("Y")))


def minimal_model():
    return model(identity_graph())


def raw_initializer(name, size):
    """GraphProto.initializer: a UINT8 tensor of `size` raw bytes (a payload to map)."""
    tensor = field_int(1, size) + field_int(2, 2) + field_len(8, name) + field_len(9, bytes(range(256)) * (size // 256))
    return field_len(5, tensor)


def deep_type_model(level):
    """An input whose TypeProto nests sequence types until a message sits at `level`
    (ModelProto 0, graph 1, input 2, type 3, sequence_type 4, elem_type 5, ...)."""
    msg = b""
    for k in range(level, 3, -1):
        msg = field_len(4 if k % 2 == 0 else 1, msg)
    graph = field_len(11, field_len(1, "x") + field_len(2, msg))
    return field_int(1, 9) + field_len(8, field_int(2, 21)) + field_len(7, graph)
