"""cupy.polyval and cupy.polyfit with CuPy's argument checks
(cupy/lib/_routines_poly.py).

NumPy's polyval takes coefficients as a list, a tuple, a NumPy array or a
number, and computes in the type of `x` converted to an array; CuPy's takes
a cupy array or a poly1d only (TypeError "p must be 1d ndarray or poly1d
object"; a 2-D one is ValueError "p must be 1d array") and computes in
result_type(p's scalar type, x), so float32 coefficients at a Python float
give float32. Its value is sum(p[::-1] * x ** arange(len(p))), a cupy array
also for a scalar x. NumPy's polyfit takes lists and float16 samples; CuPy's
reads x.dtype and y.dtype first (a list is AttributeError) and refuses a
float16 y and a float16 x with a bool y. The fit itself is NumPy's, as
CuPy's is the same scaled least-squares solve."""
import numpy


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x."""
    import fake_cupy as cupy
    if isinstance(p, numpy.poly1d):
        p = p.coeffs
    if not isinstance(p, cupy.ndarray) or p.ndim == 0:
        raise TypeError("p must be 1d ndarray or poly1d object")
    if p.ndim > 1:
        raise ValueError("p must be 1d array")
    if isinstance(x, numpy.poly1d):
        return numpy.poly1d(cupy.asnumpy(p))(x)
    dtype = numpy.result_type(p.dtype.type(0), x.dtype if isinstance(x, cupy.ndarray) else x)
    p = p.astype(dtype, copy=False)
    if p.size == 0:
        return cupy.zeros(x.shape, dtype)
    if dtype == numpy.bool_:
        return p.any() * x + p[-1]
    if not numpy.isscalar(x):
        x = cupy.asarray(x, dtype=dtype)[..., None]
    powers = x ** cupy.arange(p.size, dtype=dtype)
    return (p[::-1] * powers).sum(axis=-1, dtype=dtype)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial fit of y at x, highest power first."""
    from fake_cupy._functions import delegate
    if x.dtype.char == "e" and y.dtype.kind == "b":
        raise NotImplementedError("float16 x and bool y are not currently supported")
    if y.dtype == numpy.float16:
        raise TypeError("float16 y are not supported")
    if w is not None and not hasattr(w, "dtype"):
        # CuPy reads the weights' dtype to cast them, as it does x's and y's.
        raise AttributeError(f"{type(w).__name__!r} object has no attribute 'dtype'")
    return delegate(numpy.polyfit)(x, y, deg, rcond=rcond, full=full, w=w, cov=cov)
