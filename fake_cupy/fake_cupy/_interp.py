"""cupy.interp with CuPy's checks and casts (cupy/_math/misc.py).

NumPy's interp takes a Python number or a list for x, a strided x and a
`left`/`right` of any type. CuPy's reads `xp.ndim`, `fp.ndim`, `xp.size`
and `x.flags.c_contiguous` in that order (so a number or a list raises
AttributeError), refuses a non-C-contiguous x, requires the common type of
x and xp to cast safely to float64, and casts `left` and `right` to fp's
dtype before its kernel reads them (an integer fp with `left=0.5` gives
0.0). Its output is float64 (complex128 for a complex fp) of x's shape; the
values are NumPy's, whose algorithm CuPy's kernel follows."""
import numpy


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional linear interpolation of cupy arrays, as CuPy's."""
    import fake_cupy as cupy
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("xp and fp must be 1D arrays")
    if xp.size != fp.size:
        raise ValueError("fp and xp are not of the same length")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    if not x.flags.c_contiguous:
        raise NotImplementedError("Non-C-contiguous x is currently not supported")
    x_type = numpy.common_type(numpy.empty(0, x.dtype), numpy.empty(0, xp.dtype))
    if not numpy.can_cast(x_type, numpy.float64):
        raise TypeError(f"Cannot cast array data from {x_type} to {numpy.float64} "
                        f"according to the rule 'safe'")
    if period is not None and period == 0:
        raise ValueError("period must be a non-zero value")
    # CuPy looks x up in xp with searchsorted, whose refusals of host arrays
    # are the ones a NumPy x or xp meets there; fp is a kernel argument.
    cupy.searchsorted(xp, x, side="right")
    if not isinstance(fp, cupy.ndarray):
        raise TypeError(f"Unsupported type {type(fp)}")
    host_fp = cupy.asnumpy(fp)
    if period is None:
        # As Python numbers: NumPy's interp drops the imaginary part of a
        # NumPy complex scalar given as left or right.
        left = (host_fp[0] if left is None else numpy.array(left, fp.dtype)).item()
        right = (host_fp[-1] if right is None else numpy.array(right, fp.dtype)).item()
    else:
        left = right = None
    out_dtype = numpy.complex128 if fp.dtype.kind == "c" else numpy.float64
    values = numpy.interp(cupy.asnumpy(x), cupy.asnumpy(xp), host_fp,
                          left=left, right=right, period=period)
    return cupy.asarray(numpy.asarray(values, dtype=out_dtype).reshape(x.shape))
