"""How a night's time is shared among the targets: the first round gives each the same,
and every later round gives each a share in proportion to the new features per second
its last slice found, with a floor (a tenth of the mean rate) so that a target that went
quiet still gets some time: new code or a lucky mutation can wake it up."""

FLOOR = 0.1


def rounds_for(total_seconds, n_targets, slice_seconds=600, min_slice=60):
    """Enough rounds that a slice is about `slice_seconds` long, at most 8; at least two
    (so that coverage growth decides a share) unless a slice would be under `min_slice`."""
    if n_targets == 0:
        return 1
    if total_seconds / (2 * n_targets) < min_slice:
        return 1
    return max(2, min(8, int(total_seconds // (n_targets * slice_seconds))))


def plan(targets, seconds, growth=None, floor=FLOOR):
    """{target: seconds} for one round of `seconds`. growth: {target: (new features, seconds
    spent)} of each target's previous slice; None or empty for the first round."""
    if not targets:
        return {}
    if not growth:
        return {t: seconds / len(targets) for t in targets}
    rates = {t: max(0, growth.get(t, (0, 1))[0]) / max(growth.get(t, (0, 1))[1], 1) for t in targets}
    mean = sum(rates.values()) / len(targets)
    weights = {t: rates[t] + floor * mean + 1e-9 for t in targets}
    total = sum(weights.values())
    return {t: seconds * weights[t] / total for t in targets}
