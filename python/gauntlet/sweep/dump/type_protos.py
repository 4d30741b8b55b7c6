"""TYPE blocks of the dump: a TypeProto, and the value infos that carry one
(sweep/DUMP_FORMAT.md)."""
from gauntlet.sweep.dump.names import element_type, q
from gauntlet.sweep.dump.representable import Skip, field


def dump_tensor_type(out, ind, inner, kind, t):
    out.append(ind + "type " + kind[:-5])
    tt = getattr(t, kind)
    out.append(inner + "elem_type " + element_type(tt.elem_type))
    if not tt.HasField("shape"):
        out.append(inner + "shape absent")
        return
    out.append(inner + "shape %d" % len(tt.shape.dim))
    for d in tt.shape.dim:
        which = d.WhichOneof("value")
        if which == "dim_value":
            out.append(inner + "  dim value %d" % d.dim_value)
        elif which == "dim_param":
            out.append(inner + "  dim param " + q(d.dim_param))
        else:
            out.append(inner + "  dim unknown")
        if d.denotation:
            out.append(inner + "    denotation " + q(d.denotation))


def dump_type(out, ind, t):
    """A TYPE block; t is None for an inner type field that is absent."""
    if t is None:
        out.append(ind + "type absent")
        return
    kind = t.WhichOneof("value")
    inner = ind + "  "
    if kind is None:
        out.append(ind + "type none")
    elif kind in ("tensor_type", "sparse_tensor_type"):
        dump_tensor_type(out, ind, inner, kind, t)
    elif kind in ("sequence_type", "optional_type"):
        out.append(ind + "type " + kind[:-5])
        st = getattr(t, kind)
        dump_type(out, inner, st.elem_type if st.HasField("elem_type") else None)
    elif kind == "map_type":
        out.append(ind + "type map")
        out.append(inner + "key_type " + element_type(t.map_type.key_type))
        dump_type(out, inner, t.map_type.value_type if t.map_type.HasField("value_type") else None)
    elif kind == "opaque_type":
        out.append(ind + "type opaque")
        out.append(inner + "domain " + q(t.opaque_type.domain))
        out.append(inner + "name " + q(t.opaque_type.name))
    else:
        raise Skip("TypeProto member %s is not in the dump format" % kind)
    if t.denotation:
        out.append(inner + "denotation " + q(t.denotation))


def dump_value_infos(out, ind, keyword, values):
    for v in values:
        out.append(ind + keyword + " " + q(v.name))
        dump_type(out, ind + "  ", v.type)
        if v.doc_string:
            out.append(ind + "  doc_string " + q(v.doc_string))
        for e in field(v, "metadata_props", ()):
            out.append(ind + "  metadata_props " + q(e.key) + " " + q(e.value))
