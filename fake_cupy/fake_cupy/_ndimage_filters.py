"""cupyx.scipy.ndimage's correlation filters (correlate, convolve,
correlate1d, convolve1d, uniform_filter(1d), gaussian_filter(1d), sobel,
prewitt) as CuPy 13 computes them (cupyx/scipy/ndimage/_filters.py), on
host arrays (fake_cupy._functions.delegate makes them take and give the
fake's arrays).

SciPy sums every filter in double and rounds the result once; CuPy's
correlation kernel sums in the type W of the input promoted with float32
(float64 when the weights are integers or booleans), so a float32 image
gave values a few units in the last place away from CuPy's:
- the kernel visits the nonzero weights in row-major order and adds
  `cast<W>(x) * w` to a sum of type W (each product and partial sum
  rounded to W), reading cval as W outside the image in 'constant' mode;
- it stores `cast<Y>(sum)`: a floating output rounds, a signed integer one
  truncates as the GPU converts (fake_cupy._float_to_int), an unsigned one
  receives -(Y)(-sum) for a negative sum (-3.5 in uint8 is 253);
- the built-in filters make their weights in the input's type promoted
  with float32 (uniform's 1/size, sobel's and prewitt's, a Gaussian's
  derivatives; an order-0 Gaussian is made in double and converted by the
  kernel), and the separable ones store each axis's pass in the output's
  type before the next.
CuPy's modes are checked (RuntimeError('boundary mode not supported
(actual: ...)'), 'grid-constant' among them); 'wrap' is 'grid-wrap'. The
rank filters (minimum, maximum, median, percentile, rank) select values and
are exact: they stay SciPy's, with CuPy's mode check and its refusal of
cval=numpy.nan (rank_checked)."""
import functools
import inspect

import numpy

from fake_cupy import _float_to_int, _ndimage_sample

# CuPy's check also lets 'grid-reflect' through, which its kernel generator
# then has no code for (UnboundLocalError): the fake refuses it here.
_MODES = ("reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror",
          "grid-wrap")


def check_mode(mode):
    """CuPy's _util._check_mode."""
    if mode not in _MODES:
        raise RuntimeError(f"boundary mode not supported (actual: {mode})")
    return mode


def per_axis(arg, ndim, name, conv=lambda x: x):
    """CuPy's _util._fix_sequence_arg: one value per axis."""
    if isinstance(arg, str):
        return [conv(arg)] * ndim
    try:
        values = [conv(x) for x in iter(arg)]
    except TypeError:
        return [conv(arg)] * ndim
    if len(values) != ndim:
        raise RuntimeError(f"{name} must have length equal to input rank")
    return values


def output_array(output, input, complex_output=False):
    """CuPy's _util._get_output for an output of the input's shape."""
    if output is None:
        dtype = numpy.promote_types(input.dtype, numpy.complex64) \
            if complex_output else input.dtype
        return numpy.zeros(input.shape, dtype)
    if isinstance(output, numpy.ndarray):
        if output.shape != input.shape:
            raise RuntimeError("output shape not correct")
        if complex_output and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    dtype = numpy.dtype(output)
    if complex_output and dtype.kind != "c":
        if isinstance(output, str):
            raise RuntimeError("output must have complex dtype")
        import warnings
        warnings.warn("promoting specified output dtype to complex")
        dtype = numpy.promote_types(dtype, numpy.complex64)
    return numpy.zeros(input.shape, dtype)


def init_weights_dtype(input):
    """The type the built-in filters make their weights in."""
    if input.dtype.kind == "c":
        return numpy.promote_types(input.real.dtype, numpy.complex64)
    return numpy.promote_types(input.real.dtype, numpy.float32)


def _sum_dtype(input, weights):
    """The kernel's W: the weights' type and the sum's."""
    if weights.dtype.kind == "c" or input.dtype.kind == "c":
        return numpy.promote_types(input.real.dtype, numpy.complex64)
    if weights.dtype.kind in "iub":
        return numpy.dtype(numpy.float64)
    return numpy.promote_types(input.real.dtype, numpy.float32)


def _check_origin(origin, width):
    origin = int(origin)
    if width // 2 + origin < 0 or width // 2 + origin >= width:
        raise ValueError("invalid origin")
    return origin


def _store(total, result):
    """`y = cast<Y>(sum)` into the array `result`."""
    if result.dtype.kind not in "iu" or total.dtype.kind not in "fc":
        result[...] = total.astype(result.dtype)
        return result
    total = total.real if total.dtype.kind == "c" else total
    if result.dtype.kind == "i":
        result[...] = _float_to_int.cast(total, result.dtype)
        return result
    # (a >= 0) ? (Y)a : -(Y)(-a), the negation modulo 2**bits.
    magnitude = _float_to_int.cast(numpy.abs(total), result.dtype)
    negated = (-magnitude.astype(numpy.int64)).astype(result.dtype)
    result[...] = numpy.where(total >= 0, magnitude, negated)
    return result


def _kernel(input, weights, result, mode, cval, offsets):
    """The correlation kernel: every output point at once, one NumPy
    operation per nonzero weight, in the kernel's order."""
    w_type = _sum_dtype(input, weights)
    weights = numpy.ascontiguousarray(weights, w_type)
    mode = "grid-wrap" if mode == "wrap" else mode
    ranges = [numpy.arange(n) for n in input.shape]
    total = numpy.zeros(input.shape, w_type)
    outside_value = numpy.asarray(cval).astype(w_type)
    for k in numpy.ndindex(weights.shape):
        w = weights[k]
        if w == 0:
            continue
        indices, outside = [], numpy.zeros(input.shape, bool)
        for axis, (r, size) in enumerate(zip(ranges, input.shape)):
            index = r - offsets[axis] + k[axis]
            if weights.shape[axis] > 1:
                index = _ndimage_sample.bound(index, size, mode)
            shape = [1] * input.ndim
            shape[axis] = size
            outside |= (index < 0).reshape(shape)
            indices.append(numpy.clip(index, 0, size - 1).reshape(shape))
        value = input[tuple(indices)].astype(w_type)
        if mode == "constant":
            value = numpy.where(outside, outside_value, value)
        total = (total + (value * w).astype(w_type)).astype(w_type)
    return _store(total, result)


def _array_weights(weights, attribute):
    """CuPy reads the weights' attributes: a list is AttributeError."""
    if not isinstance(weights, numpy.ndarray):
        raise AttributeError(f"'{type(weights).__name__}' object has no "
                             f"attribute '{attribute}'")
    return weights


def _correlate_or_convolve(input, weights, output, mode, cval, origin,
                           convolution=False):
    input = numpy.asarray(input)
    check_mode(mode)
    if weights.nbytes >= 1 << 31:
        raise RuntimeError("weights must be 2 GiB or less, use FFTs instead")
    widths = [n for n in weights.shape if n != 0]
    if len(widths) != input.ndim:
        raise RuntimeError("filter weights array has incorrect shape")
    origins = per_axis(origin, len(widths), "origin", int)
    for o, width in zip(origins, widths):
        _check_origin(o, width)
    if weights.size == 0:
        return numpy.zeros_like(input)
    integer_output = (input.dtype if output is None else
                      output.dtype if isinstance(output, numpy.ndarray)
                      else numpy.dtype(output)).kind in "iu"
    if mode == "constant" and integer_output and not numpy.isfinite(cval):
        raise NotImplementedError("Non-finite cval is not supported for "
                                  "outputs with integer dtype.")
    if convolution:
        weights = weights[(slice(None, None, -1),) * weights.ndim]
        origins = [-o - (1 if n % 2 == 0 else 0)
                   for o, n in zip(origins, weights.shape)]
    elif weights.dtype.kind == "c":
        weights = weights.conj()
    offsets = [n // 2 + o for n, o in zip(weights.shape, origins)]
    complex_output = input.dtype.kind == "c" or weights.dtype.kind == "c"
    result = output_array(output, input, complex_output)
    if numpy.shares_memory(result, input):
        computed = _kernel(input, weights, numpy.empty_like(result), mode,
                           cval, offsets)
        result[...] = computed
        return result
    return _kernel(input, weights, result, mode, cval, offsets)


def correlate(input, weights, output=None, mode="reflect", cval=0.0,
              origin=0):
    _array_weights(weights, "nbytes")
    return _correlate_or_convolve(input, weights, output, mode, cval, origin)


def convolve(input, weights, output=None, mode="reflect", cval=0.0,
             origin=0):
    _array_weights(weights, "nbytes")
    return _correlate_or_convolve(input, weights, output, mode, cval, origin,
                                  True)


def _along_axis(input, weights, origin, axis):
    """CuPy's _convert_1d_args: 1-D weights as an n-D array along `axis`."""
    _array_weights(weights, "ndim")
    if weights.ndim != 1 or weights.size < 1:
        raise RuntimeError("incorrect filter size")
    ndim = numpy.ndim(input)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    axis %= ndim
    shape = [1] * ndim
    shape[axis] = weights.size
    origins = [0] * ndim
    origins[axis] = _check_origin(origin, weights.size)
    return weights.reshape(shape), origins


def correlate1d(input, weights, axis=-1, output=None, mode="reflect",
                cval=0.0, origin=0):
    weights, origins = _along_axis(input, weights, origin, axis)
    return _correlate_or_convolve(input, weights, output, mode, cval, origins)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect",
               cval=0.0, origin=0):
    weights, origins = _along_axis(input, weights, origin, axis)
    return _correlate_or_convolve(input, weights, output, mode, cval, origins,
                                  True)


def _separable(input, weights, output, mode, cval, origin=0):
    """CuPy's _run_1d_filters with correlate1d: one pass per axis with
    weights (None skips the axis), each stored in the output's type."""
    input = numpy.asarray(input)
    result = output_array(output, input)
    modes = per_axis(mode, input.ndim, "mode", check_mode)
    origins = per_axis(origin, input.ndim, "origin", int)
    current = input
    for axis, w in enumerate(weights):
        if w is None:
            continue
        current = correlate1d(current, w, axis, result.dtype, modes[axis],
                              cval, origins[axis])
    if current is input:
        if _float_to_int.converts(input, result.dtype):
            result[...] = _float_to_int.cast(input, result.dtype)
        else:
            result[...] = input
    else:
        result[...] = current
    return result


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0):
    input = numpy.asarray(input)
    weights = numpy.full(size, 1 / size, dtype=init_weights_dtype(input))
    return correlate1d(input, weights, axis, output, mode, cval, origin)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0,
                   origin=0):
    input = numpy.asarray(input)
    sizes = per_axis(size, input.ndim, "size", int)
    w_type = init_weights_dtype(input)
    weights = [None if n <= 1 else numpy.full(n, 1 / n, dtype=w_type)
               for n in sizes]
    return _separable(input, weights, output, mode, cval, origin)


def gaussian_kernel1d(sigma, order, radius, dtype):
    """The correlation weights of a Gaussian's order-th derivative: the
    normalized Gaussian in double (returned in double for order 0), times
    the polynomial its derivatives bring, reversed, in `dtype`."""
    if order < 0:
        raise ValueError("order must be non-negative")
    variance = sigma * sigma
    x = numpy.arange(-radius, radius + 1)
    gauss = numpy.exp(-0.5 / variance * x ** 2)
    gauss /= gauss.sum()
    if order == 0:
        return gauss
    # The n-th derivative is p_n(x) * gauss(x) with p_0 = 1 and
    # p_{n+1} = p_n' - p_n * x / variance: the coefficients of p, lowest
    # power first, go through that operator `order` times.
    powers = numpy.arange(order + 1)
    derive = numpy.diag(powers[1:], 1) + \
        numpy.diag(numpy.full(order, -1 / variance), -1)
    poly = numpy.zeros(order + 1)
    poly[0] = 1
    for _ in range(order):
        poly = derive.dot(poly)
    values = (x[:, None] ** powers).dot(poly) * gauss
    return numpy.asarray(values[::-1], dtype=dtype)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None,
                      mode="reflect", cval=0.0, truncate=4.0):
    input = numpy.asarray(input)
    radius = int(float(truncate) * float(sigma) + 0.5)
    weights = gaussian_kernel1d(sigma, int(order), radius,
                                init_weights_dtype(input))
    return correlate1d(input, weights, axis, output, mode, cval)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect",
                    cval=0.0, truncate=4.0):
    input = numpy.asarray(input)
    sigmas = per_axis(sigma, input.ndim, "sigma", float)
    orders = per_axis(order, input.ndim, "order", int)
    truncate = float(truncate)
    w_type = init_weights_dtype(input)
    weights = []
    for s, o in zip(sigmas, orders):
        radius = int(truncate * s + 0.5)
        weights.append(None if radius <= 0 else
                       gaussian_kernel1d(s, o, radius, w_type))
    return _separable(input, weights, output, mode, cval)


def _prewitt_or_sobel(input, axis, output, mode, cval, smooth):
    input = numpy.asarray(input)
    w_type = init_weights_dtype(input)
    if not -input.ndim <= axis < input.ndim:
        raise numpy.exceptions.AxisError(axis, input.ndim)
    axis %= input.ndim
    weights = [numpy.array([-1, 0, 1] if a == axis else smooth, w_type)
               for a in range(input.ndim)]
    return _separable(input, weights, output, mode, cval)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    return _prewitt_or_sobel(input, axis, output, mode, cval, [1, 2, 1])


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    return _prewitt_or_sobel(input, axis, output, mode, cval, [1, 1, 1])


def rank_checked(func, modes_per_axis):
    """SciPy's rank filter `func` (a delegate) with CuPy's checks: the mode
    (one per axis where `modes_per_axis`, as CuPy's separable minimum and
    maximum take them) and `cval is numpy.nan`, which CuPy tests by
    identity: NotImplementedError('NaN cval is unsupported')."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def call(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        mode = bound.arguments.get("mode", "reflect")
        if modes_per_axis:
            per_axis(mode, numpy.ndim(bound.arguments["input"]), "mode",
                     check_mode)
        else:
            check_mode(mode)
        if bound.arguments.get("cval") is numpy.nan:
            raise NotImplementedError("NaN cval is unsupported")
        return func(*args, **kwargs)
    return call


# The rank filters, and whether each takes one mode per axis.
RANK_FILTERS = {"minimum_filter": True, "maximum_filter": True,
                "minimum_filter1d": False, "maximum_filter1d": False,
                "median_filter": False, "percentile_filter": False,
                "rank_filter": False}

FUNCTIONS = {f.__name__: f for f in (
    correlate, convolve, correlate1d, convolve1d, uniform_filter1d,
    uniform_filter, gaussian_filter1d, gaussian_filter, sobel, prewitt)}
