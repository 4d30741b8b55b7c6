"""The expected-failure lists of the matrix (docs/matrix.md, "Expected failures"):
sweep/known/<importer>.txt compared with a run, in both directions, or rewritten from it."""
import os

from gauntlet import known as known_mod, settings
from gauntlet.report.peers import _one_line
from gauntlet.report.verdicts import IMPORTERS


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


def deviations_of(rows, imp, strip=None):
    """(cases that differ from the spec: reason, cases judged, time-outs shown but not judged: reason)."""
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
    return deviations, ran, unsteady


def unlisted_data_sets(imp, listed, cases):
    """The valid models among `cases` (ids `LABEL/node/...`) of a data set the peer's list holds
    no line of: another onnx's generated backend data (docs/matrix.md, "Expected failures").
    A peer's differences there are shown, not judged; our importer's are always judged."""
    if imp == "onnximport":
        return set()
    sets = {c.split("/", 1)[0] for c in listed if "/" in c}
    return {c for c in cases if "/" in c and c.split("/", 1)[0] not in sets}


def list_status(imp, rows, deviations, ran, known_dir):
    """The importer's list against this run: missing, or its stale and new lines."""
    path = known_mod.path_for(imp, known_dir)
    listed = known_mod.load(imp, known_dir)
    if listed is None:
        return {"list": os.path.relpath(path, settings.ROOT), "status": "missing", "listed": 0, "stale": [],
                "new": [known_mod.line(c, r) for c, r in sorted(deviations.items())]}
    # A listed time-out of a case that is not endless is as unsteady as the
    # time-out itself: never stale.
    endless = {row["file"] for row in rows if row.get("endless")}
    judged = {c for c in ran if not (listed.get(c, "").startswith("timeout") and c not in endless)}
    judged -= unlisted_data_sets(imp, listed, judged)
    deviations = {c: r for c, r in deviations.items() if c in judged}
    stale, new = known_mod.compare(listed, deviations, judged)
    return {"list": os.path.relpath(path, settings.ROOT), "listed": len(listed), "stale": stale, "new": new,
            "status": "current" if not stale and not new else "stale"}


def check_known(rows, importers, known_dir, update=False, say=print, strip=None):
    """Per importer that ran: its list, the stale lines and the new ones (see gauntlet/known.py).
    Time-outs of cases that are not endless are left out of the comparison either way."""
    out = {}
    for imp, _label in IMPORTERS:
        if importers.get(imp, {}).get("status") != "run":
            continue
        deviations, ran, unsteady = deviations_of(rows, imp, strip)
        if update:
            known_mod.write(imp, {**unsteady, **deviations}, [
                f"Expected failures of {imp}: the cases it does not handle as docs/rules.md says, one a line.",
                "Written by python3 -m gauntlet matrix --update-known; make report fails when this list is not current."],
                known_dir)
        k = out[imp] = list_status(imp, rows, deviations, ran, known_dir)
        for ln in k["stale"]:
            say(f"  known: {k['list']}: remove the line (the case now behaves as the spec says): {ln}")
        for ln in k["new"]:
            say(f"  known: {k['list']}: add the line (a new difference from the spec): {ln}")
    return out
