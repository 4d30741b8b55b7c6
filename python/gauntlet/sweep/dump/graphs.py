"""ATTRIBUTE, NODE, GRAPH and FUNCTION blocks of the dump (sweep/DUMP_FORMAT.md); they nest
into each other through graph attributes."""
from gauntlet.sweep.dump.names import attribute_type, q
from gauntlet.sweep.dump.representable import field, has_field
from gauntlet.sweep.dump.tensors import dump_sparse, dump_tensor
from gauntlet.sweep.dump.type_protos import dump_type, dump_value_infos
from gauntlet.sweep.dump.wire_bits import fixed_entries, float_bits

# With no type, an attribute takes the type of the first field set in this order (docs/rules.md M3).
INFERENCE_ORDER = [("f", 1), ("i", 2), ("s", 3), ("t", 4), ("g", 5), ("sparse_tensor", 11),
                   ("tp", 13), ("floats", 6), ("ints", 7), ("strings", 8), ("tensors", 9),
                   ("graphs", 10), ("sparse_tensors", 12), ("type_protos", 14)]


def message_list(out, ind, keyword, items, each):
    out.append(ind + "%s %d" % (keyword, len(items)))
    for i, item in enumerate(items):
        out.append(ind + "  [%d]" % i)
        each(out, ind + "    ", item)


def declared_or_inferred_type(a):
    """(type code, "declared" or "inferred") of an attribute."""
    if a.HasField("type"):
        return a.type, "declared"
    for name, code in INFERENCE_ORDER:
        if has_field(a, name):
            return code, "inferred"
    return 0, "inferred"


def dump_attribute_scalars(out, ind, a, code, wire):
    # AttributeProto.f is field 2 (fixed32 on the wire).
    f_entries = fixed_entries(wire, 2, 4)
    fbits = float_bits(f_entries[-1]) if f_entries else "0x00000000"
    if code == 1 or fbits != "0x00000000":
        out.append(ind + "f " + fbits)
    if code == 2 or a.i != 0:
        out.append(ind + "i %d" % a.i)
    if code == 3 or len(a.s):
        out.append(ind + "s " + q(a.s))


def dump_attribute_messages(out, ind, a, ctx):
    inner = ind + "  "
    if a.HasField("t"):
        out.append(ind + "t")
        dump_tensor(out, inner, a.t, ctx)
    if a.HasField("g"):
        out.append(ind + "g")
        dump_graph(out, inner, a.g, ctx)
    if a.HasField("sparse_tensor"):
        out.append(ind + "sparse_tensor")
        dump_sparse(out, inner, a.sparse_tensor, ctx)
    if a.HasField("tp"):
        out.append(ind + "tp")
        dump_type(out, inner, a.tp)


def dump_attribute_lists(out, ind, a, code, wire, ctx):
    # AttributeProto.floats is field 7 (fixed32 on the wire).
    if code == 6 or len(a.floats):
        out.append(ind + "floats %d" % len(a.floats) + "".join(" " + float_bits(f) for f in fixed_entries(wire, 7, 4)))
    if code == 7 or len(a.ints):
        out.append(ind + "ints %d" % len(a.ints) + "".join(" %d" % i for i in a.ints))
    if code == 8 or len(a.strings):
        out.append(ind + "strings %d" % len(a.strings) + "".join(" " + q(s) for s in a.strings))
    if code == 9 or len(a.tensors):
        message_list(out, ind, "tensors", a.tensors, lambda o, i, t: dump_tensor(o, i, t, ctx))
    if code == 10 or len(a.graphs):
        message_list(out, ind, "graphs", a.graphs, lambda o, i, g: dump_graph(o, i, g, ctx))
    if code == 12 or len(a.sparse_tensors):
        message_list(out, ind, "sparse_tensors", a.sparse_tensors, lambda o, i, s: dump_sparse(o, i, s, ctx))
    if code == 14 or len(a.type_protos):
        message_list(out, ind, "type_protos", a.type_protos, dump_type)


def dump_attribute(out, ind, a, ctx):
    code, how = declared_or_inferred_type(a)
    out.append(ind + "attr_type %d %s %s" % (code, attribute_type(code), how))
    if a.ref_attr_name:
        out.append(ind + "ref_attr_name " + q(a.ref_attr_name))
    if a.doc_string:
        out.append(ind + "doc_string " + q(a.doc_string))
    wire = a.SerializeToString() if a.HasField("f") or len(a.floats) else b""
    dump_attribute_scalars(out, ind, a, code, wire)
    dump_attribute_messages(out, ind, a, ctx)
    dump_attribute_lists(out, ind, a, code, wire, ctx)


def dump_nodes(out, ind, nodes, ctx):
    inner = ind + "  "
    for index, n in enumerate(nodes):
        out.append(ind + "node %d" % index)
        out.append(inner + "name " + q(n.name))
        out.append(inner + "op_type " + q(n.op_type))
        out.append(inner + "domain " + q(n.domain))
        overload = field(n, "overload", "")
        if overload:
            out.append(inner + "overload " + q(overload))
        for s in n.input:
            out.append(inner + "input " + q(s))
        for s in n.output:
            out.append(inner + "output " + q(s))
        for a in n.attribute:
            out.append(inner + "attribute " + q(a.name))
            dump_attribute(out, inner + "  ", a, ctx)
        if n.doc_string:
            out.append(inner + "doc_string " + q(n.doc_string))
        for e in field(n, "metadata_props", ()):
            out.append(inner + "metadata_props " + q(e.key) + " " + q(e.value))


def dump_graph(out, ind, g, ctx):
    out.append(ind + "name " + q(g.name))
    if g.doc_string:
        out.append(ind + "doc_string " + q(g.doc_string))
    dump_value_infos(out, ind, "input", g.input)
    dump_value_infos(out, ind, "output", g.output)
    dump_value_infos(out, ind, "value_info", g.value_info)
    for t in g.initializer:
        out.append(ind + "initializer")
        dump_tensor(out, ind + "  ", t, ctx)
    for s in g.sparse_initializer:
        out.append(ind + "sparse_initializer")
        dump_sparse(out, ind + "  ", s, ctx)
    dump_nodes(out, ind, g.node, ctx)
    for e in field(g, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))


def dump_optional_graph(out, ind, keyword, msg, name, ctx):
    if not msg.HasField(name):
        out.append(ind + keyword + " absent")
        return
    out.append(ind + keyword)
    dump_graph(out, ind + "  ", getattr(msg, name), ctx)


def dump_function(out, ind, f, ctx):
    out.append(ind + "name " + q(f.name))
    out.append(ind + "domain " + q(f.domain))
    overload = field(f, "overload", "")
    if overload:
        out.append(ind + "overload " + q(overload))
    for s in f.input:
        out.append(ind + "input " + q(s))
    for s in f.output:
        out.append(ind + "output " + q(s))
    for s in f.attribute:
        out.append(ind + "attribute " + q(s))
    for a in field(f, "attribute_proto", ()):
        out.append(ind + "attribute_proto " + q(a.name))
        dump_attribute(out, ind + "  ", a, ctx)
    for o in f.opset_import:
        out.append(ind + "opset_import " + q(o.domain) + " %d" % o.version)
    dump_value_infos(out, ind, "value_info", field(f, "value_info", ()))
    dump_nodes(out, ind, f.node, ctx)
    if f.doc_string:
        out.append(ind + "doc_string " + q(f.doc_string))
    for e in field(f, "metadata_props", ()):
        out.append(ind + "metadata_props " + q(e.key) + " " + q(e.value))
