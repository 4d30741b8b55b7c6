"""The table and the summary of python/gauntlet/ort/run_conformance.py."""
import collections
import os
import re

COUNTED = ("passed", "failed")
LISTED = ("known", "not-written", "cannot-load", "cannot-run", "not-comparable")


def _after_signature(text):
    """The text after the C++ signature that follows ONNX Runtime's source location."""
    depth, start = 0, text.find("(")
    for i in range(max(start, 0), len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if start >= 0 and depth == 0:
            return re.sub(r"^ const\b", "", text[i + 1:]).strip()
    return text


def message_of(error):
    """ONNX Runtime's message without the file it loaded, its source location and signature."""
    text = re.sub(r"^Load model from \S+ failed:", "", error)
    at = re.search(r"/onnxruntime_src/\S+:\d+ ", text)
    return text[:at.start()] + _after_signature(text[at.end():]) if at else text


def error_key(error):
    """The message with names and numbers taken out, to group models by."""
    text = re.sub(r"\b(input|output) \d+ \([^)]*\)", r"\1 N", message_of(error))
    text = re.sub(r"'[^']*'|\"[^\"]*\"|/\S+", "_", text)
    text = re.sub(r"\b\w+\(\d+\)", "OP(N)", text)
    return re.sub(r"\d+", "N", text)[:100]


def write_tsv(path, rows):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        for row in rows:
            f.write("\t".join(" ".join(str(c).split()) for c in row) + "\n")
    os.replace(path + ".tmp", path)


def print_listed(rows, outcome, limit):
    chosen = [r for r in rows if r[1] == outcome]
    if not chosen:
        return
    print("  %s: %d models" % (outcome, len(chosen)))
    groups = collections.Counter(error_key(d) for _r, _o, d in chosen)
    for key, n in groups.most_common(limit):
        example = next(r for r in chosen if error_key(r[2]) == key)
        print("    %4d  %s\n          e.g. %s: %s" % (n, key, example[0], message_of(example[2])[:300]))


def report(args, rows, version, seconds):
    write_tsv(os.path.join(args.out, "table.tsv"), rows)
    write_tsv(os.path.join(args.out, "cannot-run.tsv"),
              [r for r in rows if r[1] in ("cannot-load", "cannot-run")])
    counts = collections.Counter(o for _r, o, _d in rows)
    print("ort_run: %s/<rel>/%s on ONNX Runtime %s, %d models, %.1f s; table %s"
          % (args.models_from, args.file, version, len(rows), seconds, os.path.join(args.out, "table.tsv")))
    print("  " + ", ".join("%s %d" % (o, counts[o]) for o in COUNTED + LISTED))
    for outcome in LISTED:
        print_listed(rows, outcome, 10)
    for rel, _o, detail in (r for r in rows if r[1] == "failed"):
        print("  FAILED %s: %s" % (rel, detail[:400]))
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0
