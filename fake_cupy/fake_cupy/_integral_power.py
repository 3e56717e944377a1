"""Integer powers with negative exponents, as CuPy's power kernel computes
them (integral_power in cupy/_core/_routines_math.pyx): NumPy raises
ValueError("Integers to negative integer powers are not allowed."), CuPy's
kernel answers 1 for a base of 1, +-1 for a base of -1 (by the exponent's
parity) and 0 for any other base, so code that ran on a GPU stopped on the
fake. cupy.power and the ** operators go through here (_ndarray._run_numpy)."""
import numpy

_MESSAGE = "Integers to negative integer powers are not allowed."


def _without_negatives(exponent):
    """The exponent with its negative values made 0, of its own type (a
    Python int stays a Python int, so type promotion is unchanged)."""
    if isinstance(exponent, numpy.ndarray):
        return numpy.where(exponent < 0, 0, exponent).astype(exponent.dtype)
    if exponent < 0:
        return type(exponent)(0)
    return exponent


def power(x1, x2, out=None, **kwargs):
    """numpy.power(x1, x2, ...), with CuPy's values where an integer loop
    meets a negative exponent."""
    try:
        return numpy.power(x1, x2, out=out, **kwargs)
    except ValueError as error:
        if str(error) != _MESSAGE:
            raise
    # The special values first: `out` may be x1 itself (x **= -1).
    odd = numpy.bitwise_and(x2, 1) != 0
    special = numpy.where(numpy.equal(x1, -1), numpy.where(odd, -1, 1),
                          numpy.where(numpy.equal(x1, 1), 1, 0))
    negative = numpy.less(x2, 0)
    result = numpy.power(x1, _without_negatives(x2), out=out, **kwargs)
    values = numpy.where(negative, special, result)
    if not isinstance(result, numpy.ndarray):
        return result.dtype.type(values)
    numpy.copyto(result, values, casting="unsafe")
    return result


# NumPy's callables the fake runs that compute a power, and CuPy's form of
# each (the operators are ufunc calls in CuPy).
FORMS = {
    numpy.power: power,
    numpy.ndarray.__pow__: lambda a, b: power(a, b),
    numpy.ndarray.__rpow__: lambda a, b: power(b, a),
    numpy.ndarray.__ipow__: lambda a, b: power(a, b, out=a),
}
