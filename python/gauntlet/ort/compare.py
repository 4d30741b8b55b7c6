"""Outputs against a backend test's expected outputs, as ONNX's backend test runner judges them.

Facts of the runner (onnx/backend/test/runner, assert_similar_outputs): the same number
of outputs; values that are not numbers (bool, strings) equal exactly; numbers of the
same element type, within |got - expected| <= atol + rtol * |expected| elementwise, NaN
matching NaN; rtol 1e-3 and atol 1e-7 for every test folder holding a model.onnx (the
loader, onnx/backend/test/loader: only the downloaded model-zoo tests read their own
from data.json, and the backend data here has none). Here the
shapes must be equal too, and the arithmetic is done in float64 so that a float16
difference is not rounded before it is compared.
"""
import numpy as np

from gauntlet.ort.test_data import type_name

RTOL, ATOL = 1e-3, 1e-7


def _shown(value):
    """A number in its own type's shortest form (float32 0.26, not 0.25999999046325684)."""
    return str(value) if isinstance(value, np.generic) else repr(value)


def mismatches(expected, got, rtol, atol):
    """A boolean array, True where an element differs beyond the tolerance."""
    if expected.dtype == object or expected.dtype == np.bool_:
        return np.asarray(expected != got, dtype=bool)
    e, g = expected.astype(np.float64), got.astype(np.float64)
    close = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    return ~close


def compare_one(i, expected, got, rtol, atol):
    """None when output `i` matches, else what differs first."""
    (et, e), (gt, g) = expected, got
    if et != gt:
        return "output %d: element type %s, expected %s" % (i, type_name(gt), type_name(et))
    if e.shape != g.shape:
        return "output %d: shape %s, expected %s" % (i, list(g.shape), list(e.shape))
    bad = mismatches(e, g, rtol, atol)
    if not bad.any():
        return None
    first = tuple(int(k) for k in np.argwhere(bad)[0])
    return "output %d: %d of %d elements differ; first at %s: got %s, expected %s (rtol %g, atol %g)" % (
        i, int(bad.sum()), bad.size, list(first), _shown(g[first]), _shown(e[first]), rtol, atol)


def compare(expected, got, rtol=RTOL, atol=ATOL):
    """None when every output matches, else the first difference found."""
    if len(expected) != len(got):
        return "%d outputs, expected %d" % (len(got), len(expected))
    for i, (e, g) in enumerate(zip(expected, got)):
        diff = compare_one(i, e, g, rtol, atol)
        if diff:
            return diff
    return None
