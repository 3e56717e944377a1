"""cupyx.scipy.ndimage's B-spline prefilter (spline_filter1d, spline_filter)
and spline weights, in the floating type CuPy computes them in.

CuPy (cupyx/scipy/ndimage/_interpolation.py, _spline_prefilter_core.py)
filters in the promotion of the requested output type with float32
(complex64 for complex data): a float32 image prefiltered for float32 output
is filtered in float, with the poles in float and the boundary sums cut after
ceil(log(1e-10) / log(|largest pole|)) terms (1e-18 in double), where SciPy
always filters in double. The recursions below are CuPy's causal and
anti-causal filters, run over every line of an axis at once (one NumPy
operation per sample, in the data's own type, as each CUDA thread runs them
on its line).

The weights follow CuPy's spline weight code, written in C: its constants are
double, so an expression mixing the weight type W (float for float32
coordinates) with a constant is computed in double and rounded to W when
assigned, while products of two W values stay in W; _d and _w mark those
conversions."""
import math

import numpy
from numpy.lib.array_utils import normalize_axis_index

_POLES = {
    2: (-0.171572875253809902396622551580603843,),
    3: (-0.267949192431122706472553658494127633,),
    4: (-0.361341225900220177092212841325675255,
        -0.013725429297339121360331226939128204),
    5: (-0.430575347099973791851434783493520110,
        -0.043096288203264653822712376822550182),
}


def float_type(dtype):
    """The smallest floating type CuPy computes a spline of dtype in:
    dtype promoted with float32, or with complex64 for complex data."""
    dtype = numpy.dtype(dtype)
    least = numpy.complex64 if dtype.kind == "c" else numpy.float32
    return numpy.promote_types(dtype, least)


def spline_mode(mode):
    """The boundary condition CuPy's prefilter and spline sampling use for
    an interpolation mode."""
    if mode in ("mirror", "reflect", "grid-wrap"):
        return mode
    if mode in ("grid-mirror", "nearest"):
        return "reflect"
    return "mirror"


def _causal_init(c, z, n, n_boundary, mode):
    """Sets c[0] for the causal recursion (c: the lines, samples first)."""
    one = z.dtype.type(1)
    z_i = z
    if mode == "mirror":
        z_n_1 = numpy.power(z, z.dtype.type(n - 1))
        c[0] = c[0] + z_n_1 * c[n - 1]
        for i in range(1, min(n - 1, n_boundary)):
            c[0] += z_i * (c[i] + z_n_1 * c[n - 1 - i])
            z_i = z_i * z
        c[0] /= one - z_n_1 * z_n_1
    elif mode == "grid-wrap":
        for i in range(1, min(n, n_boundary)):
            c[0] += z_i * c[n - i]
            z_i = z_i * z
        c[0] /= one - z_i
    else:  # reflect
        z_n = numpy.power(z, z.dtype.type(n))
        c0 = numpy.array(c[0], copy=True)
        c[0] = c[0] + z_n * c[n - 1]
        for i in range(1, min(n, n_boundary)):
            c[0] += z_i * (c[i] + z_n * c[n - 1 - i])
            z_i = z_i * z
        c[0] *= z / (one - z_n * z_n)
        c[0] += c0


def _anticausal_init(c, z, n, n_boundary, mode):
    """Sets c[n - 1] for the anti-causal recursion."""
    one = z.dtype.type(1)
    if mode == "mirror":
        c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - one)
    elif mode == "grid-wrap":
        z_i = z
        for i in range(min(n - 1, n_boundary)):
            c[n - 1] += z_i * c[i]
            z_i = z_i * z
        c[n - 1] *= z / (z_i - one)
    else:  # reflect
        c[n - 1] *= z / (z - one)


def _filter_lines(c, order, mode):
    """CuPy's IIR prefilter of every line of c (samples along axis 0), in
    place, in c's type with poles in its real type."""
    pole_type = numpy.dtype(c.real.dtype).type
    poles = _POLES[order]
    tol = 1e-10 if pole_type == numpy.float32 else 1e-18
    n_boundary = math.ceil(math.log(tol, max(abs(p) for p in poles)))
    mode = spline_mode(mode)
    n = c.shape[0]
    for pole in poles:
        z = pole_type(pole)
        _causal_init(c, z, n, n_boundary, mode)
        for i in range(1, n):
            c[i] += z * c[i - 1]
        _anticausal_init(c, z, n, n_boundary, mode)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])


def _gain(order):
    gain = 1.0
    for z in _POLES[order]:
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    return gain


def output_array(output, input, shape=None):
    """CuPy's _util._get_output: a new array of `shape` (the input's by
    default) for None (the input's dtype), a dtype or a type name, else
    `output` itself, whose shape must be that."""
    shape = input.shape if shape is None else tuple(shape)
    if output is None:
        return numpy.zeros(shape, input.dtype)
    if isinstance(output, numpy.ndarray):
        if output.shape != shape:
            raise RuntimeError("output shape not correct")
        return output
    if isinstance(output, str):
        output = numpy.sctypeDict[output]
    return numpy.zeros(shape, output)


def _work_types(input, output):
    """CuPy's _get_spline_output: the type to filter in and the type of the
    result."""
    complex_data = input.dtype.kind == "c"
    if isinstance(output, numpy.ndarray):
        if complex_data and output.dtype.kind != "c":
            raise ValueError(
                "output must have complex dtype for complex inputs")
        return float_type(output.dtype) if not complex_data else \
            numpy.promote_types(output.dtype, numpy.complex64), output.dtype
    wanted = input.dtype if output is None else numpy.dtype(output)
    work = numpy.promote_types(
        wanted, numpy.complex64 if complex_data else numpy.float32)
    return work, wanted


def _filter_axis(temp, order, axis, mode):
    # A Python float times the array: the gain rounded to its type.
    temp *= _gain(order)
    _filter_lines(numpy.moveaxis(temp, axis, 0), order, mode)


def spline_filter1d(input, order=3, axis=-1, output=numpy.float64,
                    mode="mirror"):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    input = numpy.asarray(input)
    axis = normalize_axis_index(axis, input.ndim) if input.ndim else 0
    if order < 2 or input.ndim == 0 or input.shape[axis] == 1:
        result = output_array(output, input)
        numpy.copyto(result, input, casting="unsafe")
        return result
    work, wanted = _work_types(input, output)
    temp = input.astype(work, copy=True)
    _filter_axis(temp, order, axis, mode)
    if isinstance(output, numpy.ndarray):
        numpy.copyto(output, temp, casting="unsafe")
        return output
    return temp.astype(wanted, copy=False)


def spline_filter(input, order=3, output=numpy.float64, mode="mirror"):
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    input = numpy.asarray(input)
    work, wanted = _work_types(input, output)
    temp = input.astype(work, copy=True)
    for axis in range(input.ndim):
        if temp.shape[axis] > 1:
            _filter_axis(temp, order, axis, mode)
    if isinstance(output, numpy.ndarray):
        numpy.copyto(output, temp, casting="unsafe")
        return output
    return temp.astype(wanted, copy=False)


def _d(a):
    return numpy.asarray(a, dtype=numpy.float64)


def weights(wx, order, w_type):
    """The order + 1 spline weights at fractional offset wx (of type
    w_type), computed as CuPy's C code computes them."""
    def w(a):
        return numpy.asarray(a).astype(w_type)
    wx = w(wx)
    if order == 2:
        w1 = w(0.75 - _d(wx * wx))
        wy = w(0.5 - _d(wx))
        w0 = w(0.5 * _d(wy) * _d(wy))
        return [w0, w1, w(1.0 - _d(w0) - _d(w1))]
    if order == 3:
        wy = w(1.0 - _d(wx))
        w1 = w((_d(wx * wx) * (_d(wx) - 2.0) * 3.0 + 4.0) / 6.0)
        w2 = w((_d(wy * wy) * (_d(wy) - 2.0) * 3.0 + 4.0) / 6.0)
        w0 = w(_d(wy * wy * wy) / 6.0)
        return [w0, w1, w2, w(1.0 - _d(w0) - _d(w1) - _d(w2))]

    def quartic(v):
        v = _d(v)
        return v * (v * (v * (5.0 - v) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0

    def quintic(v):
        v = _d(v)
        return v * (v * (v * (v * (v / 24.0 - 0.375) + 1.25) - 1.75)
                    + 0.625) + 0.425
    if order == 4:
        wy = wx * wx
        w2 = w(_d(wy) * (_d(wy) * 0.25 - 0.625) + 115.0 / 192.0)
        w1 = w(quartic(w(1.0 + _d(wx))))
        w3 = w(quartic(w(1.0 - _d(wx))))
        wy = w(0.5 - _d(wx))
        wy = wy * wy
        w0 = w(_d(wy * wy) / 24.0)
        return [w0, w1, w2, w3,
                w(1.0 - _d(w0) - _d(w1) - _d(w2) - _d(w3))]
    # order 5
    wy = wx * wx
    w2 = w(_d(wy) * (_d(wy) * (0.25 - _d(wx) / 12.0) - 0.5) + 0.55)
    wy = w(1.0 - _d(wx))
    wy = wy * wy
    w3 = w(_d(wy) * (_d(wy) * (0.25 - (1.0 - _d(wx)) / 12.0) - 0.5) + 0.55)
    w1 = w(quintic(w(_d(wx) + 1.0)))
    w4 = w(quintic(w(2.0 - _d(wx))))
    wy = w(1.0 - _d(wx))
    wy = wy * wy
    w0 = w((1.0 - _d(wx)) * _d(wy) * _d(wy) / 120.0)
    return [w0, w1, w2, w3, w4,
            w(1.0 - _d(w0) - _d(w1) - _d(w2) - _d(w3) - _d(w4))]
