"""The matrix stage of `make report` (docs/matrix.md): the hostile cases, whose results for
this importer the hostile stage already has, and a sample of valid backend models through
every importer (gauntlet/report/matrix.py)."""
import os
import subprocess
import time

from gauntlet.report import matrix as matrix_mod
from gauntlet.report import valid_models
from gauntlet.report.progress import say


def valid_set(args):
    """The valid-model sample ({label, data_dir, models, total}), or None when there is none."""
    if args.valid_count <= 0:
        return None
    try:
        label, data = valid_models.backend_data_dir(args.build, args.valid_data)
        models, total = valid_models.valid_models(label, data, args.valid_count)
        say(f"matrix: valid models: the accept cases and {len(models)} of the {total} backend models of {data} "
            "(the first by SHA-256 of their path)")
        return {"label": label, "data_dir": data, "models": models, "total": total}
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        say(f"matrix: no backend models for the valid-model matrix: {e}")
        return None


def stage_matrix(args, stages, cases, hostile):
    if not cases:
        reason = "no hostile corpus to run"
        stages.add("matrix", "not run", 0, reason)
        return {"status": "not run", "reason": reason}
    start = time.monotonic()
    ours = {c["file"]: c["results"]["onnximport"] for c in hostile["cases"]}
    valid = valid_set(args)
    corpus_dir = os.path.dirname(cases[0]["path"])
    doc = matrix_mod.run_matrix(cases, args.importer, args.peer_dir, args.timeout,
                                os.path.join(args.out, "logs"), ours=ours, say=say, valid=valid, corpus_dir=corpus_dir,
                                update_known=args.update_known)
    off = sum(len(k["stale"]) + len(k["new"]) for k in doc["known"].values())
    stages.add("matrix", "ok" if off == 0 else "failed", time.monotonic() - start,
               ", ".join(f"{k}: {v['match']}/{v['cases']}" for k, v in doc["summary"].items())
               + f"; expected-failure lists: {off} lines off")
    return doc
