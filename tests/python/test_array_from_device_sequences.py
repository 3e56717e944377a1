"""cupy.array of a nested list whose elements are cupy arrays.

CuPy builds such an array on the device (cupy/_core/core.pyx,
_array_from_nested_sequence): `cupy.array([[1.0 / cupy.mean(x)]])` or a
list of 0-d results gives an array of the nested shape. A probabilistic
inference package's own tests build their expected values that way; the
fake took only a flat list of cupy arrays and handed the nested one to
NumPy, which raised the "Implicit conversion" TypeError."""
import numpy
import pytest


def test_nested_lists_of_zero_dim_arrays(cp):
    x = cp.array([[1.0, 2.0, 4.0]])
    m = cp.mean(1.0 / x)
    a = cp.array([[1.0 / m]])
    assert isinstance(a, cp.ndarray) and a.shape == (1, 1)
    assert a.dtype == numpy.float64
    assert abs(a.get()[0, 0] - 12.0 / 7.0) < 1e-12
    rows = cp.arange(6.0).reshape(2, 3)
    b = cp.array([[rows[0, 0], rows[0, 2]], (rows[1, 1], rows[1, 2])])
    assert b.shape == (2, 2)
    assert (b.get() == numpy.array([[0.0, 2.0], [4.0, 5.0]])).all()


def test_nested_lists_of_arrays_keep_their_shape_and_take_dtype(cp):
    r = cp.arange(3, dtype=cp.int32)
    a = cp.array([[r, r + 1], [r + 2, r + 3]], dtype=cp.float32)
    assert a.shape == (2, 2, 3) and a.dtype == numpy.float32
    assert (a.get()[1, 1] == numpy.array([3, 4, 5], numpy.float32)).all()


def test_mixed_or_ragged_nested_lists_are_refused(cp):
    # CuPy builds on the device only when every element is a cupy array of
    # one shape; anything else goes to NumPy, which meets the cupy array's
    # refused implicit conversion.
    with pytest.raises(TypeError, match="Implicit conversion"):
        cp.array([[cp.ones(2)], [numpy.ones(2)]])
    with pytest.raises(TypeError, match="Implicit conversion"):
        cp.array([[cp.ones(2)], [cp.ones(3)]])
    # So does a flat list mixing a cupy array with Python numbers, which the
    # fake used to copy element by element.
    with pytest.raises(TypeError, match="Implicit conversion"):
        cp.array([cp.array(1.0), 2.0])
    with pytest.raises(TypeError, match="Implicit conversion"):
        cp.asarray([cp.arange(3), 0], dtype=object)
    assert cp.array([cp.array(1.0), cp.array(2)]).dtype == numpy.float64
