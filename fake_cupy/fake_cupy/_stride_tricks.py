"""cupy.lib and cupy.lib.stride_tricks of the fake CuPy.

As in CuPy, ``as_strided`` and ``sliding_window_view`` return views of the
array's own memory (a kernel given the view gets the address of its first
element), made by NumPy over the fake array's host memory. CuPy's
``sliding_window_view`` takes ``subok`` and ``writeable`` but ignores them:
its view is always writable, and so is the fake's. Both views are made as
CuPy makes them, by the constructor over x's memory pointer: their
``base`` is None and ``flags.owndata`` True.
"""
import types

import numpy

from fake_cupy._ndarray import _new_from, ndarray


def _made_over(x, view):
    """`view` (a NumPy view of x's host memory) as an array of its own over
    x's memory, as cupy.ndarray(memptr=x.data, strides=...) gives."""
    if not view.size:
        return _new_from(view)
    return ndarray._wrap(view, x._mem)


def as_strided(x, shape=None, strides=None):
    """A view of `x`'s memory with the given shape and strides (bytes),
    which default to x's own; nothing is checked, as in CuPy."""
    shape = x.shape if shape is None else tuple(shape)
    strides = x.strides if strides is None else tuple(strides)
    view = numpy.lib.stride_tricks.as_strided(x._host(), shape, strides,
                                              writeable=True)
    return _made_over(x, view)


def sliding_window_view(x, window_shape, axis=None, *, subok=False,
                        writeable=False):
    """Windows of `window_shape` over `x` (a view, windows last)."""
    if not isinstance(x, ndarray):
        from fake_cupy._functions import asarray
        x = asarray(x)
    view = numpy.lib.stride_tricks.sliding_window_view(
        x._host(), window_shape, axis, writeable=True)
    return _made_over(x, view)


stride_tricks = types.ModuleType(
    "cupy.lib.stride_tricks", "Fake CuPy's cupy.lib.stride_tricks.")
stride_tricks.as_strided = as_strided
stride_tricks.sliding_window_view = sliding_window_view
lib = types.ModuleType("cupy.lib", "Fake CuPy's cupy.lib.")
lib.__path__ = []       # a package, so that `import cupy.lib.stride_tricks` works
lib.stride_tricks = stride_tricks
