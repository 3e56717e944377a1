"""CuPy's scatter operations: ufunc.at of the ufuncs that have it (add,
subtract, bitwise_and, bitwise_or, bitwise_xor) and cupyx.scatter_add,
scatter_max and scatter_min.

Both are CuPy 13's ndarray._scatter_op (cupy/_core/_routines_indexing.pyx).
An index holding integer arrays runs an atomic kernel per operation
(_scatter_op_single), which takes only the dtypes its atomics have and raises
TypeError with CuPy's message otherwise (int64 and complex arrays for add,
everything but int32 and uint32 for subtract), checked on the array's dtype
since the value is first taken in it; its integer indices wrap around their
dimension as indexing does ("Differences between CuPy and NumPy"), where
NumPy's ufunc.at raises IndexError. A boolean mask or a basic index has no
such limit. Each index is applied as often as it appears, as NumPy's
ufunc.at does."""
import numpy

from fake_cupy._index_wrap import wrap_integer_indices

# op: (NumPy's ufunc, the dtypes CuPy's atomic kernel takes, its message).
_OPS = {
    "add": (numpy.add,
            ("int32", "float16", "float32", "float64", "uint32", "uint64"),
            "cupy.add.at only supports int32, float16, float32, float64, "
            "uint32, uint64, as data type"),
    "sub": (numpy.subtract, ("int32", "uint32"),
            "cupy.subtract.at only supports int32, uint32, as data type"),
    "max": (numpy.maximum,
            ("int32", "float32", "float64", "uint32", "uint64"),
            "cupy.maximum.at only supports int32, float32, float64, "
            "uint32, uint64 as data type"),
    "min": (numpy.minimum,
            ("int32", "float32", "float64", "uint32", "uint64"),
            "cupy.minimum.at only supports int32, float32, float64, "
            "uint32, uint64 as data type"),
    "and": (numpy.bitwise_and, ("int32", "int64", "uint32", "uint64"),
            "cupy.bitwise_and.at only supports int32, int64, uint32, uint64 "
            "as data type"),
    "or": (numpy.bitwise_or, ("int32", "int64", "uint32", "uint64"),
           "cupy.bitwise_or.at only supports int32, int64, uint32, uint64 "
           "as data type"),
    "xor": (numpy.bitwise_xor, ("int32", "int64", "uint32", "uint64"),
            "cupy.bitwise_xor.at only supports int32, int64, uint32, uint64 "
            "as data type"),
}

# The scatter operation of each ufunc whose `at` CuPy 13 has (the ufuncs it
# creates with a scatter_op).
UFUNC_OPS = {"add": "add", "subtract": "sub", "bitwise_and": "and",
             "bitwise_or": "or", "bitwise_xor": "xor"}


def _has_integer_array(index):
    """Whether an index holds an integer array (a list of numbers counts, as
    CuPy makes it an array), which sends CuPy to its atomic kernels."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if isinstance(item, (list, numpy.ndarray)) or hasattr(item, "_host"):
            kind = numpy.asarray(item._host() if hasattr(item, "_host")
                                 else item).dtype.kind
            if kind in "iu" or isinstance(item, list) and kind != "b":
                return True
    return False


def scatter(a, slices, value, op):
    """a[slices] updated in place by operation `op` with `value` (a cupy or
    NumPy array, or a scalar), taken in a's dtype as CuPy takes it."""
    from fake_cupy._ndarray import _run_numpy, _unwrap_index, ndarray
    ufunc, dtypes, message = _OPS[op]
    if _has_integer_array(slices) and a.dtype.name not in dtypes:
        raise TypeError(message)
    host = value._host() if isinstance(value, ndarray) else value
    index = wrap_integer_indices(_unwrap_index(slices), a.shape)
    _run_numpy(lambda: ufunc.at(a._host(), index, numpy.asarray(host).astype(
        a.dtype, copy=False)), (), {})


def ufunc_at(name):
    """The `at` method of CuPy's ufunc `name`: a._scatter_op(indices, b, op),
    so `a` must be a cupy array (a NumPy array has no _scatter_op)."""
    op = UFUNC_OPS[name]

    def at(a, indices, b=None):
        from fake_cupy._ndarray import ndarray
        if not isinstance(a, ndarray):
            raise AttributeError(f"'{type(a).__name__}' object has no "
                                 "attribute '_scatter_op'")
        scatter(a, indices, b, op)
    at.__name__ = "at"
    return at
