"""cupy.random of the fake CuPy: NumPy's generators behind CuPy's API.

The module functions (cupy.random.rand, normal, ...) draw from a private
RandomState, so that cupy.random.seed() leaves NumPy's global generator
alone, as CuPy's does. RandomState, default_rng and Generator objects return
fake arrays, and the methods take the dtype argument CuPy adds to NumPy's;
a Generator has only the methods CuPy's has.
Where the fake differs: the numbers are NumPy's, not CuPy's (CuPy seeds its
own generators differently); build reference data on the host when tests
compare values.
"""
import numpy

from fake_cupy._functions import delegate
from fake_cupy._ndarray import _new_from, ndarray

# Methods to which CuPy's RandomState adds a dtype argument
# (cupy/random/_generator.py): the floating distributions take float32 or
# float64 only, the integer ones any dtype (their samples are cast to it).
_FLOAT_DTYPED = ("rand", "randn", "random", "random_sample", "uniform",
                 "normal", "standard_normal", "exponential",
                 "standard_exponential", "gamma", "standard_gamma", "beta",
                 "lognormal", "laplace", "logistic", "chisquare", "dirichlet",
                 "f", "gumbel", "multivariate_normal", "noncentral_chisquare",
                 "noncentral_f", "pareto", "power", "rayleigh",
                 "standard_cauchy", "standard_t", "triangular", "vonmises",
                 "wald", "weibull")
_INT_DTYPED = ("binomial", "geometric", "hypergeometric", "logseries",
               "negative_binomial", "poisson", "zipf")
_DTYPED = dict.fromkeys(_FLOAT_DTYPED, True) | dict.fromkeys(_INT_DTYPED, False)

# Methods to which CuPy's Generator adds a dtype argument (cupy/random/
# _generator_api.pyx); its random, standard_normal, standard_exponential,
# standard_gamma and integers take dtype= as NumPy's Generator does.
_GENERATOR_DTYPED = {"uniform": False, "beta": False}


class _Wrapped:
    """A NumPy generator whose methods return fake arrays."""

    def __init__(self, generator, dtyped):
        self._generator = generator
        self._dtyped = dtyped

    def __getattr__(self, name):
        value = getattr(self._generator, name)
        if not callable(value):
            return value
        if name in self._dtyped:
            return _with_dtype(value, self._dtyped[name])
        return delegate(value)


def _with_dtype(func, floating):
    """`func` with CuPy's dtype=; `floating`: only float32 and float64."""
    def call(*args, dtype=None, **kwargs):
        if dtype is not None and floating and \
                numpy.dtype(dtype).char not in "fd":
            raise TypeError("cupy.random only supports float32 and float64")
        args = [a._host() if isinstance(a, ndarray) else a for a in args]
        kwargs = {k: v._host() if isinstance(v, ndarray) else v
                  for k, v in kwargs.items()}
        result = numpy.asarray(func(*args, **kwargs))
        if dtype is not None:
            result = result.astype(dtype)
        return _new_from(result)
    call.__name__ = func.__name__
    call.__doc__ = f"{func.__name__} with CuPy's dtype= argument."
    return call


class RandomState(_Wrapped):
    """cupy.random.RandomState(seed=None): numpy.random.RandomState's
    methods, returning fake arrays, with dtype=."""

    def __init__(self, seed=None, method=None):
        super().__init__(numpy.random.RandomState(seed), _DTYPED)

    def seed(self, seed=None):
        self._generator.seed(seed)


# The methods of CuPy's Generator (cupy/random/_generator_api.pyx, CuPy
# 13); NumPy's others (normal, choice, shuffle, permutation, ...) are absent
# there, and code calls the module functions for them.
_GENERATOR_METHODS = frozenset((
    "integers", "random", "uniform", "standard_normal", "standard_exponential",
    "exponential", "standard_gamma", "gamma", "beta", "binomial", "chisquare",
    "dirichlet", "f", "geometric", "hypergeometric", "logseries", "poisson",
    "power", "bit_generator"))


class Generator(_Wrapped):
    """cupy.random.Generator(bit_generator): CuPy's subset of
    numpy.random.Generator's methods, returning fake arrays, with dtype=
    where CuPy adds it."""

    def __init__(self, bit_generator):
        super().__init__(numpy.random.Generator(bit_generator), _GENERATOR_DTYPED)

    def __getattr__(self, name):
        if name not in _GENERATOR_METHODS:
            raise AttributeError("'cupy.random._generator_api.Generator' object "
                                 f"has no attribute '{name}'")
        return super().__getattr__(name)


def default_rng(seed=None):
    """cupy.random.default_rng: a Generator seeded as NumPy's would be."""
    rng = Generator.__new__(Generator)
    _Wrapped.__init__(rng, numpy.random.default_rng(seed), _GENERATOR_DTYPED)
    return rng


_state = RandomState()


def get_random_state():
    """The RandomState behind the module functions."""
    return _state


def set_random_state(rs):
    global _state
    _state = rs


def seed(seed=None):
    """Reseeds the module functions' generator (not NumPy's)."""
    _state.seed(seed)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    value = getattr(numpy.random, name)
    if callable(value) and not isinstance(value, type):
        method = getattr(numpy.random.RandomState, name, None)
        if method is not None:
            # Drawn from the private state at call time, so that seed()
            # and set_random_state() take effect.
            def call(*args, _name=name, **kwargs):
                return getattr(_state, _name)(*args, **kwargs)
            call.__name__ = name
            return call
        value = delegate(value)
    globals()[name] = value
    return value


for _name in _DTYPED:
    globals()[_name] = __getattr__(_name)
