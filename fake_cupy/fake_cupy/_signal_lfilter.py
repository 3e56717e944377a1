"""cupyx.scipy.signal's lfilter, lfiltic and lfilter_zi in the fake CuPy,
with the filter state laid out as CuPy 13 lays it out
(cupyx/scipy/signal/_signaltools.py).

CuPy's lfilter filters in parallel (an FIR convolution, then the IIR
recurrence by chunks) and keeps as its state the history itself: along the
filtered axis, the last len(b) - 1 inputs and then the last len(a) - 1
outputs, each oldest first (len(b) + len(a) - 2 values). SciPy keeps the
max(len(a), len(b)) - 1 delays of its transposed direct form II instead.
CuPy documents the difference ("as long as they are chained from the same
library, the output result will be the same"); a state written by hand, or
taken from SciPy, gives other outputs there. The fake filters with SciPy and
converts: the history into SciPy's delays (as scipy.signal.lfiltic does),
and the final state from the signal's own last inputs and outputs, as
CuPy's lfilter returns it.

lfiltic(b, a, y, x=None) gives CuPy's layout too: x's part (its first
len(b) - 1 values, zero-padded, reversed) and then y's (len(a) - 1 values),
only y's when x is None (so that lfilter then reads it as inputs, as in
CuPy), None when both are. lfilter_zi(b, a) is the step response's steady
state in that layout: earlier inputs 1, earlier outputs the gain at 0 Hz,
sum(b) / sum(a) (CuPy solves for it; a denominator with a zero coefficient
makes CuPy take a least-squares solution, which may differ).

All three begin as CuPy's do, with `a[0]`, `-a[1:] / a0`, `b.size`: their
coefficients must be arrays (`lfilter(taps, 1.0, x)`, SciPy's FIR idiom,
is CuPy's TypeError "'float' object is not subscriptable").

A signal shorter than len(b) - 1 (or len(a) - 1) along the axis is
filtered right, but CuPy's final state takes x[n - (len(b) - 1):n] with
Python's slice: one value is broadcast over the whole part, several raise
ValueError; the fake does the same. lfilter_zi with a[0] == 0 divides by it
as CuPy does, without a check: the outputs' part is NaN (SciPy strips leading
zeros of `a`).

Not as CuPy: a state whose shape is not the signal's with len(b) + len(a) - 2
along the axis is refused with ValueError naming the expected shape (CuPy's
slices give undefined states or errors of their own).
"""
import numpy
import scipy.signal

from fake_cupy._ndarray import _new_from, _unwrap


def _normalize_coefficients(b, a):
    """The first statements of CuPy's lfilter and lfilter_zi, which need
    array coefficients: a Python scalar denominator (`lfilter(taps, 1.0,
    x)`) raises "'float' object is not subscriptable" and a list one "bad
    operand type for unary -: 'list'" there (TypeError), where SciPy
    converts both. Returns the normalized coefficients on the host."""
    a0 = a[0]
    a_r = - a[1:] / a0
    b_n = b / a0
    return _unwrap(b_n), numpy.r_[1.0, -_unwrap(a_r)]


def _delays(b, a, inputs, outputs):
    """SciPy's delays (..., max(M, N)) of the normalized filter (b, a) after
    the inputs (..., M) and outputs (..., N), oldest first: the state that
    scipy.signal.lfiltic computes, for every row at once."""
    m, n = len(b) - 1, len(a) - 1
    k = max(m, n)
    dtype = numpy.result_type(b, a, inputs, outputs)
    z = numpy.zeros(inputs.shape[:-1] + (k,), dtype=dtype)
    recent_in = inputs[..., ::-1]
    recent_out = outputs[..., ::-1]
    for i in range(m):
        z[..., i] += recent_in[..., :m - i] @ b[i + 1:]
    for i in range(n):
        z[..., i] -= recent_out[..., :n - i] @ a[i + 1:]
    return z


def lfilter(b, a, x, axis=-1, zi=None):
    """cupyx.scipy.signal.lfilter: `zi` and the returned state in CuPy's
    layout (see the module's docstring)."""
    b_h, a_h = _normalize_coefficients(b, a)
    m, n = b.size - 1, a.size - 1
    axis = axis + x.ndim if axis < 0 else axis
    if zi is None:
        return _new_from(scipy.signal.lfilter(b_h, a_h, _unwrap(x), axis))
    signal = numpy.moveaxis(_unwrap(x), axis, -1)
    state = numpy.atleast_1d(_unwrap(zi))
    expected = list(x.shape)
    expected[axis] = m + n
    if state.shape != tuple(expected):
        raise ValueError(
            f"zi of shape {state.shape}: CuPy's lfilter takes the state as "
            f"len(b) + len(a) - 2 = {m + n} values along the axis (the last "
            f"{m} inputs, then the last {n} outputs), of shape "
            f"{tuple(expected)} here; SciPy's zi has another layout")
    state = numpy.moveaxis(state, axis, -1)
    earlier_in, earlier_out = state[..., :m], state[..., m:]
    delays = _delays(b_h, a_h, earlier_in, earlier_out)
    if delays.shape[-1]:
        y = scipy.signal.lfilter(b_h, a_h, signal, -1, delays)[0]
    else:
        y = scipy.signal.lfilter(b_h, a_h, signal, -1)
    final = numpy.zeros(state.shape, dtype=y.dtype)
    if m:
        final[..., :m] = _cupy_tail(signal, m, "inputs", "len(b) - 1")
    if n:
        final[..., m:] = _cupy_tail(y, n, "outputs", "len(a) - 1")
    return (_new_from(numpy.moveaxis(y, -1, axis)),
            _new_from(numpy.moveaxis(final, -1, axis)))


def _cupy_tail(values, count, what, name):
    """The last `count` values along the last axis as CuPy's lfilter takes
    them into its final state: axis_slice(values, n - count, n) assigned to
    `count` places. For a signal shorter than `count` the slice is Python's
    (a negative start counts from the end): it holds one value, which the
    assignment broadcasts, or several, which it cannot (ValueError)."""
    length = values.shape[-1]
    tail = values[..., length - count:length]
    try:
        return numpy.broadcast_to(tail, values.shape[:-1] + (count,))
    except ValueError:
        raise ValueError(
            f"lfilter: the signal has {length} samples along the axis, fewer than "
            f"{name} = {count}: CuPy's final state takes its last {what} as "
            f"x[{length - count}:{length}] ({tail.shape[-1]} values) into {count} "
            f"places, which cannot broadcast (a ValueError in CuPy too)") from None


def _history(values, count):
    """The first `count` values of `values` (newest first, zero-padded)
    along the last axis, oldest first."""
    v = _unwrap(values)
    padded = numpy.concatenate((v, numpy.zeros(max(count - v.shape[-1], 0))),
                               axis=-1)
    return padded[..., :count][..., ::-1]


def lfiltic(b, a, y, x=None):
    """cupyx.scipy.signal.lfiltic: the state for lfilter in CuPy's layout
    from y = {y[-1], y[-2], ...} and x = {x[-1], x[-2], ...}."""
    m, n = b.size - 1, a.size - 1
    if y is None and x is None:
        return None
    parts = []
    if x is not None and m > 0:
        parts.append(_history(x, m))
    if y is not None and n > 0:
        parts.append(_history(y, n))
    if not parts:
        return _new_from(numpy.empty(0))
    return _new_from(numpy.concatenate(parts, axis=-1))


def lfilter_zi(b, a):
    """cupyx.scipy.signal.lfilter_zi: the steady state of the step
    response, in CuPy's layout."""
    b_h, a_h = _normalize_coefficients(b, a)
    m, n = b.size - 1, a.size - 1
    dtype = numpy.result_type(b_h, a_h, numpy.float64)
    with numpy.errstate(all="ignore"):
        gain = numpy.sum(b_h) / numpy.sum(a_h)
    if _unwrap(a)[0] == 0:
        # CuPy divides by a[0] without a check: its step response and
        # correction factors are inf and NaN, and cuSOLVER's solve (whose
        # status CuPy does not read by default) gives NaN outputs.
        gain = numpy.nan
    else:
        gain = numpy.nan_to_num(gain, nan=0, posinf=numpy.inf, neginf=-numpy.inf)
    return _new_from(numpy.r_[numpy.ones(m), numpy.full(n, gain)]
                     .astype(dtype))


FUNCTIONS = {"lfilter": lfilter, "lfiltic": lfiltic,
             "lfilter_zi": lfilter_zi}
