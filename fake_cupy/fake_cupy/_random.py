"""cupy.random of the fake CuPy: CuPy's names over NumPy's generators.

The module has CuPy's public names only (cupy/random/__init__.py): the
distributions, rand, randn, randint, random_integers, random_sample (also
random, ranf and sample), choice, multinomial, shuffle, permutation, seed,
get_random_state, set_random_state, reset_states, bytes, RandomState,
default_rng, Generator and the bit generators BitGenerator, XORWOW,
MRG32k3a and Philox4x3210. NumPy's other names (get_state, PCG64,
SeedSequence, ...) raise AttributeError, as in CuPy. The functions draw
from the RandomState get_random_state() gives at call time, one per device as
in CuPy, so seed() leaves NumPy's global generator and the other devices'
states alone, as CuPy's does.
Where the fake differs: the numbers are NumPy's, not CuPy's (CuPy seeds its
own generators differently); build reference data on the host when tests
compare values.
"""
import inspect
import os

import numpy

from fake_cupy._random_generator import (  # noqa: F401
    BitGenerator, Generator, MRG32k3a, Philox4x3210, XORWOW, default_rng)
from fake_cupy._random_state import RandomState

_DISTRIBUTIONS = (
    "beta", "binomial", "chisquare", "dirichlet", "exponential", "f", "gamma",
    "geometric", "gumbel", "hypergeometric", "laplace", "logistic", "lognormal",
    "logseries", "multivariate_normal", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "normal", "pareto", "poisson",
    "power", "rayleigh", "standard_cauchy", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform",
    "vonmises", "wald", "weibull", "zipf")
# The module functions that are RandomState methods of the same name.
_STATE_FUNCTIONS = _DISTRIBUTIONS + ("rand", "randn", "randint", "random_sample",
                                     "choice", "shuffle", "permutation")

# One RandomState per device, as CuPy keeps them (cupy/random/_generator.py).
_states = {}


def _device_id():
    from fake_cupy import cuda
    return cuda.get_device_id()


def get_random_state():
    """The current device's RandomState behind the module functions (seeded
    from CUPY_SEED when that is set, as CuPy's)."""
    rs = _states.get(_device_id())
    if rs is None:
        seed = os.getenv("CUPY_SEED")
        rs = _states.setdefault(
            _device_id(), RandomState(None if seed is None else numpy.uint64(int(seed))))
    return rs


def set_random_state(rs):
    """Sets the current device's RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError("Random state must be an instance of RandomState. "
                        f"Actual: {type(rs)}")
    _states[_device_id()] = rs


def reset_states():
    _states.clear()


def seed(seed=None):
    """Reseeds the module functions' generator (not NumPy's)."""
    get_random_state().seed(seed)


def bytes(length):
    """NumPy's random bytes, drawn on the host as CuPy's are."""
    return numpy.random.bytes(length)


def random_integers(low, high=None, size=None):
    if high is None:
        high = low
        low = 1
    return randint(low, high + 1, size)  # noqa: F821 (defined below)


def multinomial(n, pvals, size=None):
    """Counts of shape size + (len(pvals),), int64, drawn as CuPy draws them:
    choice(len(pvals), p=pvals, size=n * m) (so pvals must sum to 1), then
    counted per sample."""
    from fake_cupy._ndarray import _new_from
    if size is None:
        m, size = 1, ()
    elif isinstance(size, int):
        m, size = size, (size,)
    else:
        size = tuple(size)
        m = int(numpy.prod(size))
    p = len(pvals)
    counts = numpy.zeros((m, p), dtype=numpy.int64)
    if m * p > 0:
        xs = choice(p, p=pvals, size=n * m).get().reshape(m, n)  # noqa: F821
        for row, x in zip(counts, xs):
            row += numpy.bincount(x, minlength=p)
    return _new_from(counts.reshape(size + (p,)))


def _module_function(name):
    def call(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    call.__name__ = name
    call.__doc__ = f"cupy.random.{name}: get_random_state().{name}."
    # The parameters of RandomState's own method, where it has one (the
    # others are NumPy's methods with CuPy's dtype=, see _random_state.py).
    method = vars(RandomState).get(name)
    if inspect.isfunction(method):
        method = inspect.signature(method)
        call.__signature__ = method.replace(parameters=list(method.parameters.values())[1:])
    return call


for _name in _STATE_FUNCTIONS:
    globals()[_name] = _module_function(_name)


def multivariate_normal(mean, cov, size=None, check_valid="ignore", tol=1e-08,
                        method="cholesky", dtype=float):
    """cupy.random.multivariate_normal: experimental in CuPy 13 (its own
    FutureWarning, then the RandomState method's)."""
    from fake_cupy._random_state import experimental
    experimental("cupy.random.multivariate_normal")
    return get_random_state().multivariate_normal(mean, cov, size, check_valid,
                                                  tol, method, dtype)
random = ranf = sample = globals()["random_sample"]
del _name


def __getattr__(name):
    raise AttributeError(f"module 'cupy.random' has no attribute '{name}'")
