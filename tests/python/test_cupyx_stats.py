"""cupyx.scipy.stats as CuPy 13 has it.

The fake's cupyx.scipy.stats delegated every name to scipy.stats, so a
script calling `cupyx.scipy.stats.norm.pdf(x)` or `gaussian_kde(data)`
(public statistics scripts do both, expecting a GPU version) ran on the fake
and stopped on a GPU, and the five functions CuPy has took lists and gave
NumPy scalars. CuPy 13's module holds entropy, trim_mean, boxcox_llf, zmap
and zscore, computed as its sources do."""
import numpy
import pytest
import scipy.stats

import fake_cupy


@pytest.fixture
def stats(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy.stats
        yield cupyx.scipy.stats
    finally:
        fake_cupy.uninstall()


def test_only_cupys_functions(stats):
    for name in ("norm", "gaussian_kde", "ttest_ind", "spearmanr", "rankdata",
                 "describe", "binom", "multivariate_normal"):
        with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
            getattr(stats, name)
    for name in ("entropy", "trim_mean", "boxcox_llf", "zmap", "zscore"):
        assert callable(getattr(stats, name))


def test_entropy_as_cupys(stats, cp):
    counts = cp.array([3, 1, 4, 1, 5])
    s = stats.entropy(counts, base=2)
    assert isinstance(s, cp.ndarray) and s.shape == () and s.dtype == numpy.float64
    assert float(s) == pytest.approx(scipy.stats.entropy([3, 1, 4, 1, 5], base=2), rel=1e-14)
    # float16 and float32 are computed in float32.
    p16 = cp.array([0.2, 0.3, 0.5], dtype=cp.float16)
    assert stats.entropy(p16).dtype == numpy.float32
    # The Kullback-Leibler divergence along an axis.
    pk = cp.array([[1.0, 2.0], [3.0, 4.0]])
    qk = cp.array([[2.0, 2.0], [1.0, 1.0]])
    kl = stats.entropy(pk, qk, axis=1)
    numpy.testing.assert_allclose(kl.get(), scipy.stats.entropy(pk.get(), qk.get(), axis=1),
                                  rtol=1e-13)
    # CuPy normalizes a pk of the computing type in place.
    p = cp.array([1.0, 3.0])
    stats.entropy(p)
    numpy.testing.assert_array_equal(p.get(), [0.25, 0.75])
    with pytest.raises(ValueError, match="same shape"):
        stats.entropy(pk, cp.array([1.0, 1.0]))
    with pytest.raises(TypeError, match="complex"):
        stats.entropy(cp.array([1j, 1.0]))
    with pytest.raises(AttributeError):
        stats.entropy([0.5, 0.5])


def test_boxcox_llf_as_cupys(stats, cp):
    data = numpy.array([0.5, 1.2, 2.0, 3.3, 0.9, 7.1])
    for lmb in (0.0, 0.5, -1.3):
        v = stats.boxcox_llf(lmb, cp.asarray(data.astype(numpy.float32)))
        assert isinstance(v, cp.ndarray) and v.shape == () and v.dtype == numpy.float64
        assert float(v) == pytest.approx(scipy.stats.boxcox_llf(lmb, data), rel=1e-6)
    two = cp.asarray(numpy.stack([data, data[::-1] * 2], axis=1))
    numpy.testing.assert_allclose(stats.boxcox_llf(0.5, two).get(),
                                  scipy.stats.boxcox_llf(0.5, two.get()), rtol=1e-12)
    assert bool(cp.isnan(stats.boxcox_llf(1.0, cp.array([]))))
    with pytest.raises(AttributeError):
        stats.boxcox_llf(0.5, [1.0, 2.0])


# SciPy's reference warns of the constant column.
@pytest.mark.filterwarnings("ignore:Precision loss occurred")
def test_zscore_zmap_and_trim_mean_as_cupys(stats, cp):
    a = cp.array([[1.0, 2.0, 2.0], [4.0, 2.0, 7.0], [0.5, 2.0, 3.0]])
    z = stats.zscore(a)
    ref = scipy.stats.zscore(a.get())
    numpy.testing.assert_allclose(z.get(), ref, rtol=1e-13)   # column 1: NaN
    assert bool(cp.isnan(z[:, 1]).all())
    numpy.testing.assert_allclose(stats.zscore(a, axis=None, ddof=1).get(),
                                  scipy.stats.zscore(a.get(), axis=None, ddof=1), rtol=1e-13)
    numpy.testing.assert_allclose(stats.zmap(cp.array([1.0, 5.0]), a[:, 0]).get(),
                                  scipy.stats.zmap([1.0, 5.0], a[:, 0].get()), rtol=1e-13)
    with pytest.raises(ValueError, match="nan values"):
        stats.zscore(cp.array([1.0, cp.nan]), nan_policy="raise")
    assert stats.zscore(cp.array([], dtype=cp.float32)).dtype == numpy.float64
    t = stats.trim_mean(cp.arange(20), 0.1)
    assert isinstance(t, cp.ndarray) and float(t) == 9.5
    numpy.testing.assert_allclose(stats.trim_mean(a, 0.34, axis=1).get(),
                                  scipy.stats.trim_mean(a.get(), 0.34, axis=1))
    assert numpy.isnan(stats.trim_mean(cp.array([]), 0.1))
    with pytest.raises(ValueError, match="Proportion too big"):
        stats.trim_mean(cp.arange(4), 0.8)
    with pytest.raises(AttributeError):
        stats.zscore([1.0, 2.0])
