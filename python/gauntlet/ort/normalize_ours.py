"""What our own .ort writer changes, applied to the two dumps before python/gauntlet/ort/roundtrip.py
compares them: only the normalizations the format or ONNX Runtime's loader forces
(docs/ort-normalizations.md, "Our writer"). Shares the tree helpers of normalize.py.

normalize(onnx_tree, ort_tree) -> set of the normalization names that changed something.
"""
from gauntlet.ort.dumptree import Line
from gauntlet.ort.normalize import (fold_constants, graphs_in, keep_declared_value_info, keep_untyped_io_untyped, renumber_nodes,
                       walk)


def lift_sparse_constants(graph, applied):
    """A Constant with sparse_value becomes a sparse initializer named after its output."""
    kept, made = [], []
    for child in graph.children:
        attrs = child.find("attribute") if child.key == "node" else []
        if (child.key == "node" and child.first("op_type").value == '"Constant"' and len(attrs) == 1
                and attrs[0].value == '"sparse_value"' and attrs[0].first("sparse_tensor")):
            sparse = attrs[0].first("sparse_tensor")
            values = sparse.first("values")
            values.children[0] = Line("name " + child.first("output").value)
            made.append(Line("sparse_initializer", sparse.children))
            applied.add("constant-to-initializer")
            continue
        kept.append(child)
    at = next((i for i, c in enumerate(kept) if c.key in ("node", "metadata_props")), len(kept))
    kept[at:at] = made
    graph.children[:] = kept


def stated_elem_types(graph):
    """{value name: element type} of what the graph itself states: inputs, outputs,
    value_info and initializers."""
    types = {}
    for key in ("input", "output", "value_info"):
        for v in graph.find(key):
            t = v.first("type")
            e = t.first("elem_type") if t is not None and t.value == "tensor" else None
            if e is not None:
                types[v.value] = e.value.split(" ")[0]
    for t in graph.find("initializer"):
        types[t.first("name").value] = t.first("data_type").value.split(" ")[0]
    return types


def cast_like_as_cast(og, rg, applied):
    """A CastLike written as the Cast of its function body: its input only, its attributes
    and `to`, which must be target_type's element type where the graph states it."""
    stated = stated_elem_types(og)
    for a, b in zip(og.find("node"), rg.find("node")):
        if a.first("op_type").value != '"CastLike"' or b.first("op_type").value != '"Cast"':
            continue
        inputs = a.find("input")
        to = next((t for t in b.find("attribute") if t.value == '"to"'), None)
        if len(inputs) != 2 or to is None or to.first("i") is None:
            continue
        if inputs[1].value in stated and stated[inputs[1].value] != to.first("i").value:
            continue  # a wrong `to` stays a difference
        a.first("op_type").text = 'op_type "Cast"'
        a.children.remove(inputs[1])
        last = max(i for i, c in enumerate(a.children) if c.key in ("output", "attribute"))
        a.children.insert(last + 1, to)
        applied.add("castlike-as-cast")


def drop_keys(line, keys, applied, name):
    kept = [c for c in line.children if c.key not in keys]
    if len(kept) != len(line.children):
        applied.add(name)
    line.children[:] = kept


def normalize_graph(og, rg, applied, main):
    name = og.first("name")
    if name is not None and name.value != '""':
        name.text = 'name ""'
        applied.add("graph-name-dropped")
    if not main:
        drop_keys(og, ("doc_string",), applied, "subgraph-doc-string-dropped")
    fold_constants(og, applied)
    lift_sparse_constants(og, applied)
    keep_declared_value_info(og, rg, applied)
    keep_untyped_io_untyped(og, rg, applied)
    cast_like_as_cast(og, rg, applied)
    renumber_nodes(og)
    for a, b in zip(og.find("node"), rg.find("node")):
        drop_keys(a, ("overload",), applied, "overload-dropped")
        for sa, sb in zip(graphs_in(a), graphs_in(b)):
            normalize_graph(sa, sb, applied, False)


def normalize_lines(onnx_root, applied):
    """Line-level rewrites anywhere in the .onnx tree."""
    for line in walk(onnx_root):
        if line.text == "source typed":
            line.text = "source raw"
            applied.add("typed-fields-as-raw-data")
        elif line.text == "source none":
            line.text = "source raw"
            applied.add("no-elements-as-empty-raw-data")
        elif line.text == "source external":
            line.text = "source raw"
            applied.add("external-data-inline")
        elif line.key == "attr_type" and line.text.endswith(" inferred"):
            line.text = line.text[:-len("inferred")] + "declared"
            applied.add("attribute-type-declared")
        elif line.key == "domain" and line.value == '"ai.onnx"':
            line.text = 'domain ""'
            applied.add("ai-onnx-domain-as-empty")
        elif line.key == "opset_import" and line.value.startswith('"ai.onnx" '):
            line.text = 'opset_import ""' + line.value[len('"ai.onnx"'):]
            applied.add("ai-onnx-domain-as-empty")
        location = line.first("data_location")
        if location is not None and location.value == "1":
            location.text = "data_location 0"
            drop_keys(line, ("external_data",), applied, "external-data-inline")
        if line is not onnx_root:  # the model's own metadata_props has a table
            drop_keys(line, ("metadata_props",), applied, "metadata-props-dropped")


def external_storage(ort_root, applied):
    """External mode: a tensor in the companion file reads back as external; its bytes count."""
    for line in walk(ort_root):
        location = line.first("data_location")
        if location is not None and location.value == "1":
            location.text = "data_location 0"
            drop_keys(line, ("external_data",), applied, "external-mode-storage")
            for c in line.children:
                if c.text == "source external":
                    c.text = "source raw"
            applied.add("external-mode-storage")


def normalize(onnx_root, ort_root):
    applied = set()
    normalize_lines(onnx_root, applied)
    external_storage(ort_root, applied)
    og, rg = onnx_root.first("graph"), ort_root.first("graph")
    if og and rg:
        normalize_graph(og, rg, applied, True)
    return applied
