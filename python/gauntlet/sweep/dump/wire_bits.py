"""Float bit patterns from the wire (sweep/DUMP_FORMAT.md).

A float field read through Python becomes a double, and that conversion sets a signalling
NaN's quiet bit (0x7f800001 -> 0x7fc00001). The bits are therefore read from the message's
serialized bytes, which the C++ (cpp, upb) protobuf backends write from the stored float.
"""
import struct

import onnx


def _varint(data, i):
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def wire_fields(data):
    """(field number, wire type, payload) of each top-level field of serialized bytes; the
    payload is the value of a varint and the bytes of any other wire type."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            payload, i = _varint(data, i)
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            payload, i = data[i:i + size], i + size
        elif wire == 2:
            size, i = _varint(data, i)
            payload, i = data[i:i + size], i + size
        else:
            raise ValueError("wire type %d in a serialized message" % wire)
        yield number, wire, payload


def fixed_entries(data, number, size):
    """The little-endian bytes of each entry of a repeated or singular fixed32 (size 4) or
    fixed64 (size 8) field, packed or not, in order."""
    entries = []
    for n, wire, payload in wire_fields(data):
        if n != number:
            continue
        if wire == 2:
            entries += [payload[k:k + size] for k in range(0, len(payload), size)]
        else:
            entries.append(payload)
    return entries


def float_bits(entry):
    """An entry of fixed_entries(..., 4) as the dump writes a float."""
    return "0x%08x" % struct.unpack("<I", entry)[0]


def serialization_keeps_float_bits():
    """False under the pure-Python protobuf backend, which holds floats as Python floats."""
    a = onnx.AttributeProto()
    a.ParseFromString(b"\x15\x01\x00\x80\x7f")  # f = 0x7f800001, a signalling NaN
    return a.SerializeToString() == b"\x15\x01\x00\x80\x7f"
