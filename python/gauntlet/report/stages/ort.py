"""The .ort stage of `make report` (docs/ort.md): `gauntlet ort conformance`, `gauntlet ort run`
(ONNX Runtime runs every backend model on its test data) and each part of `gauntlet ort
writers`, a stage each, counted from its closing line; exit 77 is a skip, with its reason."""
import os

from gauntlet.report.logged_run import GAUNTLET, closing_counts, run_logged, tail

WRITER_PARTS = ("onnx-roundtrip", "ort-roundtrip", "ort-roundtrip-external", "run-our-onnx", "run-our-ort",
                "refuse-our-external-ort", "ort-resolver", "ort-to-onnx")


def stage_ort(args, stages):
    tool = GAUNTLET + ["ort"]
    result = run_ort_part(tool, ["conformance"], "ort conformance", os.path.join(args.out, "logs", "ort.log"),
                          stages, 300)
    # The run part: every backend model run by ONNX Runtime on its test data.
    result["run"] = run_ort_part(tool, ["run"], "ort run", os.path.join(args.out, "logs", "ort-run.log"), stages, 900)
    # The writers: each part a stage; a run part reads the round trip before it.
    # A list, so the report shows the parts in the order they ran (report.json sorts keys).
    result["writers"] = [dict(run_ort_part(tool, ["writers", "--parts", part], "ort writers: " + part,
                                           os.path.join(args.out, "logs", "ort-writers-%s.log" % part), stages, 1800),
                              part=part)
                         for part in WRITER_PARTS]
    return result


def run_ort_part(tool, argv, label, log, stages, timeout):
    rc, secs = run_logged(tool + argv, log, timeout, label)
    counts = closing_counts(tail(log))
    if rc == 77:  # a skip: node or the npm peer is missing, the reason on the last line
        reason = (tail(log).strip().splitlines() or ["skipped"])[-1]
        stages.add(label, "not run", secs, reason, log)
        return {"status": "not run", "reason": reason}
    if counts is None:
        stages.add(label, "failed", secs, f"exit {rc} without a closing line", log)
        return {"status": "not run", "reason": f"gauntlet ort {' '.join(argv)} exit {rc} without a closing line"}
    stages.add(label, "ok" if counts["failed"] == 0 else "failed", secs, counts["closing_line"], log)
    return {"status": "run", **counts}
