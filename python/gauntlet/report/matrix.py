"""The cross-importer matrix (docs/matrix.md), in the spirit of JSONTestSuite's parsing matrix.

Every case of the hostile corpus, and a set of valid models (the corpus's `accept-` cases
plus a deterministic sample of the ONNX backend test models), goes through each importer:
this one (`onnximport check`), the Python onnx package (onnx.load with and without
load_external_data, and onnx.load + onnx.checker.check_model(full_check=True)), OpenCV's
cv2.dnn.readNetFromONNX, protobufjs decoding onnx.ModelProto, and ONNX Runtime from npm
(InferenceSession.create). Each runs in a subprocess with a timeout and each result is
classified as accepted, refused, crashed or timed out, then compared with what the spec
expects. So a report shows who accepts hostile models and who refuses valid ones.

Reads outside the folder are proven, not inferred: before the peers run, the corpus
folder's parent gets onnx-gauntlet-canary.bin with 16 bytes drawn for this run (the
`externaldata-canary-*` cases point there; the peers run in that parent folder, which the
absolute /proc/self/cwd/ case relies on). The workers hand back the SHA-256 of every
tensor they loaded (onnx: numpy conversion of each initializer, sparse values and
attribute tensor; ONNX Runtime and OpenCV: the outputs of a graph without inputs, run
once); a hash equal to the canary's, or to /etc/passwd's, marks the result "read outside
the folder" with the case and the hash. Cases flagged `endless` (/dev/zero, a FIFO) are
bounded by the time-out and shown as such.

Each peer has an expected-failure list, sweep/known/<peer>.txt (python/gauntlet/known.py):
the run fails when a listed case now behaves as the spec says or an unlisted one does
not, and prints the line to remove or add.

Our importer runs as one process per file (it starts in milliseconds and a crash then
touches one case only). The peers are long-lived workers (peer_onnx.py, peer_opencv.py,
peer_protobufjs.js, peer_ort.js; driven by peers.py) answering one file per request,
restarted after a crash or a timeout; two run at a time, one per core.

    matrix.py --corpus DIR --importer build/bin/onnximport --peer-dir build/peer \\
              --out build/report/matrix.json [--timeout 10] [--valid-data DIR | --no-valid]
              [--valid-count N] [--peers onnximport,python-onnx,...] [--known-dir DIR] [--update-known]
"""
import argparse
import hashlib
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from gauntlet import settings
from gauntlet.report.canary import CANARY, mark_outside, outside_hashes, write_canary
from gauntlet.report.corpus import copy_corpus, load_corpus
from gauntlet.report.findings import findings
from gauntlet.report.known_check import check_known
from gauntlet.report.peers import PEER_COLUMNS, peer_specs, run_ours, run_peer
from gauntlet.report.reads import judge_reads
from gauntlet.report.valid_models import backend_data_dir, valid_models
from gauntlet.report.verdicts import IMPORTERS, matches, summarize


class Progress:
    """Counts the cases each importer has done; says so every 10 s and when all are done."""

    def __init__(self, names, total, say):
        self.done = {n: 0 for n in names}
        self.total = total
        self.say = say
        self.lock = threading.Lock()
        self.last_print = 0.0

    def __call__(self, which):
        with self.lock:
            self.done[which] += 1
            now = time.monotonic()
            if now - self.last_print >= 10 or all(v == self.total for v in self.done.values()):
                self.last_print = now
                self.say("  matrix: " + ", ".join(f"{k} {v}/{self.total}" for k, v in self.done.items()))


def run_importers(everything, importer, timeout, ours, wanted, specs, log_dir, work, results, progress):
    """Fills results[file][importer] for every case; each importer's status."""
    importers = {}
    if "onnximport" in wanted:
        for case in everything:
            if ours and case["file"] in ours:
                results[case["file"]]["onnximport"] = ours[case["file"]]
                progress.done["onnximport"] += 1
            else:
                results[case["file"]]["onnximport"] = run_ours(importer, case["path"], timeout, case.get("options"))
                progress("onnximport")
        importers["onnximport"] = {"status": "run", "version": "working tree"}
    # The peers two at a time (one per core), each over every case in one worker.
    runnable = {n: s for n, s in specs.items() if "reason" not in s}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {n: pool.submit(run_peer, n, s, everything, log_dir, work, timeout, results, progress)
                   for n, s in runnable.items()}
        status = {n: f.result() for n, f in futures.items()}
    for n, s in specs.items():
        st = status.get(n) or {"status": "not run", "reason": s.get("reason")}
        for column in PEER_COLUMNS[n]:
            importers[column] = dict(st)
    return importers


def judged_rows(items, results, proofs):
    """A row per case: its facts and every importer's result, judged against the spec."""
    out = []
    for case in items:
        row = {k: case.get(k) for k in ("file", "path", "expected", "expected_kind", "rule_id", "rule", "description",
                                        "facts", "options", "endless", "phase")}
        row["results"] = {}
        for imp, r in results[case["file"]].items():
            r = dict(r)
            r["match"] = matches(case, r, imp)
            row["results"][imp] = r
        judge_reads(row["results"], case.get("facts"), case["expected"] == "accept" and not case.get("options"))
        for r in row["results"].values():  # what was read stays only as evidence of a difference
            if not r.get("read_differently"):
                r.pop("read", None)
        mark_outside(row, proofs)
        out.append(row)
    return out


def reads_outside(hostile_rows):
    """{importer: [the cases where it handed back bytes from outside the folder]}."""
    read_outside = {}
    for row in hostile_rows:
        for hit in row["read_outside"]:
            read_outside.setdefault(hit["importer"], []).append(
                {"case": row["file"], "target": hit["target"], "sha256": hit["sha256"], "tensor": hit["tensor"]})
    return read_outside


def valid_section(valid, valid_rows, accept_rows, importers):
    return {
        "status": "run" if valid is not None else "not run",
        "reason": None if valid is not None else "no valid-model set in this run",
        "label": valid["label"] if valid else None, "data_dir": valid.get("data_dir") if valid else None,
        "sampled": len(valid_rows), "total": valid["total"] if valid else 0, "accept_cases": len(accept_rows),
        "summary": summarize(accept_rows + valid_rows, importers),
        "cases": valid_rows,
    }


def say_summary(doc, importers, say):
    for imp, s in doc["summary"].items():
        say(f"  matrix: {imp}: {s['match']}/{s['cases']} as the spec says; accepted {s['accepted_spec_refuses']} "
            f"the spec refuses, refused {s['refused_spec_accepts']} it accepts, {s['crashed']} crashed, "
            f"{s['timeout']} timed out, {s['read_outside']} read outside the folder, "
            f"{s['memory_amplified']} memory amplifications, {s['internal_errors']} internal errors")
    for imp, s in doc["valid"]["summary"].items():
        say(f"  matrix: {imp}: refused {s['refused_spec_accepts']} of {s['cases']} valid models")
    for imp, hits in doc["read_outside"].items():
        say(f"  matrix: {imp} read outside the folder in {len(hits)} cases: " + ", ".join(h["case"] for h in hits))
    for imp in importers:
        if importers[imp].get("status") != "run":
            say(f"  matrix: {imp}: not run: {importers[imp].get('reason')}")


def run_matrix(cases, importer, peer_dir, timeout, log_dir, ours=None, say=print, valid=None, peers=None,
               known_dir=settings.KNOWN_DIR, update_known=False, corpus_dir=None):
    """The matrix document for hostile `cases` and `valid` models ({"label", "models", "total"}
    or None). `ours` may carry this importer's hostile results already (make_report.py runs
    them for the hostile table first); they are not run twice. The canary is written into
    the corpus folder's parent for the run and removed afterwards."""
    os.makedirs(log_dir, exist_ok=True)
    corpus_dir = corpus_dir or os.path.dirname(os.path.abspath(cases[0]["path"]))
    work = os.path.dirname(os.path.abspath(corpus_dir))
    valid_cases = list(valid["models"]) if valid else []
    everything = cases + valid_cases
    results = {c["file"]: {} for c in everything}
    wanted = set(peers or ["onnximport", *PEER_COLUMNS])
    specs = {n: s for n, s in peer_specs(peer_dir).items() if n in wanted}
    progress = Progress(["onnximport", *specs], len(everything), say)
    canary_path, canary_bytes = write_canary(work)
    proofs = outside_hashes(canary_bytes)
    started = time.monotonic()
    try:
        importers = run_importers(everything, importer, timeout, ours, wanted, specs, log_dir, work, results, progress)
    finally:
        os.remove(canary_path)
    hostile_rows, valid_rows = judged_rows(cases, results, proofs), judged_rows(valid_cases, results, proofs)
    for imp, _label in IMPORTERS:
        importers.setdefault(imp, {"status": "not run", "reason": "left out of this run (--peers)"})
    accept_rows = [r for r in hostile_rows if r["expected"] == "accept" and not r["options"]]
    doc = {
        "status": "run",
        "timeout_seconds": timeout,
        "seconds": round(time.monotonic() - started, 1),
        "importers": [dict(importers[k], id=k, label=label) for k, label in IMPORTERS],
        "summary": summarize(hostile_rows, importers),
        "cases": hostile_rows,
        "canary": {"file": CANARY, "folder": work, "sha256": hashlib.sha256(canary_bytes).hexdigest(),
                   "bytes": len(canary_bytes)},
        "read_outside": reads_outside(hostile_rows),
        "bounded": [r["file"] for r in hostile_rows if r.get("endless")],
        "valid": valid_section(valid, valid_rows, accept_rows, importers),
    }
    doc["findings"] = findings(doc)
    doc["known"] = check_known(hostile_rows + valid_rows, importers, known_dir, update_known, say,
                               strip=[work] + ([valid["data_dir"]] if valid and valid.get("data_dir") else []))
    say_summary(doc, importers, say)
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, help="folder of <kind>-<case>.onnx files and manifest.json")
    ap.add_argument("--importer", required=True, help="path to build/bin/onnximport")
    ap.add_argument("--peer-dir", default=os.path.join(settings.build_dir(), "peer"),
                    help="where tools/install_peer.sh installed the npm peers")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per file and importer")
    ap.add_argument("--out", required=True, help="matrix.json to write")
    ap.add_argument("--log-dir", default=None, help="worker stderr logs (default: next to --out)")
    ap.add_argument("--valid-data", default=None, help="backend test data folder (default: the shared 1.23 data, "
                                                       "else the data set generated from the installed onnx)")
    ap.add_argument("--valid-count", type=int, default=150, help="backend models in the valid-model sample")
    ap.add_argument("--no-valid", action="store_true", help="no backend models (the accept cases still count as valid)")
    ap.add_argument("--peers", default=None, help="comma-separated subset of onnximport," + ",".join(PEER_COLUMNS))
    ap.add_argument("--known-dir", default=settings.KNOWN_DIR, help="expected-failure lists (default sweep/known)")
    ap.add_argument("--update-known", action="store_true", help="rewrite the lists from this run")
    args = ap.parse_args()

    out_dir = os.path.dirname(os.path.abspath(args.out))
    # The canary goes into the corpus folder's parent: a copy of the corpus, never the
    # source tree.
    work_corpus = os.path.join(out_dir, "matrix-work", "corpus")
    copy_corpus(args.corpus, work_corpus)
    cases, _ = load_corpus(work_corpus)
    valid = None
    if not args.no_valid:
        label, data = backend_data_dir(settings.build_dir(), args.valid_data)
        models, total = valid_models(label, data, args.valid_count)
        valid = {"label": label, "data_dir": data, "models": models, "total": total}
    log_dir = args.log_dir or out_dir
    doc = run_matrix(cases, os.path.abspath(args.importer), os.path.abspath(args.peer_dir), args.timeout, log_dir,
                     say=lambda line: print(line, flush=True), valid=valid,
                     peers=args.peers.split(",") if args.peers else None, known_dir=args.known_dir,
                     update_known=args.update_known, corpus_dir=work_corpus)
    doc["corpus"] = os.path.abspath(args.corpus)
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    os.replace(tmp, args.out)
    off = sum(len(k["stale"]) + len(k["new"]) for k in doc["known"].values())
    print(f"matrix: expected-failure lists: {off} lines off" + ("" if off else " (all current)"))
    return 1 if off and not args.update_known else 0


if __name__ == "__main__":
    sys.exit(main())
