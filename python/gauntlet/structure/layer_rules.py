"""One-way layers of the library (importer/src/README.md, "the layers"):

- a folder of importer/src includes only the folders its row allows, however the include is
  spelled: "onnx/x.hpp", <onnx/x.hpp> (importer/src is on the include path) or "../onnx/x.hpp";
  so model/, ort/ and write/ reach nothing of onnx/, and format/ (the facts both formats and
  the writers share) stands on nothing but itself;
- the readers (onnx/, ort/) implement no part of the public API (no `namespace onnximport {`):
  what the public headers declare is defined where model/, write/ and users may reach it;
- wire/ includes no generated onnx header, and fuzz_wire builds from wire/ and core/ alone;
- the README's table of layers names, for each, the folders ALLOWED names: the page and the
  rule cannot drift apart;
- the .ort writer's lowering pass (docs/ort.md, "Writing": the LOWERING files of write/ort/)
  reaches no FlatBuffers header, directly or through what it includes: only put_*.cpp serialize.
"""
import os
import pathlib
import re

from gauntlet.structure import walk

# Which folders of importer/src each folder may include ("" is a file at the top).
ALLOWED = {
    "core": {"core"},
    "format": {"format"},
    "io": {"core", "io"},
    "wire": {"core", "wire"},
    "model": {"core", "format", "io", "model"},
    "onnx": {"core", "format", "io", "wire", "model", "onnx"},
    "external": {"core", "io", "model", "external"},
    "resolve": {"core", "model", "resolve"},
    "ort": {"core", "format", "io", "model", "external", "ort"},
    "write": {"core", "format", "io", "wire", "model", "external", "write"},
}
READERS = ("onnx", "ort")
INCLUDE = re.compile(r'^\s*#\s*include\s+(["<])([^">]+)[">]', re.M)
PUBLIC_NAMESPACE = re.compile(r"^\s*namespace\s+onnximport\s*\{", re.M)
LOWERING = ("lower", "plan", "lift_constant", "cast_like", "node_args", "node_operator", "infer_types",
            "infer_rules", "value_type", "op_signatures")
FLATBUFFERS = re.compile(r"^flatbuffers/|_generated\.h$")
README_ROW = re.compile(r"^\| `(\w+)/` \|.*\| ((?:`\w+/`(?:, )?)+) \|$", re.M)


def sources(folder):
    return walk.files(folder, (".hpp", ".cpp"))


def layer_of(src, path):
    """The folder of importer/src a path lies in ("" at the top), or None outside it."""
    try:
        parts = pathlib.Path(os.path.normpath(path)).relative_to(src).parts
    except ValueError:
        return None
    return parts[0] if len(parts) > 1 else ""


def included_layer(src, includer, quote, name):
    """The folder an include reaches, as the compiler looks: a quoted name beside the
    includer first, then importer/src. A quoted name that is no file still counts by its
    path; an angle name that is no file of importer/src is a system or public header."""
    candidates = ([includer.parent / name] if quote == '"' else []) + [src / name]
    for candidate in candidates:
        if candidate.is_file():
            return layer_of(src, candidate)
    if quote == '"':
        return layer_of(src, candidates[1] if ".." not in pathlib.Path(name).parts else candidates[0])
    return None


def includes(tree):
    """(includer, layer, quote, name, reached layer) for every include of a layered folder."""
    src = tree / "importer" / "src"
    for path in sources(src):
        layer = layer_of(src, path)
        if layer not in ALLOWED:
            continue  # the entry points on top may include every layer
        for quote, name in INCLUDE.findall(path.read_text()):
            yield path, layer, quote, name, included_layer(src, path, quote, name)


def layer_problems(tree):
    problems = []
    for path, layer, quote, name, reached in includes(tree):
        shown = f"{quote}{name}{'>' if quote == '<' else quote}"
        where = f"{path.relative_to(tree)} ({layer}/)"
        if reached is not None and reached not in ALLOWED[layer] and not name.endswith("_generated.h"):
            problems.append(f"{where} includes {shown}, of {reached or 'the top'}/")
        if layer == "wire" and quote == "<" and name.startswith("onnx"):
            problems.append(f"{where} includes {shown}")
    return problems


def reader_problems(tree):
    src = tree / "importer" / "src"
    return [f"{path.relative_to(tree)} defines part of the public API (namespace onnximport): define it "
            "below the readers" for reader in READERS if (src / reader).is_dir()
            for path in sources(src / reader) if PUBLIC_NAMESPACE.search(path.read_text())]


def fuzz_wire_problems(tree):
    fuzz_wire = tree / "harness" / "fuzz" / "fuzz_wire.cpp"
    if not fuzz_wire.is_file():
        return []
    return [f"fuzz_wire.cpp includes {name}: it tests the wire reader alone"
            for quote, name in INCLUDE.findall(fuzz_wire.read_text())
            if quote == '"' and name.split("/")[0] not in ("wire", "core") and name != "fuzz_check.hpp"]


def flatbuffers_reached(src, path, seen):
    """The first FlatBuffers header `path` includes, itself or through files of importer/src."""
    for quote, name in INCLUDE.findall(path.read_text()):
        if FLATBUFFERS.search(name):
            return name
        beside = path.parent / name
        reached = beside if quote == '"' and beside.is_file() else src / name
        if reached.is_file() and reached.resolve() not in seen:
            seen.add(reached.resolve())
            found = flatbuffers_reached(src, reached, seen)
            if found:
                return found
    return None


def lowering_problems(tree):
    src = tree / "importer" / "src"
    folder = src / "write" / "ort"
    if not folder.is_dir():
        return []
    found = [(path, flatbuffers_reached(src, path, set())) for path in sources(folder) if path.stem in LOWERING]
    return [f"{path.relative_to(tree)} (the .ort writer's lowering pass) reaches {name}: only put_*.cpp serialize"
            for path, name in found if name]


def readme_problems(tree):
    readme = tree / "importer" / "src" / "README.md"
    if not readme.is_file():
        return []
    rows = {layer: set(re.findall(r"`(\w+)/`", listed)) | {layer}
            for layer, listed in README_ROW.findall(readme.read_text(encoding="utf-8"))}
    return [f"importer/src/README.md: the row of {layer}/ names {sorted(rows.get(layer, set()))}, the layer rules "
            f"{sorted(allowed)}" for layer, allowed in ALLOWED.items() if rows.get(layer) != allowed]


def problems(tree):
    return (layer_problems(tree) + reader_problems(tree) + fuzz_wire_problems(tree) + readme_problems(tree)
            + lowering_problems(tree))
