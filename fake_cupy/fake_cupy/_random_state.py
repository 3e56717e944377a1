"""cupy.random.RandomState: CuPy's methods over a NumPy RandomState.

CuPy's RandomState (cupy/random/_generator.py) has NumPy's distribution
methods with a dtype argument, and its own rules where they differ from
NumPy's: every draw is a cupy array (a 0-d one where NumPy gives a Python
scalar), a seed is any integer from 0 to 2**64 - 1 (NumPy's legacy seeding
stops at 2**32 - 1), choice needs size= and takes p= only with
replace=True, shuffle takes cupy arrays only, and NumPy's random,
random_integers, multinomial, bytes, get_state and set_state are absent
(the module functions random, random_integers, multinomial and bytes
remain). The numbers are NumPy's, not CuPy's.
"""
import hashlib
import os
import warnings

import numpy

from fake_cupy._ndarray import _new_from, ndarray
from fake_cupy.cuda import curand

# Methods to which CuPy's RandomState adds a dtype argument. Those that
# draw through cuRAND's uniform or normal generators check it: float32 or
# float64 only (gamma and dirichlet fail too, on their in-place float
# arithmetic). Those that write a kernel's result into cupy.empty(size,
# dtype) (cupy/random/_kernels.py: the output is any type Y) take any dtype,
# their samples cast to it. normal, standard_normal, rand, randn and
# random_sample are written out below.
_FLOAT_DTYPED = ("uniform", "exponential", "standard_exponential", "gamma",
                 "lognormal", "laplace", "logistic", "gumbel",
                 "pareto", "power", "rayleigh",
                 "standard_cauchy", "triangular", "wald", "weibull")
_ANY_DTYPED = ("beta", "chisquare", "f", "noncentral_chisquare", "noncentral_f",
               "standard_gamma", "standard_t", "vonmises", "binomial",
               "geometric", "hypergeometric", "logseries", "negative_binomial",
               "poisson", "zipf")
_DTYPED = dict.fromkeys(_FLOAT_DTYPED, True) | dict.fromkeys(_ANY_DTYPED, False)


def experimental(api_name):
    """CuPy's _util.experimental: the FutureWarning an experimental API
    gives at each call."""
    warnings.warn(f"{api_name} is experimental. The interface can change in "
                  "the future.", FutureWarning, stacklevel=3)


def _check_float_dtype(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.char not in "fd":
        raise TypeError("cupy.random only supports float32 and float64")
    return dtype


def _host(value):
    """A host copy of a cupy array; other values as they are."""
    return value.get() if isinstance(value, ndarray) else value


def _with_dtype(func, floating):
    """`func` with CuPy's dtype=; `floating`: only float32 and float64."""
    def call(*args, dtype=None, **kwargs):
        if dtype is not None and floating:
            _check_float_dtype(dtype)
        args = [_host(a) for a in args]
        kwargs = {k: _host(v) for k, v in kwargs.items()}
        result = numpy.asarray(func(*args, **kwargs))
        if dtype is not None:
            result = result.astype(dtype)
        return _new_from(result)
    call.__name__ = func.__name__
    call.__doc__ = f"{func.__name__} with CuPy's dtype= argument."
    return call


def _dtype_only(name, kwarg):
    # rand() and randn() take dtype= as their one keyword, as CuPy's do.
    dtype = kwarg.pop("dtype", float)
    if kwarg:
        raise TypeError("%s() got unexpected keyword arguments %s"
                        % (name, ", ".join(kwarg.keys())))
    return dtype


class RandomState:
    """cupy.random.RandomState(seed=None, method=CURAND_RNG_PSEUDO_DEFAULT)."""

    def __init__(self, seed=None, method=curand.CURAND_RNG_PSEUDO_DEFAULT):
        # CuPy creates a cuRAND generator of this type, which refuses others.
        if method not in curand.RNG_TYPES:
            raise curand.CURANDError(103)
        self.method = method
        self.seed(seed)

    def __getattr__(self, name):
        if name in _DTYPED:
            return _with_dtype(getattr(self._numpy, name), _DTYPED[name])
        raise AttributeError(f"'RandomState' object has no attribute '{name}'")

    def seed(self, seed=None):
        """As CuPy's: None draws a seed from os.urandom, a NumPy array is
        hashed, anything else must be an integer from 0 to 2**64 - 1."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        elif isinstance(seed, numpy.ndarray):
            seed = int(hashlib.md5(seed).hexdigest()[:16], 16)
        else:
            seed_arr = numpy.asarray(seed)
            if seed_arr.dtype.kind not in "biu":
                raise TypeError("Seed must be an integer.")
            seed = int(seed_arr)
            if seed < 0 or seed >= 2**64:
                raise ValueError("Seed must be an integer between 0 and 2**64 - 1")
        self._numpy = numpy.random.RandomState(
            seed if seed < 2**32 else numpy.random.MT19937(seed))

    def rand(self, *size, **kwarg):
        return self.random_sample(size=size, dtype=_dtype_only("rand", kwarg))

    def randn(self, *size, **kwarg):
        return self.normal(size=size, dtype=_dtype_only("randn", kwarg))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """loc + scale * N(0, 1), as CuPy computes it: a negative scale is
        taken (NumPy's normal raises ValueError for it)."""
        dtype = _check_float_dtype(dtype)
        loc, scale = _host(loc), _host(scale)
        if size is None:
            size = numpy.broadcast(loc, scale).shape
        x = self._numpy.standard_normal(size)
        return _new_from(numpy.asarray(loc + scale * x).astype(dtype))

    def standard_normal(self, size=None, dtype=float):
        return self.normal(size=size, dtype=dtype)

    def random_sample(self, size=None, dtype=float):
        dtype = _check_float_dtype(dtype)
        return _new_from(numpy.asarray(self._numpy.random_sample(size)).astype(dtype))

    def randint(self, low, high=None, size=None, dtype=int):
        low, high = _host(low), _host(high)
        return _new_from(numpy.asarray(self._numpy.randint(low, high, size, dtype)))

    def dirichlet(self, alpha, size=None, dtype=float):
        """CuPy's: standard gamma draws of `alpha` broadcast to size +
        alpha.shape, normalized along the last axis, so an N-d alpha gives a
        Dirichlet draw per row (NumPy's takes one vector, "object too
        deep"), and a zero in alpha gives a zero component (NumPy's
        RandomState raises "alpha <= 0"). An integer dtype fails on the
        in-place division, as CuPy's `y /= y.sum(...)`."""
        import fake_cupy as cupy
        alpha = cupy.asarray(alpha)
        if size is None:
            size = alpha.shape
        elif isinstance(size, (int, numpy.integer)):
            size = (size,) + alpha.shape
        else:
            size = tuple(size) + alpha.shape
        y = cupy.empty(size, dtype=dtype)
        y[...] = _new_from(self._numpy.standard_gamma(
            numpy.broadcast_to(alpha.get(), size)).astype(y.dtype))
        y /= y.sum(axis=-1, keepdims=True)
        return y

    def multivariate_normal(self, mean, cov, size=None, check_valid="ignore",
                            tol=1e-08, method="cholesky", dtype=float):
        """CuPy 13's: experimental (FutureWarning); the factor of cov by
        Cholesky (the default; CuPy's cuSOLVER call fails silently on a
        matrix that is not positive definite, giving invalid samples), eigh
        or svd; check_valid 'ignore' by default, 'warn' falls back from
        Cholesky to `method` with a RuntimeWarning, 'raise' is LinAlgError.
        NumPy's defaults differ: SVD and a warning."""
        import fake_cupy as cupy
        from fake_cupy import _cupyx
        experimental("cupy.random.RandomState.multivariate_normal")
        mean = cupy.asarray(mean, dtype=dtype)
        cov = cupy.asarray(cov, dtype=dtype)
        if size is None:
            shape = []
        elif isinstance(size, (int, numpy.integer)):
            shape = [size]
        else:
            shape = size
        if len(mean.shape) != 1:
            raise ValueError("mean must be 1 dimensional")
        if len(cov.shape) != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        final_shape = list(shape[:]) + [mean.shape[0]]
        if method not in {"eigh", "svd", "cholesky"}:
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        if check_valid not in ("ignore", "warn", "raise"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        LinAlgError = numpy.linalg.LinAlgError
        if check_valid == "warn":
            with _cupyx.errstate(linalg="raise"):
                try:
                    decomp = cupy.linalg.cholesky(cov)
                except LinAlgError:
                    with _cupyx.errstate(linalg="ignore"):
                        if method == "cholesky":
                            warnings.warn("covariance is not positive-semidefinite, "
                                          "output *is* invalid.", RuntimeWarning)
                            decomp = cupy.linalg.cholesky(cov)
                        else:
                            if method == "eigh":
                                s, u = cupy.linalg.eigh(cov)
                                psd = not cupy.any(s < -tol)
                            else:
                                u, s, vh = cupy.linalg.svd(cov)
                                psd = cupy.allclose(cupy.dot(vh.T * s, vh), cov,
                                                    rtol=tol, atol=tol)
                            decomp = u * cupy.sqrt(cupy.abs(s))
                            if not psd:
                                warnings.warn("covariance is not positive-semidefinite, "
                                              "output may be invalid.", RuntimeWarning)
        else:
            with _cupyx.errstate(linalg=check_valid):
                try:
                    if method == "cholesky":
                        decomp = cupy.linalg.cholesky(cov)
                    elif method == "eigh":
                        s, u = cupy.linalg.eigh(cov)
                        decomp = u * cupy.sqrt(cupy.abs(s))
                    else:
                        u, s, vh = cupy.linalg.svd(cov)
                        decomp = u * cupy.sqrt(cupy.abs(s))
                except LinAlgError:
                    raise LinAlgError("Matrix is not positive definite; if matrix is "
                                      "positive-semidefinite, set'check_valid' to "
                                      "'warn'") from None
        x = self.standard_normal(final_shape, dtype=dtype).reshape(-1, mean.shape[0])
        x = cupy.dot(decomp, x.T).T
        x += mean
        x.shape = tuple(final_shape)
        return x

    def tomaxint(self, size=None):
        """Integers from 0 to numpy.iinfo(numpy.int_).max."""
        return _new_from(numpy.asarray(self._numpy.randint(
            0, numpy.iinfo(numpy.int_).max, size, numpy.int_)))

    def choice(self, a, size=None, replace=True, p=None):
        """CuPy's choice: its argument checks, in its order."""
        from fake_cupy import arange, array
        if a is None:
            raise ValueError("a must be 1-dimensional or an integer")
        if isinstance(a, ndarray) and a.ndim == 0:
            raise NotImplementedError
        if isinstance(a, int):
            a_size = a
            if a_size < 0:
                raise ValueError("a must be greater than or equal to 0")
        else:
            a = array(a, copy=False)
            if a.ndim != 1:
                raise ValueError("a must be 1-dimensional or an integer")
            a_size = len(a)
        if p is not None:
            p = array(p).get()
            if p.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if len(p) != a_size:
                raise ValueError("a and p must have same size")
            if not (p >= 0).all():
                raise ValueError("probabilities are not non-negative")
            if not numpy.allclose(p.sum(), 1):
                raise ValueError("probabilities do not sum to 1")
        if size is None:
            raise NotImplementedError(
                "choice() without specifying size is not supported yet")
        shape = size
        size = numpy.prod(shape)
        if a_size == 0 and size > 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        if not replace and p is None:
            if a_size < size:
                raise ValueError("Cannot take a larger sample than population "
                                 "when 'replace=False'")
            indices = arange(a, dtype="l") if isinstance(a, int) else a.copy()
            self.shuffle(indices)
            return indices[:size].reshape(shape)
        if not replace:
            raise NotImplementedError
        if p is not None:
            # CuPy accepts a sum within numpy.allclose of 1 and samples in
            # proportion to p; NumPy's choice wants a closer sum.
            index = self._numpy.choice(a_size, size=shape, p=p / p.sum())
        else:
            index = self._numpy.randint(0, max(a_size, 1), size=shape)
        index = _new_from(numpy.asarray(index).astype(numpy.int64))
        if isinstance(a, int):
            return index
        if index.ndim == 0:
            return array(a[index], dtype=a.dtype)
        return a[index]

    def shuffle(self, a):
        if not isinstance(a, ndarray):
            raise TypeError("The array must be cupy.ndarray")
        if a.ndim == 0:
            raise TypeError("An array whose ndim is 0 is not supported")
        a[:] = a[self._permutation(len(a))]

    def permutation(self, a):
        if isinstance(a, int):
            return self._permutation(a)
        return a[self._permutation(len(a))]

    def _permutation(self, num):
        return _new_from(self._numpy.permutation(num).astype(numpy.int64))
