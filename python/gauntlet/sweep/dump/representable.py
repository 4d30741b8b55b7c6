"""What the installed onnx package can represent: a model holding a field or enum value it
does not know is skipped with that reason, never dumped by guess (sweep/DUMP_FORMAT.md)."""


class Skip(Exception):
    """The model holds something this onnx package cannot represent."""


# Fields of later onnx.proto versions that the importer reads, by (message, number): named
# in skip reasons. Other unknown fields are reported by number only.
NEWER_FIELDS = {
    ("NodeProto", 8): "overload", ("NodeProto", 9): "metadata_props",
    ("GraphProto", 16): "metadata_props", ("TensorProto", 16): "metadata_props",
    ("ValueInfoProto", 4): "metadata_props", ("FunctionProto", 11): "attribute_proto",
    ("FunctionProto", 12): "value_info", ("FunctionProto", 13): "overload",
    ("FunctionProto", 14): "metadata_props",
}


def has_field(msg, name):
    """True when the field exists in this onnx version and holds something."""
    if name not in msg.DESCRIPTOR.fields_by_name:
        return False
    field = msg.DESCRIPTOR.fields_by_name[name]
    if field.label == field.LABEL_REPEATED:
        return len(getattr(msg, name)) > 0
    return msg.HasField(name)


def field(msg, name, default):
    """A field that newer onnx versions have; the default where this version lacks it
    (a model that sets it is skipped before it gets here: an unknown field)."""
    return getattr(msg, name) if name in msg.DESCRIPTOR.fields_by_name else default


def unknown_fields(msg, path, found):
    """Collects every unknown field of msg and its sub-messages (fields newer than this
    onnx, or enum values it does not know, which protobuf keeps as unknown fields)."""
    unknown = msg.UnknownFields()
    if len(unknown):
        message = msg.DESCRIPTOR.name
        numbers = sorted({f.field_number for f in unknown})
        named = ["%d (%s)" % (n, NEWER_FIELDS[(message, n)]) if (message, n) in NEWER_FIELDS else str(n)
                 for n in numbers]
        found.append("%s (%s) field %s" % (path, message, ", ".join(named)))
    for fd, value in msg.ListFields():
        if fd.type != fd.TYPE_MESSAGE:
            continue
        if fd.label == fd.LABEL_REPEATED:
            for i, item in enumerate(value):
                unknown_fields(item, "%s.%s[%d]" % (path, fd.name, i), found)
        else:
            unknown_fields(value, path + "." + fd.name, found)
