"""cupy.apply_along_axis hands func1d cupy arrays, as CuPy's does.

A radio-astronomy package's CuPy median absolute deviation applies a NaN-aware
helper along an axis with `cupy.apply_along_axis(helper, axis, x, ...)`; the
helper calls `cupy.isnan` and `cupy.median` on its slice. The fake delegated
to NumPy's apply_along_axis, which gives func1d NumPy slices, so the helper's
first cupy call raised `TypeError: Unsupported type <class 'numpy.ndarray'>`
where CuPy runs it. CuPy's (cupy/lib/_shape_base.py) gives func1d each 1-D
slice as a cupy view, copies each result to the device with cupy.asarray
(a Python or NumPy scalar, a NumPy array), stores them in an array of the
first result's dtype, and refuses empty iteration dimensions with its own
ValueError."""
import numpy
import pytest


def test_func1d_gets_cupy_views_and_may_call_cupy(cp):
    host = numpy.arange(24, dtype=numpy.float64).reshape(4, 6)
    host[1, 2] = numpy.nan
    x = cp.asarray(host)
    seen = []

    def mad(v):
        seen.append(type(v))
        if cp.isnan(v).any():
            return cp.nan                          # a Python float, as the package does
        return cp.median(cp.abs(v - cp.median(v)))

    got = cp.apply_along_axis(mad, 1, x)
    assert isinstance(got, cp.ndarray)
    assert set(seen) == {cp.ndarray}
    want = numpy.array([1.5, numpy.nan, 1.5, 1.5])
    numpy.testing.assert_array_equal(cp.asnumpy(got), want)
    assert got.dtype == numpy.float64 and got.shape == (4,)


def test_slices_are_views_of_the_input(cp):
    x = cp.zeros((3, 4), dtype=cp.float32)

    def fill(v):
        v[...] = 7                                 # writes through, as on a GPU
        return v.sum()

    cp.apply_along_axis(fill, 0, x)
    assert float(x.sum()) == 7 * 12


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_shapes_and_values_match_numpy(cp, axis):
    host = numpy.random.default_rng(1).standard_normal((3, 4, 5))
    want = numpy.apply_along_axis(lambda v: numpy.stack([v.min(), v.max()]), axis, host)
    got = cp.apply_along_axis(lambda v: cp.stack([v.min(), v.max()]), axis, cp.asarray(host))
    assert got.shape == want.shape
    numpy.testing.assert_allclose(cp.asnumpy(got), want)


def test_results_take_the_first_results_dtype(cp):
    x = cp.asarray(numpy.array([[1, 2], [3, 4]]))
    # Each result goes to the device through cupy.asarray: a NumPy array too.
    got = cp.apply_along_axis(lambda v: numpy.array([1.5, 2.5]) if int(v[0]) == 1 else 3,
                              1, x)
    assert got.dtype == numpy.float64
    numpy.testing.assert_array_equal(cp.asnumpy(got), [[1.5, 2.5], [3.0, 3.0]])


def test_refusals_are_cupys(cp):
    with pytest.raises(ValueError, match="^Cannot apply_along_axis when any iteration "
                                         "dimensions are 0$"):
        cp.apply_along_axis(lambda v: v.sum(), 1, cp.zeros((0, 3)))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.apply_along_axis(lambda v: v.sum(), 2, cp.zeros((2, 3)))
    with pytest.raises(AttributeError):
        cp.apply_along_axis(lambda v: v.sum(), 0, [[1, 2], [3, 4]])
