"""cupy.percentile and cupy.quantile (cupy/_statistics/order.py) take
narrower methods than the NumPy the fake runs on, and still take the old
`interpolation=` keyword that NumPy 2.4 removed.

CuPy computes the methods linear, lower, higher, midpoint, nearest and
inverted_cdf; NumPy 1.22's other methods (hazen, weibull, median_unbiased,
...) raise ValueError ("'hazen' method is not yet supported"), any other name
ValueError ("Unexpected interpolation method"). `interpolation=` is the
deprecated name of `method=` (a DeprecationWarning; TypeError when both are
given). `q` must have at most one dimension. A script computing quartiles
with `cp.percentile(x, [25, 75], interpolation='midpoint')` failed on the fake
with NumPy's TypeError."""
import numpy
import pytest

DATA = [7.0, 1.0, 4.0, 9.0, 3.0, 3.0, 8.0]


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint",
                                    "nearest", "inverted_cdf"])
def test_supported_methods_give_numpys_values(cp, method):
    x = cp.asarray(DATA)
    got = cp.percentile(x, [10, 35, 50, 90], method=method)
    want = numpy.percentile(numpy.asarray(DATA), [10, 35, 50, 90], method=method)
    assert isinstance(got, cp.ndarray) and got.dtype == want.dtype
    assert numpy.allclose(got.get(), want)
    q = cp.quantile(x, 0.35, method=method)
    assert q.shape == () and numpy.isclose(float(q), numpy.quantile(DATA, 0.35, method=method))


@pytest.mark.parametrize("method", ["averaged_inverted_cdf", "closest_observation",
                                    "interpolated_inverted_cdf", "hazen", "weibull",
                                    "median_unbiased", "normal_unbiased"])
def test_newer_numpy_methods_are_not_supported(cp, method):
    x = cp.asarray(DATA)
    with pytest.raises(ValueError, match=f"'{method}' method is not yet supported"):
        cp.percentile(x, 50, method=method)
    with pytest.raises(ValueError, match="not yet supported"):
        cp.quantile(x, 0.5, method=method)


def test_unknown_method(cp):
    with pytest.raises(ValueError, match="Unexpected interpolation method"):
        cp.percentile(cp.asarray(DATA), 50, method="cubic")


def test_interpolation_is_the_deprecated_name_of_method(cp):
    x = cp.asarray(DATA)
    with pytest.warns(DeprecationWarning, match="renamed to `method=`"):
        got = cp.percentile(x, [25, 75], interpolation="midpoint")
    assert got.get().tolist() == numpy.percentile(DATA, [25, 75], method="midpoint").tolist()
    with pytest.warns(DeprecationWarning):
        assert float(cp.quantile(x, 0.5, interpolation="lower")) == 4.0
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="shall not pass both"):
        cp.percentile(x, 50, method="lower", interpolation="higher")


def test_q_of_two_dimensions_is_refused(cp):
    with pytest.raises(ValueError, match="Expected q to have a dimension of 1"):
        cp.percentile(cp.asarray(DATA), [[10, 20], [30, 40]])
    with pytest.raises(ValueError, match="Expected q to have a dimension of 1"):
        cp.quantile(cp.asarray(DATA), cp.asarray([[0.1], [0.2]]))


def test_q_out_of_range(cp):
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        cp.percentile(cp.asarray(DATA), 101)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        cp.quantile(cp.asarray(DATA), -0.5)


def test_axis_keepdims_and_device_q(cp):
    x = cp.asarray(numpy.arange(12.0).reshape(3, 4))
    got = cp.percentile(x, cp.asarray([50.0]), axis=1, keepdims=True)
    want = numpy.percentile(numpy.arange(12.0).reshape(3, 4), [50.0], axis=1, keepdims=True)
    assert got.shape == want.shape and numpy.allclose(got.get(), want)


@pytest.mark.parametrize("name", ["nanpercentile", "nanquantile"])
def test_nan_quantiles_are_not_cupys(cp, name):
    # cupy/_statistics/order.py has percentile and quantile only: CuPy has no
    # nanpercentile or nanquantile, and its module __getattr__ raises
    # AttributeError (the fake gave NumPy's, so the code ran only here).
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(cp, name)


def test_order_statistics_need_arrays(cp):
    # A bootstrap that forgets to turn its Python list of statistics into an
    # array: CuPy's percentile and quantile begin with cupy.result_type(a, q)
    # (NumPy's TypeError for a list or a tuple, then an array attribute of
    # a number), median hands `a` to a Cython routine typed as an ndarray,
    # nanmedian, nanmean, nanvar and nanstd read `a.dtype`; NumPy's
    # functions, which the fake delegated to, took them all.
    boot = [1.0, 2.0, 3.5]
    with pytest.raises(TypeError):
        cp.percentile(boot, [2.5, 97.5])
    with pytest.raises(TypeError):
        cp.quantile(tuple(boot), 0.5)
    with pytest.raises(AttributeError, match="no attribute 'flatten'"):
        cp.percentile(3.0, 50)
    with pytest.raises(TypeError, match="Argument 'a' has incorrect type"):
        cp.median(boot)
    for func in (cp.nanmedian, cp.nanmean, cp.nanvar, cp.nanstd):
        with pytest.raises(AttributeError, match="no attribute 'dtype'"):
            func(boot)
    x = cp.asarray(boot)
    assert float(cp.percentile(x, 50)) == 2.0 and float(cp.median(x)) == 2.0
    assert float(cp.nanmean(x, 0)) == pytest.approx(6.5 / 3)
    assert cp.quantile(x, [0.25, 0.75], axis=0, keepdims=True).shape == (2, 1)


@pytest.mark.parametrize("name", ["ma", "char", "strings", "rec"])
def test_numpy_submodules_cupy_lacks(cp, name):
    # Sigma-clipping code written for NumPy keeps its rejected pixels in a
    # masked array (xp.ma.masked_array(data, mask).mean(axis=0)). CuPy has
    # no masked, string or record arrays: `cupy.ma` is AttributeError, where
    # the fake gave NumPy's module, whose functions then stopped on the
    # implicit-conversion TypeError.
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(cp, name)
