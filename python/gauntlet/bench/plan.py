"""What `make bench` times (gauntlet/bench/run.py): the importer rows of each model, the
hash-flooding pairs, the rows of the table and the models also timed cold."""

# (label, command suffix) per importer; "ours-plain-map" is the mapping without madvise.
OURS = {
    "ours-map": ["--importer", "ours", "--mode", "map"],
    "ours-map-ort": ["--importer", "ours", "--mode", "map"],  # on the model's .ort twin (bench/ort.py)
    "ours-read": ["--importer", "ours", "--mode", "read"],
    "ours-read-2threads": ["--importer", "ours", "--mode", "read", "--threads", "2"],
    "ours-plain-map": ["--importer", "ours", "--mode", "plain-map"],
    "ours-map-noresolve": ["--importer", "ours", "--mode", "map", "--no-resolve"],
    "ours-memory": ["--importer", "ours", "--mode", "memory"],
    # ours-memory with ImportOptions::times: where the time goes, step by step (markdown.steps_table).
    "ours-steps": ["--importer", "ours", "--mode", "memory", "--steps"],
    "protobuf": ["--importer", "protobuf"],
    "protobuf-arena": ["--importer", "protobuf-arena"],
    "protozero": ["--importer", "protozero"],
}
PLAN = {
    "big": ["ours-map", "ours-map-ort", "ours-plain-map", "ours-read", "ours-read-2threads", "protobuf", "python"],
    "big-external": ["ours-map", "ours-plain-map", "ours-read", "protobuf", "python"],
    # ours-memory: like with like against libprotobuf's parse of bytes already in memory (targets.SPEED).
    "wide": ["ours-map", "ours-map-ort", "ours-map-noresolve", "ours-read", "ours-memory", "ours-steps", "protozero",
             "protobuf", "protobuf-arena", "python"],
    "reversed": ["ours-map", "ours-map-ort", "ours-map-noresolve", "ours-read", "protozero", "protobuf",
                 "protobuf-arena", "python"],
    # Like with like: ours-memory against ParseFromArray, ours-map and -read against map + parse.
    "backend": ["ours-memory", "ours-map", "ours-read", "protobuf", "python"],
    "big-small": ["ours-map"],
    # 10^6-node chain sorted and reversed: the sort must stay O(n log n).
    "chain": ["ours-map", "ours-map-ort", "ours-map-noresolve", "ours-memory", "ours-steps", "protobuf"],
    "chain-reversed": ["ours-map", "ours-map-noresolve", "ours-memory", "ours-steps", "protobuf"],
    # A mid-size graph: the Workspace keeps its blocks too (docs/performance-history.md, "Mid-size graphs").
    "chain-10k": ["ours-memory", "ours-steps", "protobuf"],
    # big as .ort (gauntlet/bench/ort.py): ONNX Runtime's inline file, our external one.
    "big-ort": ["ours-map", "ours-read", "ours-read-2threads"],
    "big-ort-external": ["ours-map", "ours-read", "ours-read-2threads"],
    # wide as ONNX Runtime writes it (gauntlet/bench/ort.py): its NodeArgs in no order of the nodes'.
    "wide-ort": ["ours-map", "ours-memory"],
}
# The hash-flooding pairs (docs/performance.md): crafted and ordinary names, and the folder-relative
# model path of each (external data sits beside its model).
FLOOD = {
    "opset domains": ("opsets-crafted.onnx", "opsets-ordinary.onnx"),
    "captured names": ("captures-crafted.onnx", "captures-ordinary.onnx"),
    "value names": ("values-crafted.onnx", "values-ordinary.onnx"),
    "external locations": ("external-crafted/model.onnx", "external-ordinary/model.onnx"),
    "short value names": ("short-values-crafted.onnx", "short-values-ordinary.onnx"),
    "medium value names": ("medium-values-crafted.onnx", "medium-values-ordinary.onnx"),
}
TABLE_MODELS = ["big", "big-external", "big-ort", "big-ort-external", "wide", "wide-ort", "reversed", "backend",
                "chain", "chain-reversed", "chain-10k"]
# Also timed cold: the first import in a fresh process, no warm-up, one child per run. A
# warm run reuses memory its process freed before (libprotobuf's many small blocks come
# back from malloc's free lists); a cold one faults in, and the kernel zeroes, everything.
COLD = {"wide": ["ours-map", "protobuf"], "reversed": ["ours-map", "protobuf"], "big": ["ours-map", "protobuf"]}
# Children per (model, importer), taking turns with the other importers of the model.
ROUNDS = 3
# A slow spell of the host can outlast all three rounds of a model whose children are short
# (docs/performance-history.md, "Rounds as short as the machine's spells", measures both): those models
# get more rounds, so that a spell weighs on each of their rows alike.
MORE_ROUNDS = {"backend": 15, "chain-10k": 15, "chain": 5, "chain-reversed": 5}


def rounds_of(model: str) -> int:
    return MORE_ROUNDS.get(model, ROUNDS)
