"""The dump's lexical rules (sweep/DUMP_FORMAT.md): quoted strings and the names of
element and attribute types."""

DATA_TYPE_NAMES = [
    "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
    "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0",
    "UINT2", "INT2", "FLOAT6E2M3", "FLOAT6E3M2",
]
ATTRIBUTE_TYPE_NAMES = [
    "UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS",
    "GRAPHS", "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS",
]


def _escape_table():
    table = []
    for b in range(256):
        if b in (0x22, 0x5C):
            table.append("\\" + chr(b))
        elif 0x20 <= b <= 0x7E:
            table.append(chr(b))
        else:
            table.append("\\x%02x" % b)
    return table


ESCAPE = _escape_table()


def q(value):
    """A quoted string: str fields as UTF-8, bytes fields as they are."""
    if isinstance(value, str):
        if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
            return '"' + value + '"'
        value = value.encode("utf-8")
    return '"' + "".join([ESCAPE[b] for b in value]) + '"'


def element_type(code):
    name = DATA_TYPE_NAMES[code] if 0 <= code < len(DATA_TYPE_NAMES) else "?"
    return "%d %s" % (code, name)


def attribute_type(code):
    return ATTRIBUTE_TYPE_NAMES[code] if 0 <= code < len(ATTRIBUTE_TYPE_NAMES) else "?"
