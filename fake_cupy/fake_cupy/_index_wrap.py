"""CuPy's wrapping of out-of-bounds integer array indices.

CuPy documents ("Differences between CuPy and NumPy", and ndarray.__getitem__
/ __setitem__) that integer array indexing wraps an out-of-bounds index around
the dimension it indexes, where NumPy raises IndexError: cupy.arange(3)[[1, 3]]
is [1, 0], and x[[1, 3]] = 10 writes x[0]. Basic indexing (a Python int, a
slice) raises as NumPy does. The fake indexes with NumPy, so each integer
index array is first taken modulo its dimension here."""
import numpy


def _as_index_array(item):
    """A list of ints or booleans is an index array, as NumPy and CuPy read it."""
    if isinstance(item, list):
        try:
            array = numpy.asarray(item)
        except ValueError:
            return item
        if array.dtype.kind in "biu":
            return array
    return item


def _dimensions_taken(item):
    """How many dimensions of the indexed array an index item consumes."""
    if item is None or item is Ellipsis or isinstance(item, (bool, numpy.bool_)):
        return 0
    if isinstance(item, numpy.ndarray) and item.dtype.kind == "b":
        return item.ndim
    return 1


def wrap_integer_indices(index, shape):
    """`index` (already on the host) with each integer index array taken modulo
    the size of the dimension it indexes; any other index is left as it is."""
    items = index if isinstance(index, tuple) else (index,)
    items = [_as_index_array(i) for i in items]
    if not any(isinstance(i, numpy.ndarray) and i.dtype.kind in "iu" for i in items):
        return index
    explicit = sum(_dimensions_taken(i) for i in items)
    dim, wrapped = 0, []
    for item in items:
        if item is Ellipsis:
            dim += len(shape) - explicit
        elif (isinstance(item, numpy.ndarray) and item.dtype.kind in "iu"
              and dim < len(shape) and shape[dim] > 0):
            item = numpy.mod(item, shape[dim])
        dim += _dimensions_taken(item)
        wrapped.append(item)
    return tuple(wrapped) if isinstance(index, tuple) else wrapped[0]


# The functions that take flat or per-axis indices follow the same rule in
# CuPy: take has no mode and wraps; put and ravel_multi_index default to
# mode='wrap' ("different than in NumPy ... to avoid potential device
# synchronization"). These are their host sides, on NumPy arrays.

_PUT_MODES = ("raise", "wrap", "clip")


def take(a, indices, axis=None, out=None):
    """cupy.take / ndarray.take: out-of-bounds indices wrap around."""
    return numpy.take(a, indices, axis=axis, out=out, mode="wrap")


def put(a, ind, v, mode="wrap"):
    """cupy.put / ndarray.put, CuPy's default mode 'wrap'."""
    if mode not in _PUT_MODES:
        raise TypeError("`mode` should be either 'raise', 'wrap' or 'clip'")
    numpy.put(a, ind, v, mode=mode)


def ravel_multi_index(multi_index, dims, mode="wrap", order="C"):
    """cupy.ravel_multi_index, CuPy's default mode 'wrap'."""
    return numpy.ravel_multi_index(multi_index, dims, mode=mode, order=order)
