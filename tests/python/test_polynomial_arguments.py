"""cupy.polyfit and cupy.polyval check their arguments as CuPy's do
(cupy/lib/_routines_poly.py).

Trend-removal scripts write `cp.polyval([a, b], t)` or fit half-precision
samples with `cp.polyfit(t, y16, 1)`. The fake delegated both to NumPy, which
takes a list or a NumPy array of coefficients and float16 samples. CuPy's
polyval raises TypeError("p must be 1d ndarray or poly1d object") for
anything but a cupy array or poly1d, ValueError for a 2-D one, and computes
in result_type(p's scalar type, x), so float32 coefficients at a Python
float give float32 where NumPy gives float64; CuPy's polyfit reads x.dtype
and y.dtype (a list is AttributeError) and refuses a float16 y."""
import numpy
import pytest


def test_polyval_matches_numpy_on_cupy_arrays(cp):
    p = cp.asarray(numpy.array([2.0, -1.0, 0.5]))
    t = cp.asarray(numpy.linspace(-1, 1, 7))
    got = cp.polyval(p, t)
    assert got.dtype == numpy.float64 and got.shape == (7,)
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.polyval(cp.asnumpy(p), cp.asnumpy(t)))
    fitted = cp.poly1d(p)
    numpy.testing.assert_allclose(cp.asnumpy(cp.polyval(fitted, t)), cp.asnumpy(got))


@pytest.mark.parametrize("p", [[1.0, 2.0], (1.0, 2.0), numpy.array([1.0, 2.0]), 3.0],
                         ids=["list", "tuple", "numpy-array", "python-number"])
def test_polyval_coefficients_must_be_a_cupy_array(cp, p):
    t = cp.asarray(numpy.array([0.0, 1.0]))
    with pytest.raises(TypeError, match="^p must be 1d ndarray or poly1d object$"):
        cp.polyval(p, t)


def test_polyval_shape_and_dtype_refusals(cp):
    t = cp.asarray(numpy.array([0.0, 1.0]))
    with pytest.raises(TypeError, match="^p must be 1d ndarray or poly1d object$"):
        cp.polyval(cp.asarray(numpy.array(1.0)), t)
    with pytest.raises(ValueError, match="^p must be 1d array$"):
        cp.polyval(cp.ones((2, 2)), t)


def test_polyval_dtype_follows_cupy(cp):
    p32 = cp.asarray(numpy.array([1.0, 2.0], dtype=numpy.float32))
    at_number = cp.polyval(p32, 2.5)
    assert isinstance(at_number, cp.ndarray) and at_number.dtype == numpy.float32
    assert float(at_number) == 4.5
    ints = cp.polyval(cp.asarray(numpy.array([1, 2])), cp.asarray(numpy.array([3])))
    assert ints.dtype == numpy.int64 and cp.asnumpy(ints).tolist() == [5]


def test_polyfit_matches_numpy_and_refuses_as_cupy(cp):
    t = numpy.linspace(0, 1, 20)
    y = 3 * t**2 - t + 0.25
    got = cp.polyfit(cp.asarray(t), cp.asarray(y), 2)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.polyfit(t, y, 2), atol=1e-10)
    with pytest.raises(TypeError, match="^float16 y are not supported$"):
        cp.polyfit(cp.asarray(t), cp.asarray(y.astype(numpy.float16)), 1)
    with pytest.raises(AttributeError):
        cp.polyfit(list(t), cp.asarray(y), 1)
