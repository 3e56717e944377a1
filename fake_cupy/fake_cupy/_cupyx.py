"""cupyx of the fake CuPy: pinned host arrays (NumPy arrays here)."""
import numpy

from fake_cupy import _memory


class _PinnedHolder:
    """Keeps the pinned allocation alive as long as the NumPy array."""

    def __init__(self, pointer, array):
        self.pointer = pointer
        self.__array_interface__ = array.__array_interface__


def _pinned(shape, dtype, fill):
    dtype = numpy.dtype(dtype)
    count = int(numpy.prod(shape, dtype=numpy.int64))
    pointer = _memory._pinned_allocator(count * dtype.itemsize)
    view = numpy.frombuffer(pointer.mem.block.buffer, dtype=dtype,
                            count=count).reshape(shape)
    out = numpy.asarray(_PinnedHolder(pointer, view))
    if fill is not None:
        out[...] = fill
    return out


def empty_pinned(shape, dtype=float, order="C"):
    return _pinned(shape, dtype, None)


def zeros_pinned(shape, dtype=float, order="C"):
    return _pinned(shape, dtype, 0)


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    return _pinned(a.shape if shape is None else shape, dtype or a.dtype, None)


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    return _pinned(a.shape if shape is None else shape, dtype or a.dtype, 0)
