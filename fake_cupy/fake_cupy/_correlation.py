"""cupy.cov as CuPy 13 computes it (cupy/_statistics/correlation.py, the
same in every 13.x release and in 14), where NumPy 2's differs:

- `a` is read as a cupy array (`a.ndim`: a list raises AttributeError), and
  so is `y` when no dtype is given;
- fweights and aweights must be cupy arrays (TypeError "fweights must be a
  cupy.ndarray"), fweights of an integer dtype (TypeError "fweights must be
  integer", where NumPy takes integral floats); negative weights are not
  refused (NumPy raises ValueError); a 2-D weight array or one of the wrong
  length is RuntimeError, as in NumPy;
- with weights, the weighted sum and the normalization are NumPy's, but the
  observations are centred on their unweighted mean (CuPy subtracts
  `X.mean(axis=1)`, NumPy the weighted average), so a weighted covariance
  differs from NumPy's unless the weights are equal.
"""
import warnings

import numpy


def cov(a, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    """The covariance matrix of the variables in `a` (and `y`), as CuPy's."""
    import fake_cupy as cupy
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if a.ndim > 2:
        raise ValueError("Input must be <= 2-d")
    if dtype is None:
        dtypes = [a.dtype, numpy.float64]
        if y is not None:
            if y.ndim > 2:
                raise ValueError("y must be <= 2-d")
            dtypes.insert(1, y.dtype)
        dtype = numpy.result_type(*dtypes)
    x = cupy.array(a, ndmin=2, dtype=dtype)
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if x.shape[0] == 0:
        return cupy.array([]).reshape(0, 0)
    if y is not None:
        y = cupy.array(y, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        x = cupy.concatenate((x, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    f = _weights("fweights", fweights, n, integer=True)
    aw = _weights("aweights", aweights, n, integer=False)
    w = f if aw is None else aw if f is None else f * aw
    if w is None:
        fact = n - ddof
    else:
        w_sum = float(w.sum())
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float((w * aw).sum()) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=2)
        fact = 0.0
    x = x - x.mean(axis=1)[:, None]
    weighted = x if w is None else x * w
    return (x.dot(weighted.T.conj()) * (1 / numpy.float64(fact))).squeeze()


def _weights(name, weights, n, integer):
    """fweights or aweights checked as CuPy checks them, as float64."""
    import fake_cupy as cupy
    if weights is None:
        return None
    if not isinstance(weights, cupy.ndarray):
        raise TypeError(f"{name} must be a cupy.ndarray")
    if integer and weights.dtype.char not in "bBhHiIlLqQ":
        raise TypeError(f"{name} must be integer")
    weights = weights.astype(numpy.float64)
    if weights.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if weights.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    return weights
