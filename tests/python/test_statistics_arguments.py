"""cupy.cov's weights and the mean and variance of empty slices, as CuPy 13
has them (cupy/_statistics/correlation.py, cupy/_core/_routines_statistics.pyx).

NumPy 2 takes lists and integral floats as weights, refuses negative ones,
and centres weighted observations on their weighted average; CuPy wants
cupy arrays, does not look at the signs, and centres on the unweighted mean.
NumPy warns "Mean of empty slice" and "Degrees of freedom <= 0 for slice";
CuPy's kernels give nan without a warning."""
import warnings

import numpy
import pytest


def test_cov_weights_must_be_cupy_arrays(cp):
    x = cp.asarray([[1.0, 2.0, 4.0, 7.0], [0.0, 1.0, 1.0, 3.0]])
    with pytest.raises(TypeError, match="^fweights must be a cupy.ndarray$"):
        cp.cov(x, fweights=[1, 2, 1, 1])
    with pytest.raises(TypeError, match="^fweights must be integer$"):
        cp.cov(x, fweights=cp.asarray([1.0, 2.0, 1.0, 1.0]))
    with pytest.raises(TypeError, match="^aweights must be a cupy.ndarray$"):
        cp.cov(x, aweights=numpy.ones(4))
    with pytest.raises(RuntimeError, match="incompatible numbers of samples and aweights"):
        cp.cov(x, aweights=cp.ones(3))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ndim'"):
        cp.cov([1.0, 2.0, 3.0])
    # Negative weights are not looked at (NumPy: ValueError).
    assert cp.cov(x, fweights=cp.asarray([-1, 2, 1, 1])).shape == (2, 2)


def test_cov_centres_weighted_observations_on_their_plain_mean(cp):
    # Mean 1, weighted average 0.75: CuPy sums 2*1 + 1*1 + 1*4 over
    # 4 - 1, NumPy 2*0.5625 + 0.5625 + 5.0625 over 3 (2.25).
    x = cp.asarray([0.0, 0.0, 3.0])
    c = cp.cov(x, fweights=cp.asarray([2, 1, 1]))
    assert c.shape == () and float(c) == pytest.approx(7.0 / 3.0)
    c = cp.cov(x, aweights=cp.asarray([2.0, 1.0, 1.0]))
    # fact = w_sum - ddof * sum(w * aw) / w_sum = 4 - 6 / 4.
    assert float(c) == pytest.approx(7.0 / 2.5)
    # Equal weights: NumPy's value.
    y = cp.asarray([[1.0, 2.0, 4.0, 7.0], [0.0, 1.0, 1.0, 3.0]])
    expected = numpy.cov(y.get(), fweights=[2, 2, 2, 2])
    assert numpy.allclose(cp.cov(y, fweights=cp.full(4, 2)).get(), expected)
    assert numpy.allclose(cp.cov(y).get(), numpy.cov(y.get()))


def test_mean_of_an_empty_slice_is_nan_without_a_warning(cp):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numpy.isnan(float(cp.mean(cp.zeros(0))))
        assert numpy.isnan(float(cp.zeros(0, dtype=numpy.int32).mean()))
        assert numpy.isnan(cp.mean(cp.zeros((0, 3)), axis=0).get()).all()
        assert numpy.isnan(float(cp.nanmean(cp.asarray([numpy.nan]))))
        assert numpy.isnan(float(cp.var(cp.zeros(0))))
        assert numpy.isnan(cp.std(cp.zeros((2, 0)), axis=1).get()).all()


def test_variance_without_degrees_of_freedom_is_nan(cp):
    # CuPy multiplies by nan where NumPy divides by 0 (inf for a spread).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v = cp.var(cp.asarray([1.0, 2.0]), ddof=2)
        assert v.dtype == numpy.float64 and numpy.isnan(float(v))
        s = cp.asarray([[1.0, 2.0], [3.0, 5.0]]).std(axis=1, ddof=3)
        assert numpy.isnan(s.get()).all()
    assert float(cp.var(cp.asarray([1.0, 2.0]), ddof=1)) == 0.5
