"""A NumPy scalar on the left of a comparison with a CuPy array: NumPy hands
the ufunc a 0-d NumPy array for the scalar, which CuPy's __array_ufunc__
turns back into a scalar for the six comparison ufuncs (CuPy's fix of its
issue 1694), so `numpy.float64(tol) > err` and `max(err, numpy.int64(3))`
work on CuPy and give CuPy arrays. The fake raised "Unsupported type
<class 'numpy.ndarray'>"; other ufuncs still refuse NumPy arrays."""
import numpy
import pytest


@pytest.mark.parametrize("op, want", [
    ("__gt__", [True, False, False]), ("__ge__", [True, True, False]),
    ("__lt__", [False, False, True]), ("__le__", [False, True, True]),
    ("__eq__", [False, True, False]), ("__ne__", [True, False, True])])
def test_numpy_scalar_left_of_a_comparison(cp, op, want):
    a = cp.array([1.0, 2.0, 3.0])
    got = getattr(numpy.float64(2.0), op)(a)
    assert isinstance(got, cp.ndarray) and got.dtype == numpy.bool_
    assert got.tolist() == want


def test_max_of_a_cupy_value_and_a_numpy_scalar(cp):
    # A program's M = int(max(cp.amax(x), numpy.amax(y))) + 1.
    assert int(max(cp.amax(cp.array([1, 5])), numpy.int64(3))) == 5
    assert int(max(cp.amax(cp.array([1, 2])), numpy.int64(3))) == 3
    assert bool(numpy.float32(0.5) < cp.array(0.25)) is False


def test_other_ufuncs_still_refuse_numpy_arrays(cp):
    a = cp.array([1.0, 2.0])
    with pytest.raises(TypeError):
        numpy.add(numpy.array(1.0), a)
    with pytest.raises(TypeError):
        numpy.greater(numpy.array([1.0, 2.0]), a)
