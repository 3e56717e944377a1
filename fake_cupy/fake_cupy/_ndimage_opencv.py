"""mode='opencv' of cupyx.scipy.ndimage's interpolation functions, which
CuPy adds to SciPy's modes ("the function performs like cv2.warpAffine or
cv2.resize"). SciPy refuses the mode (RuntimeError: boundary mode not
supported); these functions give it CuPy's meaning, sampling with the
fake's other modes (fake_cupy._ndimage_interpolation, in CuPy's
precision), and pass every other mode through to them:

- map_coordinates: the input is padded with one ring of `cval` and the
  coordinates moved by one, then interpolated in 'constant' mode: a point
  between the edge and the outside blends the edge pixel with cval, as
  OpenCV's BORDER_CONSTANT does;
- affine_transform: `matrix` and `offset` are OpenCV's forward map, in
  (x, y) order: the homogeneous matrix is inverted and its first two axes
  exchanged before sampling as map_coordinates does (cv2.warpAffine);
- shift: out[i] = in[i - shift], sampled as map_coordinates does;
- rotate: SciPy's rotation (the same axes, reshape and centre), sampled as
  map_coordinates does (no inversion: the angle keeps SciPy's sense);
- zoom: the output shape is SciPy's (round(size * zoom)), and output pixel
  i samples input position (i + 0.5) * in/out - 0.5, pixel centres aligned
  as cv2.resize aligns them, the edges repeated ('nearest').

All work on host arrays; fake_cupy._functions.delegate makes them take and
give the fake's arrays.
"""
import math

import numpy

OPENCV = "opencv"


def _ndimage():
    """The fake's interpolation functions, which compute as CuPy does and
    send mode='opencv' here."""
    from fake_cupy import _ndimage_interpolation
    return _ndimage_interpolation


def _sample(input, coordinates, output, order, cval, prefilter):
    """map_coordinates with the one-ring constant border."""
    padded = numpy.pad(input, [(1, 1)] * input.ndim, mode="constant",
                       constant_values=cval)
    # CuPy adds 1 with cupy.add: float32 coordinates stay float32.
    coordinates = numpy.add(numpy.asarray(coordinates), 1)
    return _ndimage().map_coordinates(padded, coordinates, output=output,
                                      order=order, mode="constant",
                                      cval=cval, prefilter=prefilter)


def _sample_grid(input, matrix, offset, output_shape, output, order, cval,
                 prefilter):
    """Samples input at matrix @ index + offset for each output index."""
    matrix = numpy.asarray(matrix, dtype=numpy.float64)
    if matrix.ndim == 1:
        matrix = numpy.diag(matrix)
    grid = numpy.indices(output_shape, dtype=numpy.float64)
    coordinates = matrix @ grid.reshape(input.ndim, -1)
    coordinates += numpy.asarray(offset, dtype=numpy.float64).reshape(-1, 1)
    dtype = output.dtype if isinstance(output, numpy.ndarray) else \
        numpy.dtype(output if output is not None else input.dtype)
    values = _sample(input, coordinates, dtype, order, cval, prefilter)
    values = values.reshape(output_shape)
    if isinstance(output, numpy.ndarray):
        output[...] = values
        return output
    return values


def _per_axis(value, ndim, name):
    return _ndimage()._per_axis(value, ndim, name)


def map_coordinates(input, coordinates, output=None, order=3,
                    mode="constant", cval=0.0, prefilter=True):
    if mode != OPENCV:
        return _ndimage().map_coordinates(input, coordinates, output, order,
                                          mode, cval, prefilter)
    return _sample(numpy.asarray(input), coordinates, output, order, cval,
                   prefilter)


def affine_transform(input, matrix, offset=0.0, output_shape=None,
                     output=None, order=3, mode="constant", cval=0.0,
                     prefilter=True, **kwargs):
    if mode != OPENCV:
        return _ndimage().affine_transform(input, matrix, offset,
                                           output_shape, output, order, mode,
                                           cval, prefilter, **kwargs)
    input = numpy.asarray(input)
    ndim = input.ndim
    matrix = numpy.asarray(matrix, dtype=numpy.float64)
    offset = _per_axis(offset, ndim, "offset")
    if matrix.ndim == 2 and matrix.shape[0] == matrix.shape[1] - 1:
        offset, matrix = matrix[:, -1], matrix[:, :-1]
    elif matrix.ndim == 2 and matrix.shape[0] == ndim + 1:
        offset, matrix = matrix[:-1, -1], matrix[:-1, :-1]
    # OpenCV's matrix maps input (x, y) to output (x, y): invert it, and
    # exchange x and y (the first two rows, and their first two columns)
    # for NumPy's (row, column) order, as CuPy does.
    forward = numpy.eye(ndim + 1)
    forward[:-1, :-1] = matrix
    forward[:-1, -1] = offset
    inverse = numpy.linalg.inv(forward)
    if ndim >= 2:
        inverse[:2] = inverse[1::-1].copy()
        inverse[:2, :2] = inverse[:2, 1::-1].copy()
    return _sample_grid(input, inverse[:-1, :-1], inverse[:-1, -1],
                        output_shape or input.shape, output, order, cval,
                        prefilter)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0,
          prefilter=True):
    if mode != OPENCV:
        return _ndimage().shift(input, shift, output, order, mode, cval,
                                prefilter)
    input = numpy.asarray(input)
    moved = [-s for s in _per_axis(shift, input.ndim, "shift")]
    return _sample_grid(input, numpy.ones(input.ndim), moved, input.shape,
                        output, order, cval, prefilter)


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3,
           mode="constant", cval=0.0, prefilter=True):
    if mode != OPENCV:
        return _ndimage().rotate(input, angle, axes, reshape, output, order,
                                 mode, cval, prefilter)
    input = numpy.asarray(input)
    ndim = input.ndim
    axes = sorted(a + ndim if a < 0 else a for a in axes)
    if axes[0] < 0 or axes[1] >= ndim or axes[0] == axes[1]:
        raise ValueError("invalid rotation plane specified")
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    rotation = numpy.array([[cos, sin], [-sin, cos]])
    in_plane = numpy.array([input.shape[a] for a in axes])
    if reshape:
        corners = rotation @ [[0, 0, in_plane[0], in_plane[0]],
                              [0, in_plane[1], 0, in_plane[1]]]
        out_plane = (numpy.ptp(corners, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    shape = list(input.shape)
    for a, n in zip(axes, out_plane):
        shape[a] = int(n)
    matrix = numpy.eye(ndim)
    matrix[numpy.ix_(axes, axes)] = rotation
    offset = numpy.zeros(ndim)
    offset[axes] = (in_plane - 1) / 2 - rotation @ ((out_plane - 1) / 2)
    return _sample_grid(input, matrix, offset, tuple(shape), output, order,
                        cval, prefilter)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0,
         prefilter=True, **kwargs):
    if mode != OPENCV:
        return _ndimage().zoom(input, zoom, output, order, mode, cval,
                               prefilter, **kwargs)
    input = numpy.asarray(input)
    factors = _per_axis(zoom, input.ndim, "zoom")
    shape = tuple(int(round(n * z)) for n, z in zip(input.shape, factors))
    scale = [n / m if m > 1 else 0.0 for n, m in zip(input.shape, shape)]
    offset = [(s - 1) / 2 if m > 1 else 0.0 for s, m in zip(scale, shape)]
    return _ndimage().affine_transform(input, numpy.asarray(scale), offset,
                                       shape, output,
                                       order, "nearest", cval, prefilter)


FUNCTIONS = {f.__name__: f for f in (map_coordinates, affine_transform,
                                     shift, rotate, zoom)}
