"""A ufunc or operator on a cupy array and a scalar takes CuPy 13's types.

CuPy 13 types a scalar operand by its value, as NumPy 1 did, and a NumPy
scalar exactly as a Python one (cupy/_core/_kernel.pyx,
_check_should_use_min_scalar and _min_scalar_type): when no scalar is of a
higher kind than the arrays (bool < integer < floating and complex), each
scalar counts as numpy.min_scalar_type of its value, and the ufunc's first
loop that every operand casts to safely is taken. NumPy 2 (NEP 50) keeps a
NumPy scalar's dtype and a Python scalar's kind, so the fake, which computes
with NumPy 2, gave complex128 for `complex64 array / numpy.float64(2)` and
raised OverflowError for `int8 array + 1000`."""
import numpy
import pytest


@pytest.mark.parametrize("dtype, scalar, expected", [
    (numpy.complex64, numpy.float64(2.0), numpy.complex64),
    (numpy.float16, numpy.float32(1.5), numpy.float16),
    (numpy.float32, numpy.float64(0.1), numpy.float32),
    (numpy.int32, numpy.int64(3), numpy.int32),
    (numpy.int8, 1000, numpy.int16),
    (numpy.uint8, -1, numpy.int16),
    (numpy.int8, 200, numpy.int16),
    (numpy.float32, 1e300, numpy.float64),
    (numpy.int64, 2 ** 63, numpy.float64),
    # A scalar of a higher kind keeps its own dtype: float64 for a Python
    # float, the NumPy scalar's dtype otherwise.
    (numpy.int32, 1.5, numpy.float64),
    (numpy.int16, numpy.float32(1.5), numpy.float32),
    (numpy.bool_, 3, numpy.int64),
    # Complex and floating share a kind: complex64, as NumPy 2 gives.
    (numpy.float32, 1j, numpy.complex64),
    (numpy.float32, 2, numpy.float32),
])
def test_scalar_operand_typed_by_value(cp, dtype, scalar, expected):
    x = cp.ones(3, dtype=dtype)
    assert (x + scalar).dtype == expected
    assert cp.add(x, scalar).dtype == expected
    assert (scalar + x).dtype == expected
    assert cp.multiply(scalar, x).dtype == expected


def test_values_follow_the_loop(cp):
    x = cp.asarray([1 + 2j, 4 - 8j], dtype=numpy.complex64)
    y = x / numpy.float64(2.0)
    assert y.dtype == numpy.complex64 and y.get().tolist() == [0.5 + 1j, 2 - 4j]
    big = cp.asarray([100, -100], dtype=numpy.int8) + 1000
    assert big.dtype == numpy.int16 and big.get().tolist() == [1100, 900]
    # float32 compared in float32: numpy.float64(0.1) is rounded to float32
    # first, as CuPy casts the scalar to the loop's type.
    f = cp.asarray([0.1], dtype=numpy.float32)
    assert bool((f == numpy.float64(0.1)).all())
    # In place, the result is cast back to the array's dtype.
    z = cp.asarray([1, 2], dtype=numpy.int32)
    z *= numpy.int64(3)
    assert z.dtype == numpy.int32 and z.get().tolist() == [3, 6]


def test_arrays_and_explicit_dtypes_keep_numpys_rules(cp):
    # Two arrays (a 0-d one included) are typed by their dtypes alone.
    a = cp.ones(2, dtype=numpy.float32)
    assert (a + cp.asarray(1.0)).dtype == numpy.float64
    # dtype= picks the loop as asked.
    assert cp.add(a, numpy.float64(1), dtype=numpy.float64).dtype == numpy.float64
