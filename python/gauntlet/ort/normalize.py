"""The normalizations ONNX Runtime applies when it writes a .ort, applied to the two
dumps before they are compared (docs/ort-normalizations.md lists each one and why).

normalize(onnx_tree, ort_tree) -> set of the normalization names that changed something.
Both trees (dumptree.Line) are changed in place. A difference that no normalization
explains stays, and the model fails.
"""
import hashlib
import struct

from gauntlet.ort.dumptree import Line

NO_VERSION = "9223372036854775807"  # ONNX Runtime's "no model_version" (INT64_MAX)


def unquote(token):
    """The bytes of a dump string token ("..." with \\" \\\\ \\xHH escapes)."""
    out, i, body = bytearray(), 0, token[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if body[i + 1] == "x":
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            out.append(ord(body[i + 1]))
            i += 2
            continue
        out.append(ord(ch))
        i += 1
    return bytes(out)


def string_tokens(text):
    """Splits `COUNT "a" "b"` into the quoted tokens."""
    tokens, i = [], text.find('"')
    while 0 <= i < len(text):
        j = i + 1
        while text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        tokens.append(text[i:j + 1])
        i = text.find('"', j + 1)
    return tokens


def tensor_lines(name, code, type_name, dims, source, count, digest):
    lines = [Line('name ' + name), Line("data_type %d %s" % (code, type_name)),
             Line(("dims " + " ".join(str(d) for d in dims)).rstrip()), Line("data_location 0"),
             Line("source " + source), Line("bytes %d" % count), Line("sha256 " + digest)]
    return Line("initializer", lines)


def constant_tensor(attr, output):
    """The initializer ONNX Runtime makes of a Constant node's attribute, or None."""
    name, kind = attr.value, None
    if name == '"value"':
        t = attr.first("t")
        if not t:
            return None
        fresh = Line("initializer", [Line(c.text, c.children) for c in t.children])
        fresh.children[0] = Line("name " + output)
        return fresh
    if name == '"value_float"':
        bits = int(attr.first("f").value, 16)
        return tensor_lines(output, 1, "FLOAT", [], "raw", 4, hashlib.sha256(struct.pack("<I", bits)).hexdigest())
    if name == '"value_floats"':
        vals = [int(v, 16) for v in attr.first("floats").value.split()[1:]]
        raw = b"".join(struct.pack("<I", v) for v in vals)
        return tensor_lines(output, 1, "FLOAT", [len(vals)], "raw", len(raw), hashlib.sha256(raw).hexdigest())
    if name == '"value_int"':
        raw = struct.pack("<q", int(attr.first("i").value))
        return tensor_lines(output, 7, "INT64", [], "raw", 8, hashlib.sha256(raw).hexdigest())
    if name == '"value_ints"':
        vals = [int(v) for v in attr.first("ints").value.split()[1:]]
        raw = b"".join(struct.pack("<q", v) for v in vals)
        return tensor_lines(output, 7, "INT64", [len(vals)], "raw", len(raw), hashlib.sha256(raw).hexdigest())
    if name in ('"value_string"', '"value_strings"'):
        if name == '"value_string"':
            items, dims = [unquote(attr.first("s").value)], []
        else:
            items = [unquote(t) for t in string_tokens(attr.first("strings").value)]
            dims = [len(items)]
        raw = b"".join(struct.pack("<Q", len(s)) + s for s in items)
        return tensor_lines(output, 8, "STRING", dims, "strings", len(items), hashlib.sha256(raw).hexdigest())
    return kind


def is_plain_constant(node):
    return (node.first("op_type").value == '"Constant"' and node.first("domain").value in ('""', '"ai.onnx"')
            and not node.find("input") and len(node.find("output")) == 1 and len(node.find("attribute")) == 1)


def graphs_in(node):
    """The subgraphs of a node's attributes, in order."""
    found = []
    for attr in node.find("attribute"):
        found.extend(attr.find("g"))
        for gs in attr.find("graphs"):
            found.extend(item for item in gs.children)
    return found


def reads_of(graph):
    """Every name read by the nodes of a graph or of its subgraphs, and its outputs."""
    names = {o.value for o in graph.find("output")}
    for node in graph.find("node"):
        names.update(i.value for i in node.find("input"))
        for sub in graphs_in(node):
            names.update(reads_of(sub))
    return names


# ONNX function ops that ONNX Runtime 1.30 expanded into their bodies in the backend data
# (no kernel for the types used; function inlining happens at load, whatever the level).
FUNCTION_OPS = {'"CastLike"', '"NegativeLogLikelihoodLoss"', '"SoftmaxCrossEntropyLoss"', '"CenterCropPad"',
                '"SequenceMap"', '"GroupNormalization"', '"Mish"', '"Swish"', '"HardSwish"', '"Bernoulli"'}


def input_type(graph, tensor):
    """The graph input ONNX Runtime lists for an initializer below IR version 4."""
    code, type_name = tensor.first("data_type").value.split(" ")
    dims = tensor.first("dims").value.split()
    shape = Line("shape %d" % len(dims), [Line("dim value " + d) for d in dims])
    return Line("input " + tensor.first("name").value,
                [Line("type tensor", [Line("elem_type %s %s" % (code, type_name)), shape])])


def fold_constants(graph, applied, as_inputs=False):
    kept, made = [], []
    for child in graph.children:
        if child.key == "node" and is_plain_constant(child):
            tensor = constant_tensor(child.first("attribute"), child.first("output").value)
            if tensor is not None:
                made.append(tensor)
                applied.add("constant-to-initializer")
                continue
        kept.append(child)
    # In the dump's place: initializers come before sparse initializers and nodes; inputs first.
    at = next((i for i, c in enumerate(kept) if c.key in ("sparse_initializer", "node", "metadata_props")), len(kept))
    kept[at:at] = made
    if as_inputs and made:
        last_input = max((i for i, c in enumerate(kept) if c.key == "input"), default=0)
        kept[last_input + 1:last_input + 1] = [input_type(graph, t) for t in made]
        applied.add("ir3-initializers-as-inputs")
    graph.children[:] = kept


def drop_added_attributes(onnx_graph, ort_graph, applied):
    """Attributes ONNX Runtime adds (operator schema defaults) where the .onnx has none."""
    for a, b in zip(onnx_graph.find("node"), ort_graph.find("node")):
        present = {attr.value for attr in a.find("attribute")}
        kept = [c for c in b.children if c.key != "attribute" or c.value in present]
        if len(kept) != len(b.children):
            applied.add("schema-default-attributes-added")
        b.children[:] = kept


def rewritten(onnx_graph, ort_graph):
    """True when ONNX Runtime expanded a function op or inserted precision casts here."""
    # ONNX Runtime's cast insertion names what it adds InsertedPrecisionFreeCast_*.
    if any(v.value.startswith('"InsertedPrecisionFreeCast_') for n in ort_graph.find("node")
           for v in n.children if v.key in ("input", "output")):
        return True
    ops_a = sorted(n.first("op_type").value for n in onnx_graph.find("node"))
    ops_b = sorted(n.first("op_type").value for n in ort_graph.find("node"))
    gone = set(ops_a) - set(ops_b)
    return ops_a != ops_b and bool(gone) and gone <= FUNCTION_OPS


def drop_rewritten_nodes(onnx_graph, ort_graph, applied):
    """Nodes and value_info of a rewritten graph are not compared; the rest is."""
    known = {t.first("name").value for t in onnx_graph.find("initializer")}
    onnx_graph.children[:] = [c for c in onnx_graph.children if c.key not in ("node", "value_info")]
    ort_graph.children[:] = [c for c in ort_graph.children if c.key not in ("node", "value_info") and
                             not (c.key == "initializer" and c.first("name").value not in known)]
    applied.add("function-inlined-or-casts-inserted")


def drop_unused_initializers(onnx_graph, ort_graph, applied):
    written = {t.first("name").value for t in ort_graph.find("initializer")}
    read = reads_of(onnx_graph)
    kept = []
    for child in onnx_graph.children:
        if child.key == "initializer":
            name = child.first("name").value
            if name not in written and name not in read:
                applied.add("unused-initializer-removed")
                continue
        kept.append(child)
    onnx_graph.children[:] = kept


def keep_declared_value_info(onnx_graph, ort_graph, applied):
    declared = {v.value for v in onnx_graph.find("value_info")}
    kept = []
    for child in ort_graph.children:
        if child.key == "value_info" and child.value not in declared:
            applied.add("node-args-as-value-info")
            continue
        kept.append(child)
    ort_graph.children[:] = kept


def keep_untyped_io_untyped(onnx_graph, ort_graph, applied):
    """A graph input or output the .onnx leaves without a type gets its inferred type."""
    for key in ("input", "output"):
        for a, b in zip(onnx_graph.find(key), ort_graph.find(key)):
            ta, tb = a.first("type"), b.first("type")
            if a.value == b.value and ta is not None and tb is not None and ta.value == "none" != tb.value:
                b.children[b.children.index(tb)] = ta
                applied.add("untyped-io-inferred")


def sort_children(line, key, by, applied, label):
    items = [c for c in line.children if c.key == key]
    ordered = sorted(items, key=by)
    if ordered != items:
        applied.add(label)
    it = iter(ordered)
    line.children[:] = [next(it) if c.key == key else c for c in line.children]


def renumber_nodes(graph):
    for i, node in enumerate(graph.find("node")):
        node.text = "node %d" % i


def normalize_graph(onnx_graph, ort_graph, applied, ir3_main=False):
    name = onnx_graph.first("name")
    if name is not None and name.value != '""':
        name.text = 'name ""'
        applied.add("graph-name-dropped")
    fold_constants(onnx_graph, applied, ir3_main)
    drop_unused_initializers(onnx_graph, ort_graph, applied)
    keep_declared_value_info(onnx_graph, ort_graph, applied)
    keep_untyped_io_untyped(onnx_graph, ort_graph, applied)
    if rewritten(onnx_graph, ort_graph):
        drop_rewritten_nodes(onnx_graph, ort_graph, applied)
    for g in (onnx_graph, ort_graph):
        sort_children(g, "initializer", lambda t: t.first("name").value, applied, "initializer-order")
        renumber_nodes(g)
        for node in g.find("node"):
            sort_children(node, "attribute", lambda a: a.value, applied, "attribute-order")
    drop_added_attributes(onnx_graph, ort_graph, applied)
    for a, b in zip(onnx_graph.find("node"), ort_graph.find("node")):
        for sa, sb in zip(graphs_in(a), graphs_in(b)):
            normalize_graph(sa, sb, applied)


def walk(line):
    yield line
    for c in line.children:
        yield from walk(c)


def normalize_model(onnx_root, ort_root, applied):
    for line in walk(onnx_root):
        if line.text == "source typed":
            line.text = "source raw"
            applied.add("typed-fields-as-raw-data")
    mv_onnx, mv_ort = onnx_root.first("model_version"), ort_root.first("model_version")
    if mv_onnx and mv_ort and mv_onnx.value == "0" and mv_ort.value == NO_VERSION:
        mv_ort.text = "model_version 0"
        applied.add("model-version-sentinel")
    for line in onnx_root.find("opset_import"):
        if line.value.startswith('"ai.onnx" '):
            line.text = 'opset_import ""' + line.value[len('"ai.onnx"'):]
            applied.add("ai-onnx-domain-as-empty")
    declared = {line.value.rsplit(" ", 1)[0] for line in onnx_root.find("opset_import")}
    kept = []
    for child in ort_root.children:
        if child.key == "opset_import" and child.value.rsplit(" ", 1)[0] not in declared:
            applied.add("registered-domains-added")
            continue
        kept.append(child)
    ort_root.children[:] = kept
    og, rg = onnx_root.first("graph"), ort_root.first("graph")
    ir = onnx_root.first("ir_version")
    if og and rg:
        normalize_graph(og, rg, applied, ir is not None and int(ir.value) < 4)


def normalize(onnx_root, ort_root):
    applied = set()
    normalize_model(onnx_root, ort_root, applied)
    return applied
