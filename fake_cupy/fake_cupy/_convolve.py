"""cupy.convolve and cupy.correlate with CuPy's argument checks
(cupy/_math/misc.py and cupy/_statistics/correlation.py).

NumPy's convolve refuses a multidimensional first operand ("object too deep
for desired array") and both functions take lists. CuPy's convolve reads
`a.size` and `v.size` first (a list is AttributeError; an empty operand is
"a cannot be empty" / "v cannot be empty"), refuses only a multidimensional
`v`, and flattens both operands, so a 2-D signal is convolved as its
flattened samples. CuPy's correlate refuses an empty operand ("Array
arguments cannot be empty") and any operand that is not 1-D. Their values
and dtypes are NumPy's: CuPy's FFT and direct paths give the same windows
of the full result in every mode, and keep result_type of the operands."""
import numpy


def convolve(a, v, mode="full"):
    """The discrete linear convolution of a and v (flattened)."""
    import fake_cupy as cupy
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")
    if v.ndim > 1:
        raise ValueError("v cannot be multidimensional array")
    return _on_host(numpy.convolve, a.ravel(), v.ravel(), mode)


def correlate(a, v, mode="valid"):
    """The cross-correlation of the 1-D arrays a and v."""
    if a.size == 0 or v.size == 0:
        raise ValueError("Array arguments cannot be empty")
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    return _on_host(numpy.correlate, a, v, mode)


def _on_host(func, a, v, mode):
    """NumPy's func of the two cupy arrays (a NumPy operand is refused, as
    a kernel argument is in CuPy)."""
    from fake_cupy._functions import delegate
    return delegate(func)(a, v, mode)
