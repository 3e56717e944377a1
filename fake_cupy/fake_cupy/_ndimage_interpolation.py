"""CuPy's checks and dtypes around cupyx.scipy.ndimage's interpolation
functions (map_coordinates, affine_transform, shift, rotate, zoom), whose
values the fake takes from SciPy (and _ndimage_opencv.py for mode='opencv').

As CuPy 13's cupyx/scipy/ndimage/_interpolation.py:
- an order outside 0..5 is ValueError('spline order is not supported') and
  an unknown mode ValueError('boundary mode (...) is not supported'), where
  SciPy raises RuntimeError;
- map_coordinates reads coordinates.shape, so a list of coordinates is
  AttributeError (SciPy converts it), and coordinates of another kind than
  integer or floating are ValueError('coordinates should have floating
  point dtype');
- a float16 image is interpolated in float32 and given back in float16,
  where SciPy refuses the dtype (RuntimeError: data type not supported).
The wrappers work on host arrays, inside fake_cupy._functions.delegate."""
import functools
import inspect

import numpy

_MODES = ("constant", "grid-constant", "nearest", "mirror", "reflect",
          "grid-mirror", "wrap", "grid-wrap", "opencv", "_opencv_edge")


def _check_parameter(order, mode):
    if order < 0 or 5 < order:
        raise ValueError("spline order is not supported")
    if mode not in _MODES:
        raise ValueError(f"boundary mode ({mode}) is not supported")


def _check_coordinates(coordinates):
    if not hasattr(coordinates, "shape"):
        raise AttributeError(f"'{type(coordinates).__name__}' object has no "
                             "attribute 'shape'")
    if numpy.dtype(coordinates.dtype).kind not in "iuf":
        raise ValueError("coordinates should have floating point dtype")


def _in_float32(func, arguments):
    """func on a float16 image computed in float32, the result in the
    output the caller asked for (float16 unless told otherwise)."""
    output = arguments["output"]
    arguments["input"] = arguments["input"].astype(numpy.float32)
    if isinstance(output, numpy.ndarray):
        arguments["output"] = numpy.float32
        numpy.copyto(output, func(**arguments), casting="unsafe")
        return output
    wanted = numpy.dtype(numpy.float16 if output is None else output)
    arguments["output"] = numpy.float32
    return func(**arguments).astype(wanted)


def checked(func):
    """`func` (one of the interpolation functions, on host arrays) with
    CuPy's checks first and CuPy's float16 handling."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def call(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        extra = arguments.pop("kwargs", {})
        _check_parameter(arguments["order"], arguments["mode"])
        if func.__name__ == "map_coordinates":
            _check_coordinates(arguments["coordinates"])
        if numpy.asarray(arguments["input"]).dtype == numpy.float16:
            return _in_float32(functools.partial(func, **extra), arguments)
        return func(**arguments, **extra)
    return call
