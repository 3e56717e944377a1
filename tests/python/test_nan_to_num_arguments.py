"""cupy.nan_to_num takes a cupy array and, with copy=False, returns it
itself, as CuPy's (cupy/_math/misc.py).

Cleaning steps in signal scripts write `x = cp.nan_to_num(x, copy=False)`
or apply it to a reduced value. The fake delegated to NumPy's nan_to_num,
which takes a Python number or a list and, through the fake's wrapping,
returned a new array object for copy=False. CuPy's reads `x.dtype` first (a
number or a list is AttributeError) and writes through its ufunc's `out=x`,
returning x itself; a NumPy array meets the ufunc's TypeError."""
import numpy
import pytest


def test_values_and_dtype_match_numpy(cp):
    host = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 2.0], dtype=numpy.float32)
    got = cp.nan_to_num(cp.asarray(host), nan=-1.0, posinf=9.0)
    assert got.dtype == numpy.float32
    numpy.testing.assert_array_equal(cp.asnumpy(got), numpy.nan_to_num(host, nan=-1.0, posinf=9.0))
    ints = cp.asarray(numpy.array([1, 2]))
    assert cp.asnumpy(cp.nan_to_num(ints, nan=5)).tolist() == [1, 2]


def test_copy_false_returns_the_array_itself(cp):
    x = cp.asarray(numpy.array([numpy.nan, 1.0]))
    y = cp.nan_to_num(x, copy=False)
    assert y is x
    assert cp.asnumpy(x).tolist() == [0.0, 1.0]
    z = cp.nan_to_num(cp.asarray(numpy.array([numpy.nan])))
    assert z is not None and float(z[0]) == 0.0


@pytest.mark.parametrize("value", [float("nan"), [numpy.nan, 1.0]], ids=["python-number", "list"])
def test_non_arrays_are_refused(cp, value):
    with pytest.raises(AttributeError):
        cp.nan_to_num(value)


def test_numpy_array_is_refused(cp):
    with pytest.raises(TypeError, match="^Unsupported type <class 'numpy.ndarray'>$"):
        cp.nan_to_num(numpy.array([numpy.nan]))
