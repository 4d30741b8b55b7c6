"""Expected-failure lists, as protobuf's conformance runner keeps them: sweep/known/<peer>.txt.

One case per line, `FILE  # reason`, where FILE is a hostile case's file name or a valid
model's id (`backend-1.23/node/test_abs`); `#` lines and blank lines are comments. A
peer's run is current when the cases it does not handle as the spec says are exactly the
listed ones among the cases it ran: a listed case that now behaves as the spec says is
stale (the line to remove), an unlisted one that does not is new (the line to add). So a
change in a peer's behaviour shows the day it happens.
"""
import os

from . import settings


def path_for(peer, known_dir=settings.KNOWN_DIR):
    return os.path.join(known_dir, f"{peer}.txt")


def parse(text):
    """{case: reason} from a list's text."""
    out = {}
    for line in text.splitlines():
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        case, _, reason = body.partition("#")
        out[case.strip()] = reason.strip()
    return out


def load(peer, known_dir=settings.KNOWN_DIR):
    """The list of `peer`, or None when there is none."""
    p = path_for(peer, known_dir)
    if not os.path.isfile(p):
        return None
    with open(p, encoding="utf-8") as f:
        return parse(f.read())


def line(case, reason):
    return f"{case}  # {reason}" if reason else case


def compare(known, deviations, ran):
    """(stale, new): lines to remove and lines to add.

    known: {case: reason} listed; deviations: {case: reason} the cases this run did not
    handle as the spec says; ran: every case this run judged. Listed cases that did not
    run here (another data set, a generated-only file) are neither stale nor checked.
    """
    stale = [line(c, r) for c, r in sorted(known.items()) if c in ran and c not in deviations]
    new = [line(c, r) for c, r in sorted(deviations.items()) if c not in known]
    return stale, new


def write(peer, deviations, header, known_dir=settings.KNOWN_DIR):
    """Writes the list from this run's deviations (matrix.py --update-known)."""
    os.makedirs(known_dir, exist_ok=True)
    with open(path_for(peer, known_dir), "w", encoding="utf-8") as f:
        for h in header:
            f.write(f"# {h}\n")
        for c, r in sorted(deviations.items()):
            f.write(line(c, r) + "\n")
