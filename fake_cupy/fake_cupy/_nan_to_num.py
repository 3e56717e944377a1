"""cupy.nan_to_num, as CuPy's (cupy/_math/misc.py).

NumPy's nan_to_num takes a Python number or a list, and the fake's wrapping
of it returned a new array object for copy=False. CuPy's reads `x.dtype`
first (a number or a list is AttributeError), runs its ufunc with `out=x`
when copy is False, so it returns x itself, and refuses a NumPy array as
any ufunc operand is refused. The replacement values are NumPy's: NaN, the
given or the dtype's largest finite values, cast to x's (real) dtype, and
nothing changes in an integer or bool array."""


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """x with NaN and infinities replaced (in x itself when copy is False)."""
    import numpy
    import fake_cupy as cupy
    from fake_cupy._functions import delegate
    # CuPy's first step reads x's dtype: a number or a list has none.
    if not hasattr(x, "dtype"):
        raise AttributeError(f"{type(x).__name__!r} object has no attribute 'dtype'")
    if not isinstance(x, cupy.ndarray):
        raise TypeError(f"Unsupported type {type(x)}")
    result = delegate(numpy.nan_to_num)(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)
    if copy:
        return result
    x[...] = result
    return x
