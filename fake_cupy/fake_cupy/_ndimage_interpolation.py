"""cupyx.scipy.ndimage's interpolation functions (map_coordinates,
affine_transform, shift, zoom, rotate, spline_filter, spline_filter1d) as
CuPy 13 computes them (cupyx/scipy/ndimage/_interpolation.py), on host
arrays (fake_cupy._functions.delegate makes them take and give the fake's
arrays).

SciPy computes every spline and every sum in double and rounds the result
to the output type; CuPy computes in the image's precision, so a float32
image gave values a few units in the last place away from CuPy's:
- the prefilter (order 2 to 5) runs in the image's type promoted with
  float32 (fake_cupy._ndimage_spline);
- the sampling (fake_cupy._ndimage_sample) sums in the output's type, with
  weights in the coordinates' type for map_coordinates (float32 coordinates
  stay float32) and in double for the others;
- an integer image is converted to float32 first, an integer output
  receives rint of a double sum, a float16 image is sampled in float16 (as
  CuPy's half arithmetic rounds each operation) after a float32 prefilter.
CuPy's checks, where SciPy raises otherwise or not at all:
- an order outside 0..5 is ValueError('spline order is not supported'), an
  unknown mode ValueError('boundary mode (...) is not supported');
- map_coordinates reads coordinates.shape (a list is AttributeError), and
  coordinates of another kind than integer or floating are
  ValueError('coordinates should have floating point dtype');
- a non-finite cval with an integer output in 'constant' mode is
  NotImplementedError; zoom's kernel is built without cval (CuPy passes
  none), so a zoom samples 0 outside the image whatever cval is.
mode='opencv' is CuPy's own (fake_cupy._ndimage_opencv)."""
import math
import warnings

import numpy

from fake_cupy import _ndimage_opencv, _ndimage_sample, _ndimage_spline

_MODES = ("constant", "grid-constant", "nearest", "mirror", "reflect",
          "grid-mirror", "wrap", "grid-wrap", "opencv", "_opencv_edge")
_OPENCV = ("opencv", "_opencv_edge")


def _check_parameter(order, mode):
    if order < 0 or 5 < order:
        raise ValueError("spline order is not supported")
    if mode not in _MODES:
        raise ValueError(f"boundary mode ({mode}) is not supported")


def _check_cval(mode, cval, integer_output):
    if mode == "constant" and integer_output and not numpy.isfinite(cval):
        raise NotImplementedError("Non-finite cval is not supported for "
                                  "outputs with integer dtype.")


def _per_axis(arg, ndim, name):
    """CuPy's _util._fix_sequence_arg with float conversion."""
    if isinstance(arg, str):
        return [float(arg)] * ndim
    try:
        values = [float(v) for v in arg]
    except TypeError:
        return [float(arg)] * ndim
    if len(values) != ndim:
        raise RuntimeError(f"{name} must have length equal to input rank")
    return values


def _filtered(image, prefilter, mode, cval, order):
    """The array the kernel samples, and the padding added to each edge."""
    if not prefilter or order < 2:
        return numpy.ascontiguousarray(image), 0
    npad = 0
    if mode == "nearest":
        npad = 12
        image = numpy.pad(image, npad, mode="edge")
    elif mode == "grid-constant":
        npad = 12
        image = numpy.pad(image, npad, mode="constant", constant_values=cval)
    float_type = numpy.promote_types(image.dtype, numpy.float32)
    return _ndimage_spline.spline_filter(image, order, float_type, mode), npad


def _run(input, coordinates_of, w_type, out_shape, output, order, mode, cval,
         prefilter, kernel_cval=None):
    """Prefilters `input`, samples it at the coordinates that
    coordinates_of(npad) gives (one array per axis, of type w_type) and
    stores the result in the output CuPy would allocate or was given."""
    result = _ndimage_spline.output_array(output, input, out_shape)
    if input.dtype.kind in "iu":
        input = input.astype(numpy.float32)
    filtered, npad = _filtered(input, prefilter, mode, cval, order)
    _check_cval(mode, cval, result.dtype.kind in "iu")
    values = _ndimage_sample.sample(
        filtered, coordinates_of(npad), w_type, result.dtype, order, mode,
        cval if kernel_cval is None else kernel_cval)
    result[...] = values.reshape(out_shape)
    return result


def _grid(shape):
    """Each output point's index along each axis, in double (the kernel's
    unsigned index converted to W)."""
    return [g.astype(numpy.float64)
            for g in numpy.indices(shape, dtype=numpy.int64)]


def map_coordinates(input, coordinates, output=None, order=3,
                    mode="constant", cval=0.0, prefilter=True):
    _check_parameter(order, mode)
    if mode in _OPENCV:
        return _ndimage_opencv.map_coordinates(
            input, coordinates, output, order, "opencv", cval, prefilter)
    if not hasattr(coordinates, "shape"):
        raise AttributeError(f"'{type(coordinates).__name__}' object has no "
                             "attribute 'shape'")
    input = numpy.asarray(input)
    coordinates = numpy.asarray(coordinates)
    kind = coordinates.dtype.kind
    if kind == "f" or (kind in "iu" and order > 1):
        w_type = numpy.promote_types(coordinates.dtype, numpy.float32)
    elif kind in "iu":
        w_type = coordinates.dtype
    else:
        raise ValueError("coordinates should have floating point dtype")
    if coordinates.shape[:1] != (input.ndim,):
        raise RuntimeError("invalid shape for coordinate array")
    coordinates = coordinates.astype(w_type)

    def at(npad):
        return [c + w_type.type(npad) if npad else c for c in coordinates]
    return _run(input, at, w_type, coordinates.shape[1:], output, order,
                mode, cval, prefilter)


def affine_transform(input, matrix, offset=0.0, output_shape=None,
                     output=None, order=3, mode="constant", cval=0.0,
                     prefilter=True, *, texture_memory=False):
    if texture_memory:
        raise NotImplementedError("affine_transform(texture_memory=True) is "
                                  "not provided by the fake CuPy")
    _check_parameter(order, mode)
    input = numpy.asarray(input)
    if mode in _OPENCV:
        return _ndimage_opencv.affine_transform(
            input, matrix, offset, output_shape, output, order, "opencv",
            cval, prefilter)
    ndim = input.ndim
    offset = _per_axis(offset, ndim, "offset")
    if matrix.ndim not in (1, 2) or matrix.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    matrix = numpy.asarray(matrix)
    if matrix.ndim == 2:
        if matrix.shape[0] == matrix.shape[1] - 1:
            offset, matrix = matrix[:, -1], matrix[:, :-1]
        elif matrix.shape[0] == ndim + 1:
            offset, matrix = matrix[:-1, -1], matrix[:-1, :-1]
        if matrix.shape != (ndim, ndim):
            raise RuntimeError("improper affine shape")
    out_shape = tuple(input.shape if output_shape is None else output_shape)
    matrix = matrix.astype(numpy.float64)
    offset = numpy.asarray(offset, dtype=numpy.float64)
    if matrix.ndim == 1:
        shift = -offset / matrix

        def at(npad):
            return [matrix[j] * (i - shift[j]) + npad
                    for j, i in enumerate(_grid(out_shape))]
    else:
        def at(npad):
            grid = _grid(out_shape)
            coordinates = []
            for j in range(ndim):
                c = numpy.zeros(out_shape)
                for k in range(ndim):
                    c += matrix[j, k] * grid[k]
                coordinates.append(c + (offset[j] + npad))
            return coordinates
    return _run(input, at, numpy.dtype(numpy.float64), out_shape, output,
                order, mode, cval, prefilter)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0,
          prefilter=True):
    _check_parameter(order, mode)
    input = numpy.asarray(input)
    shift = _per_axis(shift, input.ndim, "shift")
    if mode in _OPENCV:
        return _ndimage_opencv.shift(input, shift, output, order, "opencv",
                                     cval, prefilter)

    def at(npad):
        return [i - s + npad for i, s in zip(_grid(input.shape), shift)]
    return _run(input, at, numpy.dtype(numpy.float64), input.shape, output,
                order, mode, cval, prefilter)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0,
         prefilter=True, *, grid_mode=False):
    _check_parameter(order, mode)
    input = numpy.asarray(input)
    factors = _per_axis(zoom, input.ndim, "zoom")
    out_shape = tuple(int(round(s * z)) for s, z in zip(input.shape, factors))
    if mode in _OPENCV:
        return _ndimage_opencv.zoom(input, factors, output, order, "opencv",
                                    cval, prefilter)
    if grid_mode:
        suggest = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode)
        if suggest is not None:
            warnings.warn(f"It is recommended to use mode = {suggest} "
                          f"instead of {mode} when grid_mode is True.")
    scale = []
    for in_size, out_size in zip(input.shape, out_shape):
        if grid_mode and out_size > 0:
            scale.append(in_size / out_size)
        elif out_size > 1:
            scale.append((in_size - 1) / (out_size - 1))
        else:
            scale.append(0.0)

    def at(npad):
        if grid_mode:
            return [z * (i + 0.5) - 0.5 + npad
                    for z, i in zip(scale, _grid(out_shape))]
        return [z * i + npad for z, i in zip(scale, _grid(out_shape))]
    # CuPy builds zoom's kernel without its cval (the kernel's default, 0).
    return _run(input, at, numpy.dtype(numpy.float64), out_shape, output,
                order, mode, cval, prefilter, kernel_cval=0.0)


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3,
           mode="constant", cval=0.0, prefilter=True):
    _check_parameter(order, mode)
    input = numpy.asarray(input)
    if mode in _OPENCV:
        return _ndimage_opencv.rotate(input, angle, axes, reshape, output,
                                      order, "opencv", cval, prefilter)
    ndim = input.ndim
    axes = [a + ndim if a < 0 else a for a in axes]
    if axes[0] > axes[1]:
        axes = [axes[1], axes[0]]
    if axes[0] < 0 or ndim <= axes[1]:
        raise ValueError("invalid rotation plane specified")
    rad = numpy.deg2rad(angle)
    sin, cos = math.sin(rad), math.cos(rad)
    rot_matrix = numpy.array([[cos, sin], [-sin, cos]])
    img_shape = numpy.asarray(input.shape)
    in_plane_shape = img_shape[axes]
    if reshape:
        iy, ix = in_plane_shape
        out_bounds = rot_matrix @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane_shape = (numpy.ptp(out_bounds, axis=1) + 0.5).astype(
            numpy.int64)
    else:
        out_plane_shape = img_shape[axes]
    out_center = rot_matrix @ ((out_plane_shape - 1) / 2)
    in_center = (in_plane_shape - 1) / 2
    output_shape = img_shape.copy()
    output_shape[axes] = out_plane_shape
    matrix = numpy.identity(ndim)
    matrix[axes[0], axes[0]] = cos
    matrix[axes[0], axes[1]] = sin
    matrix[axes[1], axes[0]] = -sin
    matrix[axes[1], axes[1]] = cos
    offset = numpy.zeros(ndim, dtype=numpy.float64)
    offset[axes] = in_center - out_center
    return affine_transform(input, matrix, offset,
                            tuple(int(n) for n in output_shape), output,
                            order, mode, cval, prefilter)


spline_filter = _ndimage_spline.spline_filter
spline_filter1d = _ndimage_spline.spline_filter1d

FUNCTIONS = {f.__name__: f for f in (map_coordinates, affine_transform,
                                     shift, zoom, rotate, spline_filter,
                                     spline_filter1d)}
