"""cupyx.scipy.stats of the fake CuPy: CuPy 13's module holds five functions
(cupyx/scipy/stats/__init__.py; "Statistical functions" in CuPy's reference):
entropy, trim_mean, boxcox_llf, zmap and zscore. SciPy's other names
(norm, gaussian_kde, ttest_ind, spearmanr, rankdata, ...) are AttributeError
here, as on a GPU, where the fake had delegated them all to scipy.stats.

The five follow CuPy's sources (_distributions.py, _morestats.py,
_stats.py, _stats_py.py) where they differ from SciPy's:

- each reads attributes of its array arguments (`pk.dtype`, `data.ndim`,
  `a.size`), so a list or a Python number is AttributeError, where SciPy
  takes array-likes; results are cupy arrays (0-d for a 1-D input), where
  SciPy gives NumPy scalars;
- entropy computes in float32 for float16 and float32 input (float64
  otherwise), refuses complex input (TypeError) and a qk of another shape
  (ValueError, where SciPy broadcasts), and normalizes a floating pk (and
  qk) in place when it is already of that type, as CuPy's `x /= x_sum` does;
- boxcox_llf computes a 1-D float16/float32 (complex64) sample in float64
  (complex128) and gives array(nan) for an empty one;
- zmap/zscore give cupy.empty(shape) (float64) for empty input and NaN
  where the compared values are constant;
- trim_mean gives the Python float nan for an empty array."""
import math
import types

import numpy


def _cupy():
    import fake_cupy
    return fake_cupy


def _normalize(x, axis):
    x_sum = x.sum(axis=axis, keepdims=True)
    if x.dtype.kind == "f":
        x /= x_sum
    else:
        x = x / x_sum
    return x


def _special(name):
    # cupyx.scipy.special's ufunc of that name (a delegate of SciPy's).
    import scipy.special
    from fake_cupy import _functions
    return _functions.delegate(getattr(scipy.special, name))


def entropy(pk, qk=None, base=None, axis=0):
    """cupyx.scipy.stats.entropy: the Shannon entropy of pk, or the
    Kullback-Leibler divergence of pk from qk, each normalized to 1."""
    cupy = _cupy()
    if pk.dtype.kind == "c" or qk is not None and qk.dtype.kind == "c":
        raise TypeError("complex dtype not supported")
    if pk.dtype.kind == "f":
        float_type = cupy.result_type(pk, cupy.float32)
    else:
        float_type = cupy.float64
    pk = _normalize(pk.astype(float_type, copy=False), axis)
    if qk is None:
        vec = _special("entr")(pk)
    else:
        if qk.shape != pk.shape:
            raise ValueError("qk and pk must have same shape.")
        qk = _normalize(qk.astype(float_type, copy=False), axis)
        vec = _special("rel_entr")(pk, qk)
    s = cupy.sum(vec, axis=axis)
    if base is not None:
        s /= math.log(base)
    return s


def _logsumexp(a, axis):
    # Also for complex a (the log of a negative number), as boxcox_llf needs.
    cupy = _cupy()
    a_max = cupy.max(a.real, axis=axis, keepdims=True)
    s = cupy.log(cupy.sum(cupy.exp(a - a_max), axis=axis))
    return s + cupy.squeeze(a_max, axis=axis)


def boxcox_llf(lmb, data):
    """cupyx.scipy.stats.boxcox_llf: the Box-Cox log-likelihood of data
    (along its first axis) for the parameter lmb."""
    cupy = _cupy()
    if data.ndim == 1 and data.dtype in (numpy.float16, numpy.float32):
        data = data.astype(cupy.float64)
    if data.ndim == 1 and data.dtype == numpy.complex64:
        data = data.astype(cupy.complex128)
    n = data.shape[0]
    if n == 0:
        return cupy.array(cupy.nan)
    logdata = cupy.log(data)
    if lmb == 0:
        logvar = cupy.log(cupy.var(logdata, axis=0))
    else:
        # The variance of data**lmb / |lmb| in log space, as CuPy and SciPy
        # compute it: log(x - mean) is complex where x < mean.
        logx = lmb * logdata - cupy.log(abs(lmb))
        logmean = _logsumexp(logx, 0) - cupy.log(len(logx))
        neg_logmean = cupy.broadcast_to(logmean - cupy.pi * 1j, logx.shape)
        logxmu = _logsumexp(cupy.stack([logx.astype(neg_logmean.dtype),
                                        neg_logmean]), 0)
        logvar = _logsumexp(2 * logxmu, 0).real - cupy.log(len(logx))
    return (lmb - 1) * cupy.sum(logdata, axis=0) - n / 2 * logvar


def _first(arr, axis):
    cupy = _cupy()
    return cupy.take_along_axis(arr, cupy.array(0, ndmin=arr.ndim), axis)


def _isconst(x):
    cupy = _cupy()
    y = x[~cupy.isnan(x)]
    if y.size == 0:
        return cupy.array([True])
    return (y[0] == y).all(keepdims=True)


_POLICIES = ("propagate", "raise", "omit")


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """cupyx.scipy.stats.zmap: scores standardized by the mean and standard
    deviation of compare; NaN where compare is constant."""
    cupy = _cupy()
    if nan_policy not in _POLICIES:
        raise ValueError("nan_policy must be one of {%s}" %
                         ", ".join("'%s'" % s for s in _POLICIES))
    a = compare
    if a.size == 0:
        return cupy.empty(a.shape)
    if nan_policy == "raise" and cupy.isnan(cupy.sum(a)):
        raise ValueError("The input contains nan values")
    if nan_policy == "omit":
        if axis is None:
            mn = cupy.nanmean(a.ravel())
            std = cupy.nanstd(a.ravel(), ddof=ddof)
            isconst = _isconst(a.ravel())
        else:
            mn = cupy.nanmean(a, axis=axis, keepdims=True)
            std = cupy.nanstd(a, axis=axis, keepdims=True, ddof=ddof)
            isconst = (_first(a, axis) == a).all(axis=axis, keepdims=True)
    else:
        mn = a.mean(axis=axis, keepdims=True)
        std = a.std(axis=axis, ddof=ddof, keepdims=True)
        if axis is None:
            isconst = (a.ravel()[0] == a).all()
        else:
            isconst = (_first(a, axis) == a).all(axis=axis, keepdims=True)
    # Constant samples get a standard deviation of 1, then NaN z-scores.
    std[isconst] = 1.0
    z = (scores - mn) / std
    z[cupy.broadcast_to(isconst, z.shape)] = cupy.nan
    return z


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """cupyx.scipy.stats.zscore: zmap(a, a, ...)."""
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


def trim_mean(a, proportiontocut, axis=0):
    """cupyx.scipy.stats.trim_mean: the mean after cutting the given
    proportion of the sorted values off each end."""
    cupy = _cupy()
    if a.size == 0:
        return cupy.nan
    if axis is None:
        a = a.ravel()
        axis = 0
    nobs = a.shape[axis]
    lowercut = int(proportiontocut * nobs)
    uppercut = nobs - lowercut
    if lowercut > uppercut:
        raise ValueError("Proportion too big.")
    atmp = cupy.sort(a, axis=axis)
    sl = [slice(None)] * atmp.ndim
    sl[axis] = slice(lowercut, uppercut)
    return cupy.mean(atmp[tuple(sl)], axis=axis)


def module(name):
    """The cupyx.scipy.stats module: CuPy 13's five functions; any other
    name is AttributeError, as in CuPy."""
    proxy = types.ModuleType(name, "Fake CuPy's cupyx.scipy.stats.")
    proxy.__file__ = None
    for func in (entropy, trim_mean, boxcox_llf, zmap, zscore):
        setattr(proxy, func.__name__, func)
    return proxy
