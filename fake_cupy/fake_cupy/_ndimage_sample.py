"""The sampling step of cupyx.scipy.ndimage's interpolation functions: the
value of a (prefiltered) image at given coordinates, in the types CuPy's
generated kernel uses (cupyx/scipy/ndimage/_interp_kernels.py).

- Coordinates and weights have the type W of the kernel's coordinate
  argument: the coordinates' own floating type in map_coordinates (float32
  coordinates stay float32), float64 for shift, zoom, affine_transform and
  rotate, whose matrices and offsets CuPy passes as float64 arrays.
- The sum is kept in the output's type Y (float32 for a float32 image:
  each weight is rounded to Y and each product and partial sum too), or in
  double when Y is an integer type, which then receives rint(sum)
  converted as the GPU converts (fake_cupy._float_to_int).
- The boundary modes act on integer indices as CuPy's C code does (C's `%`
  truncates), but 'wrap' at orders 0 and 1 and before a spline, which CuPy
  applies to the coordinate in double.
Every output point is computed at once, one NumPy operation per term of
the kernel's loops, in the kernel's order."""
import itertools

import numpy

from fake_cupy import _float_to_int, _ndimage_spline


def bound(ix, size, mode):
    """An integer index moved into 0..size-1 by `mode` (-1 for outside in
    the constant modes), as CuPy's generated C code moves it; the filters'
    kernel (fake_cupy._ndimage_filters) uses the same code."""
    if mode in ("reflect", "grid-mirror"):
        ix = numpy.where(ix < 0, -1 - ix, ix)
        ix = numpy.fmod(ix, 2 * size)
        return numpy.minimum(ix, 2 * size - 1 - ix)
    if mode == "mirror":
        if size == 1:
            return numpy.zeros_like(ix)
        ix = numpy.abs(ix)
        ix = 1 + numpy.fmod(ix - 1, 2 * (size - 1))
        return numpy.minimum(ix, 2 * size - 2 - ix)
    if mode == "nearest":
        return numpy.clip(ix, 0, size - 1)
    if mode == "grid-wrap":
        ix = numpy.fmod(ix, size)
        return numpy.where(ix < 0, ix + size, ix)
    # constant, grid-constant
    return numpy.where((ix < 0) | (ix >= size), -1, ix)


def _wrap(coordinate, size):
    """CuPy's 'wrap' of a coordinate held in double."""
    coordinate = numpy.asarray(coordinate, dtype=numpy.float64)
    if size == 1:
        return numpy.zeros_like(coordinate)
    period = size - 1
    below = coordinate + period * (numpy.trunc(-coordinate / period) + 1)
    above = coordinate - period * numpy.trunc(coordinate / period)
    return numpy.where(coordinate < 0, below,
                       numpy.where(coordinate > period, above, coordinate))


def _floor_int(value):
    return numpy.floor(value).astype(numpy.int64)


def _order0(coordinates, shape, mode):
    """Index and in-range flag of the nearest sample along each axis."""
    terms = []
    for c, size in zip(coordinates, shape):
        if mode == "wrap":
            index = _floor_int(_wrap(c, size) + 0.5)
        else:
            index = _floor_int(numpy.asarray(c, numpy.float64) + 0.5)
            if mode != "constant":
                index = bound(index, size, mode)
        terms.append([(index, None, None)])
    return terms


def _order1(coordinates, shape, mode, w_type):
    """(index, weight, taken) of the two linear samples along each axis;
    the second is not taken where the coordinate is an integer."""
    terms = []
    for c, size in zip(coordinates, shape):
        floor = _floor_int(numpy.asarray(c, numpy.float64))
        ceil = floor + 1
        two = c != floor
        if mode == "wrap":
            wrapped = _wrap(c, size)
            floor_b = _floor_int(wrapped)
            ceil_b = _floor_int(wrapped + 1)
        elif mode != "constant":
            floor_b = bound(floor, size, mode)
            ceil_b = bound(ceil, size, mode)
        else:
            floor_b, ceil_b = floor, ceil
        w0 = (ceil.astype(w_type) - c).astype(w_type)
        w1 = (c - floor.astype(w_type)).astype(w_type)
        terms.append([(floor_b, w0, None), (ceil_b, w1, two)])
    return terms


def _spline(coordinates, shape, mode, order, w_type):
    """(index, weight, taken) of the order + 1 spline samples per axis."""
    if mode == "grid-constant":
        bound_mode = "constant"
    elif mode == "nearest":
        bound_mode = "nearest"
    else:
        bound_mode = _ndimage_spline.spline_mode(mode)
    terms = []
    for c, size in zip(coordinates, shape):
        c64 = numpy.asarray(c, numpy.float64)
        nearest = numpy.floor(c64) if order & 1 else numpy.floor(c64 + 0.5)
        weights = _ndimage_spline.weights(c64 - nearest, order, w_type)
        where = _wrap(c, size) if mode == "wrap" else c64
        start = _floor_int(where if order & 1 else where + 0.5) - order // 2
        terms.append([(bound(start + k, size, bound_mode), weights[k], None)
                      for k in range(order + 1)])
    return terms


def _internal_value(value, internal):
    return numpy.asarray(value).astype(internal)


def sample(x, coordinates, w_type, out_type, order, mode, cval):
    """The values of x at `coordinates` (one array of type w_type per axis,
    all of one shape), as an array of type out_type of that shape."""
    integer_output = numpy.dtype(out_type).kind in "iu"
    internal = numpy.dtype(numpy.float64 if integer_output else out_type)
    shape = numpy.shape(coordinates[0])
    cval = internal.type(cval) if numpy.isfinite(cval) else \
        numpy.asarray(cval).astype(out_type).astype(internal)
    if order == 0:
        terms = _order0(coordinates, x.shape, mode)
    elif order == 1:
        terms = _order1(coordinates, x.shape, mode, w_type)
    else:
        terms = _spline(coordinates, x.shape, mode, order, w_type)
    checks_outside = mode == "grid-constant" or (order > 1 and
                                                 mode == "constant")
    flat = x.reshape(-1)
    strides = [int(numpy.prod(x.shape[j + 1:])) for j in range(x.ndim)]
    out = numpy.zeros(shape, internal)
    for combination in itertools.product(*terms):
        outside = numpy.zeros(shape, bool)
        taken = numpy.ones(shape, bool)
        position = numpy.zeros(shape, numpy.int64)
        weight = None
        for (index, w, needed), stride, size in zip(combination, strides,
                                                    x.shape):
            outside |= index < 0
            if needed is not None:
                taken &= needed
            # The kernel reads no sample it does not use (an index beyond
            # the image in 'constant' mode, a second one not taken): read
            # an index in range there, whose value is then discarded.
            position += numpy.clip(index, 0, size - 1) * stride
            weight = w if weight is None else (weight * w).astype(w_type)
        value = _internal_value(flat[position], internal)
        if order == 0:
            term = value
            if mode == "grid-constant":
                term = numpy.where(outside, cval, term)
            out = term.astype(internal)
            continue
        weight = _internal_value(weight, internal)
        if checks_outside:
            term = numpy.where(outside, cval * weight, value * weight)
        else:
            term = value * weight
        out = numpy.where(taken, (out + term.astype(internal)), out)
    if mode == "constant":
        beyond = numpy.zeros(shape, bool)
        for c, size in zip(coordinates, x.shape):
            beyond |= (c < 0) | (c > size - 1)
        out = numpy.where(beyond, cval, out).astype(internal)
    if integer_output:
        # rint(sum) converted to the integer type as the GPU converts.
        return _float_to_int.cast(numpy.rint(out), out_type)
    return out.astype(out_type)
