"""The cross-importer matrix (issues 8 and 20), in the spirit of JSONTestSuite's parsing matrix.

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
import shutil
import stat
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
from gauntlet.report.corpus import load_corpus
from gauntlet import known as known_mod, settings
from gauntlet.report.peers import PEER_COLUMNS, _one_line, peer_specs, run_ours, run_peer  # noqa: F401 (run_ours: make_report)
from gauntlet.report.peers_more import MORE_IMPORTERS, MORE_ORT_READERS
from gauntlet.report.reads import judge_reads
from gauntlet.report.findings import findings

CANARY = "onnx-gauntlet-canary.bin"

# The columns, in the order the report shows them.
IMPORTERS = [
    ("onnximport", "onnx-gauntlet (this importer): onnximport check"),
    ("onnx.load", "Python onnx: onnx.load (external data loaded)"),
    ("onnx.load-noext", "Python onnx: onnx.load(load_external_data=False)"),
    ("onnx.checker", "Python onnx: onnx.load + check_model(full_check=True)"),
    ("opencv", "OpenCV dnn: cv2.dnn.readNetFromONNX"),
    ("protobufjs", "protobufjs: onnx.ModelProto.decode (Debian's onnx.proto)"),
    ("onnxruntime", "ONNX Runtime (npm onnxruntime-node): InferenceSession.create"),
    *MORE_IMPORTERS,
]


ORT_READERS = ("onnximport", "onnxruntime", *MORE_ORT_READERS)
ORT_EXTERNAL_RULES = ("O7", "O14")


def applies(case, importer):
    """Whether the spec fixes this importer's outcome for this case.

    A case with import options (max_nesting, external_dir, import from bytes) tests this
    importer's options; the peers have none of them, so their outcome there is shown but
    not judged. `import: bytes` cannot be asked of a command line that opens files, so
    that case is judged by the hostile test suite (hostile_tests), not here. A .ort case
    is judged only for the importers that read .ort, and its external data (rules O7 and
    O14, this project's extension) not for the ONNX Runtime readers, whose loaders have no reader for it.
    """
    options = case.get("options") or {}
    if case["file"].endswith(".ort") and (importer not in ORT_READERS or
                                          (importer != "onnximport" and case.get("rule_id") in ORT_EXTERNAL_RULES)):
        return False
    if importer == "onnximport":
        return options.get("import") != "bytes"
    return not options


def matches(case, result, importer):
    """Does this result agree with the spec? Our importer must also name the right kind.
    None when the spec does not fix this importer's outcome here (see applies)."""
    if not applies(case, importer):
        return None
    outcome = result["outcome"]
    if case["expected"] == "accept":
        return outcome == "accepted"
    if outcome != "refused":
        return False
    if importer == "onnximport" and case.get("expected_kind"):
        return result.get("kind") == case["expected_kind"]
    return True




def summarize(cases, importers):
    """Per importer: how its results compare with the spec, in the counts the report prints."""
    summary = {}
    for imp, status in importers.items():
        if status.get("status") != "run":
            continue
        s = {"cases": 0, "match": 0, "mismatch": 0,
             "accepted_spec_refuses": 0, "refused_spec_accepts": 0, "wrong_kind": 0,
             "crashed": 0, "timeout": 0, "not_judged": 0, "read_outside": 0, "read_differently": 0}
        for case in cases:
            r = case["results"].get(imp)
            if r is None:
                continue
            if r.get("read_outside"):
                s["read_outside"] += 1
            if r["match"] is None:
                s["not_judged"] += 1
                if r["outcome"] in ("crashed", "timeout"):
                    s[r["outcome"]] += 1  # a crash is a finding whatever the options
                continue
            s["cases"] += 1
            s["match" if r["match"] else "mismatch"] += 1
            if r["outcome"] in ("crashed", "timeout"):
                s[r["outcome"]] += 1
            elif r.get("read_differently"):
                s["read_differently"] += 1
            elif case["expected"] == "refuse" and r["outcome"] == "accepted":
                s["accepted_spec_refuses"] += 1
            elif case["expected"] == "accept" and r["outcome"] == "refused":
                s["refused_spec_accepts"] += 1
            elif not r["match"]:
                s["wrong_kind"] += 1
        summary[imp] = s
    return summary


# ---------------------------------------------------------------- valid models

def backend_data_dir(build, explicit=None):
    """(label, folder) of the backend test data: the explicit folder, the shared 1.23 data
    when present, else the data set of the installed onnx (gauntlet.settings.backend_data)."""
    def label(folder):
        name = os.path.basename(os.path.normpath(folder))
        return name if name.startswith("backend") else f"backend-{name}"

    if explicit:
        return label(explicit), explicit
    data = settings.backend_data(build, "matrix")
    return ("backend-1.23" if data == settings.SHARED_BACKEND_DATA else label(data)), data


def valid_models(label, data_dir, count):
    """A deterministic sample of `count` backend models (the first by SHA-256 of their id) and the total."""
    found = []
    for dirpath, _dirs, files in os.walk(data_dir):
        if "model.onnx" in files:
            rel = os.path.relpath(dirpath, data_dir)
            found.append((hashlib.sha256(rel.encode()).hexdigest(), f"{label}/{rel}", os.path.join(dirpath, "model.onnx")))
    found.sort()
    chosen = sorted(found[:count], key=lambda x: x[1])
    return [{"file": i, "path": p, "expected": "accept", "expected_kind": None, "options": {}, "valid": True}
            for _, i, p in chosen], len(found)


# ---------------------------------------------------------------- reads outside the folder

def outside_hashes(canary_bytes):
    """SHA-256 -> what it proves was read: the canary, or /etc/passwd (whole or 16 bytes)."""
    out = {hashlib.sha256(canary_bytes).hexdigest(): f"{CANARY} (this run's {len(canary_bytes)} bytes)"}
    try:
        with open("/etc/passwd", "rb") as f:
            passwd = f.read()
        out[hashlib.sha256(passwd).hexdigest()] = "/etc/passwd"
        out[hashlib.sha256(passwd[:16]).hexdigest()] = "/etc/passwd (its first 16 bytes)"
    except OSError:
        pass
    return out


def mark_outside(row, proofs):
    hits = []
    for imp, r in row["results"].items():
        for tensor, digest in (r.get("tensors") or {}).items():
            if digest in proofs:
                r["read_outside"] = {"target": proofs[digest], "sha256": digest, "tensor": tensor}
                hits.append({"importer": imp, **r["read_outside"]})
                break
    row["read_outside"] = hits


# ---------------------------------------------------------------- expected-failure lists

def deviation_reason(row, r, strip=None):
    """The `# reason` of a list line: the outcome, and the message without this run's folders."""
    message = r.get("message") or ""
    for folder in strip or []:
        message = message.replace(folder + os.sep, "")
    r = dict(r, message=message)
    o = r["outcome"]
    if o == "timeout":
        return "timeout" + (" (reads forever: bounded by the time-out)" if row.get("endless") else "")
    if o == "crashed":
        # Without the worker log's path, which names this run's folder.
        return "crashed: " + _one_line(r.get("message", "").split(" (all of it: ")[0], 80)
    if row["expected"] == "refuse" and o == "accepted":
        ro = r.get("read_outside")
        return "accepted" + (f"; read outside the folder: {ro['target']}" if ro else "")
    if r.get("read_differently"):
        return "accepted, read differently: " + _one_line(r["read_differently"], 120)
    if row["expected"] == "accept" and o == "refused":
        return "refused: " + _one_line(r.get("message", ""), 80)
    return f"refused as {r.get('kind')}, the spec says {row.get('expected_kind')}"


def check_known(rows, importers, known_dir, update=False, say=print, strip=None):
    """Per importer that ran: its list, the stale lines and the new ones (see gauntlet/known.py).
    Time-outs of cases that are not endless are left out of the comparison either way."""
    out = {}
    for imp, _label in IMPORTERS:
        if importers.get(imp, {}).get("status") != "run":
            continue
        deviations, ran, unsteady = {}, set(), {}
        for row in rows:
            r = row["results"].get(imp)
            if r is None or r["match"] is None:
                continue
            if r["outcome"] == "timeout" and not row.get("endless"):
                # How long a big case takes depends on the machine's load: a time-out is
                # shown, not judged (an endless case's time-out is steady and is judged).
                # An update lists it, so that the outcome it reaches on a quieter run
                # (often a refusal) is not new.
                unsteady[row["file"]] = deviation_reason(row, r, strip)
                continue
            ran.add(row["file"])
            if not r["match"]:
                deviations[row["file"]] = deviation_reason(row, r, strip)
        path = known_mod.path_for(imp, known_dir)
        if update:
            known_mod.write(imp, {**unsteady, **deviations}, [
                f"Expected failures of {imp}: the cases it does not handle as docs/rules.md says, one a line.",
                "Written by python3 -m gauntlet matrix --update-known; make report fails when this list is not current."],
                known_dir)
        listed = known_mod.load(imp, known_dir)
        if listed is None:
            out[imp] = {"list": os.path.relpath(path, settings.ROOT), "status": "missing", "listed": 0, "stale": [],
                        "new": [known_mod.line(c, r) for c, r in sorted(deviations.items())]}
        else:
            # A listed time-out of a case that is not endless is as unsteady as the
            # time-out itself: never stale.
            endless = {row["file"] for row in rows if row.get("endless")}
            judged = {c for c in ran if not (listed.get(c, "").startswith("timeout") and c not in endless)}
            stale, new = known_mod.compare(listed, deviations, judged)
            out[imp] = {"list": os.path.relpath(path, settings.ROOT), "listed": len(listed), "stale": stale, "new": new,
                        "status": "current" if not stale and not new else "stale"}
        k = out[imp]
        for ln in k["stale"]:
            say(f"  known: {k['list']}: remove the line (the case now behaves as the spec says): {ln}")
        for ln in k["new"]:
            say(f"  known: {k['list']}: add the line (a new difference from the spec): {ln}")
    return out


# ---------------------------------------------------------------- the matrix

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
    total = len(everything)
    wanted = set(peers or ["onnximport", *PEER_COLUMNS])
    specs = {n: s for n, s in peer_specs(peer_dir).items() if n in wanted}
    done = {n: 0 for n in ["onnximport", *specs]}
    lock = threading.Lock()
    last_print = [0.0]

    def progress(which):
        with lock:
            done[which] += 1
            now = time.monotonic()
            if now - last_print[0] >= 10 or all(v == total for v in done.values()):
                last_print[0] = now
                say("  matrix: " + ", ".join(f"{k} {v}/{total}" for k, v in done.items()))

    canary_bytes = os.urandom(16)
    canary_path = os.path.join(work, CANARY)
    with open(canary_path, "wb") as f:
        f.write(canary_bytes)
    proofs = outside_hashes(canary_bytes)
    started = time.monotonic()
    importers = {}
    try:
        if "onnximport" in wanted:
            for case in everything:
                if ours and case["file"] in ours:
                    results[case["file"]]["onnximport"] = ours[case["file"]]
                    done["onnximport"] += 1
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
    finally:
        os.remove(canary_path)

    def rows_of(items):
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

    hostile_rows, valid_rows = rows_of(cases), rows_of(valid_cases)
    for imp, _label in IMPORTERS:
        importers.setdefault(imp, {"status": "not run", "reason": "left out of this run (--peers)"})
    read_outside = {}
    for row in hostile_rows:
        for hit in row["read_outside"]:
            read_outside.setdefault(hit["importer"], []).append(
                {"case": row["file"], "target": hit["target"], "sha256": hit["sha256"], "tensor": hit["tensor"]})
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
        "read_outside": read_outside,
        "bounded": [r["file"] for r in hostile_rows if r.get("endless")],
        "valid": {
            "status": "run" if valid is not None else "not run",
            "reason": None if valid is not None else "no valid-model set in this run",
            "label": valid["label"] if valid else None, "data_dir": valid.get("data_dir") if valid else None,
            "sampled": len(valid_cases), "total": valid["total"] if valid else 0, "accept_cases": len(accept_rows),
            "summary": summarize(accept_rows + valid_rows, importers),
            "cases": valid_rows,
        },
    }
    doc["findings"] = findings(doc)
    doc["known"] = check_known(hostile_rows + valid_rows, importers, known_dir, update_known, say,
                               strip=[work] + ([valid["data_dir"]] if valid and valid.get("data_dir") else []))
    for imp, s in doc["summary"].items():
        say(f"  matrix: {imp}: {s['match']}/{s['cases']} as the spec says; accepted {s['accepted_spec_refuses']} "
            f"the spec refuses, refused {s['refused_spec_accepts']} it accepts, {s['crashed']} crashed, "
            f"{s['timeout']} timed out, {s['read_outside']} read outside the folder")
    for imp, s in doc["valid"]["summary"].items():
        say(f"  matrix: {imp}: refused {s['refused_spec_accepts']} of {s['cases']} valid models")
    for imp, hits in read_outside.items():
        say(f"  matrix: {imp} read outside the folder in {len(hits)} cases: " + ", ".join(h["case"] for h in hits))
    for imp in importers:
        if importers[imp].get("status") != "run":
            say(f"  matrix: {imp}: not run: {importers[imp].get('reason')}")
    return doc


def copy_corpus(src, dst):
    """A copy of the corpus folder that keeps links and FIFOs (shutil.copytree would open a FIFO)."""
    fifos = []

    def ignore(folder, names):
        skip = []
        for n in names:
            if stat.S_ISFIFO(os.lstat(os.path.join(folder, n)).st_mode):
                skip.append(n)
                fifos.append(os.path.relpath(os.path.join(folder, n), src))
        return skip

    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    for rel in fifos:
        os.mkfifo(os.path.join(dst, rel))


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
    doc = run_matrix(cases, os.path.abspath(args.importer), args.peer_dir, args.timeout, log_dir,
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
