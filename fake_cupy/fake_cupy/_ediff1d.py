"""cupy.ediff1d, as CuPy's (cupy/_math/sumprod.py).

NumPy's ediff1d takes a list for the input and a Python number, a list or a
NumPy array for `to_begin`/`to_end`. CuPy's takes cupy arrays only
(TypeError "`arr` should be of type cupy.ndarray", and the same for each
of `to_begin` and `to_end`), requires their dtypes to cast to the input's
under 'same_kind' (its can_cast reads the dtype, not the values), and gives
the flattened differences in the input's dtype between the two."""
import numpy


def ediff1d(arr, to_end=None, to_begin=None):
    """The differences of arr's consecutive elements (flattened), with
    to_begin before them and to_end after them."""
    import fake_cupy as cupy
    if not isinstance(arr, cupy.ndarray):
        raise TypeError("`arr` should be of type cupy.ndarray")
    arr = arr.ravel()
    if to_begin is None and to_end is None:
        return arr[1:] - arr[:-1]
    pieces = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            pieces.append(None)
            continue
        if not isinstance(extra, cupy.ndarray):
            raise TypeError(f"`{name}` should be of type cupy.ndarray")
        if not numpy.can_cast(extra.dtype, arr.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `arr` "
                            f"under the `same_kind` rule.")
        pieces.append(extra.ravel())
    begin, end = pieces
    n_begin = 0 if begin is None else begin.size
    n_end = 0 if end is None else end.size
    n_diff = max(arr.size - 1, 0)
    out = cupy.empty(n_begin + n_diff + n_end, dtype=arr.dtype)
    if n_begin:
        out[:n_begin] = begin
    if n_end:
        out[n_begin + n_diff:] = end
    cupy.subtract(arr[1:], arr[:-1], out[n_begin:n_begin + n_diff])
    return out
