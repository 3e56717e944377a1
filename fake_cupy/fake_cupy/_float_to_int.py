"""Float-to-integer conversions of device data as a GPU makes them.

CuPy converts on the device, with the kernel's C cast, which nvcc compiles
to PTX's cvt.rzi: the value is truncated toward zero and saturated to the
integer's range, NaN gives 0. A char or short destination is converted to
the 32-bit integer of its signedness first and then truncated to its width,
as cuemu's compiler plugins model nvcc's conversion for kernels (docs/
warp-lockstep.md). CuPy documents the difference ("Differences between CuPy
and NumPy": cupy.array([-1], dtype=float32).astype(uint32) is [0], an
infinity cast to int32 is 2147483647), where NumPy on x86 gives 4294967295
and -2147483648: so `(ndvi * 255).astype(cupy.uint8)` of a negative index
is 0 on a GPU and 255 minus something on NumPy.

Used by ndarray.astype, item assignment from a cupy array and
cupy.copyto: a float array becoming an integer one. Data coming from the
host (cupy.asarray(numpy_array, dtype=...)) is converted by NumPy, as
CuPy converts it there."""
import numpy


def _saturated(values, dtype):
    """values (float64 or wider holds them exactly) truncated and saturated
    to the integer type dtype, NaN to 0."""
    info = numpy.iinfo(dtype)
    below = values < info.min
    # The first value above the range, 2^(bits) or 2^(bits - 1), is exact.
    above = values >= float(info.max) + 1.0
    nan = numpy.isnan(values)
    inside = numpy.where(below | above | nan, 0.0, numpy.trunc(values))
    result = inside.astype(dtype)
    result[below] = info.min
    result[above] = info.max
    return result


def converts(source, dtype):
    """Whether a cast of source's dtype to dtype is one this module makes."""
    return source.dtype.kind == "f" and numpy.dtype(dtype).kind in "iu"


def cast(source, dtype, order="K"):
    """source (a NumPy view of device memory, floating) as dtype (an integer
    type), converted as the GPU converts, laid out by `order`."""
    dtype = numpy.dtype(dtype)
    wide = dtype
    if dtype.itemsize < 4:
        wide = numpy.dtype(numpy.uint32 if dtype.kind == "u" else numpy.int32)
    values = source.astype(numpy.longdouble if source.dtype.itemsize > 8
                           else numpy.float64)
    converted = _saturated(values, wide)
    # The source's layout for order 'K'; a narrow type keeps the low bits
    # of the 32-bit result (NumPy's assignment between integer types).
    result = numpy.empty_like(source, dtype=dtype, order=order)
    result[...] = converted
    return result
