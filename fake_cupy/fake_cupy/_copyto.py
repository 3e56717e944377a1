"""cupy.copyto of the fake CuPy, with CuPy's checks of its source.

CuPy's copyto (cupy/_manipulation/basic.py) takes as `src` a Python
scalar, a NumPy scalar or a NumPy array of one element (its value), or a
cupy array. A NumPy array of more elements raises
ValueError("non-scalar numpy.ndarray cannot be used for copyto"): host data
is never copied to the device implicitly; anything else without a `dtype`
(a list, a tuple) raises AttributeError. The cast is checked against
`casting` first (TypeError "Cannot cast ... in ... casting mode"), then the
broadcast (ValueError "could not broadcast input array from shape ...").
"""
import itertools

import numpy

from fake_cupy import _float_to_int, _overlap_race
from fake_cupy._ndarray import _run_numpy, ndarray


def copyto(dst, src, casting="same_kind", where=None):
    """Copies src into dst (broadcast), where `where` is true."""
    src_is_scalar = False
    if type(src) in (bool, int, float, complex):
        numpy.copyto(numpy.empty((), dtype=dst.dtype), src, casting=casting)
        src_dtype, can_cast, src_is_scalar = None, True, True
    elif isinstance(src, numpy.ndarray) or numpy.isscalar(src):
        if src.size != 1:
            raise ValueError(
                "non-scalar numpy.ndarray cannot be used for copyto")
        src_dtype = src.dtype
        can_cast = numpy.can_cast(src, dst.dtype, casting)
        src = src.item()
        src_is_scalar = True
    else:
        src_dtype = src.dtype
        can_cast = numpy.can_cast(src_dtype, dst.dtype, casting)
    if not can_cast:
        raise TypeError("Cannot cast %s to %s in %s casting mode"
                        % (src_dtype, dst.dtype, casting))
    if not src_is_scalar:
        if not all(s in (d, 1) for s, d in itertools.zip_longest(
                reversed(src.shape), reversed(dst.shape), fillvalue=1)):
            raise ValueError("could not broadcast input array "
                             f"from shape {src.shape} into shape {dst.shape}")
        src = src._host()
        if _float_to_int.converts(src, dst.dtype):
            # CuPy's copy kernel converts on the device.
            src = _float_to_int.cast(src, dst.dtype)
        if src.ndim > dst.ndim:
            src = src.squeeze(tuple(range(src.ndim - dst.ndim)))
    if not isinstance(dst, ndarray):
        # CuPy's copy kernel takes no host array as its output.
        raise TypeError(f"Unsupported type {type(dst)}")
    if where is not None:
        where = where._host() if isinstance(where, ndarray) else where
    elif not src_is_scalar:
        _overlap_race.check_copy(dst._host(), src, "cupy.copyto")
    _run_numpy(numpy.copyto, (dst._host(), src),
               {"casting": "unsafe", "where": True if where is None else where})
