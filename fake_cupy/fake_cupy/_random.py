"""cupy.random of the fake CuPy: NumPy's legacy generator, with the dtype
arguments CuPy adds (the numbers differ from CuPy's, which seeds its own
generator differently; build reference data on the host when tests compare
values)."""
import numpy

from fake_cupy._functions import delegate
from fake_cupy._ndarray import _new_from

_DTYPED = ("rand", "randn", "random", "random_sample", "uniform", "normal",
           "standard_normal", "exponential", "standard_exponential", "gamma",
           "standard_gamma", "beta", "lognormal", "laplace", "logistic")


def _with_dtype(name):
    func = getattr(numpy.random, name)

    def call(*args, dtype=None, **kwargs):
        result = numpy.asarray(func(*args, **kwargs))
        if dtype is not None:
            result = result.astype(dtype)
        return _new_from(result)
    call.__name__ = name
    call.__doc__ = f"cupy.random.{name}: numpy.random.{name} with dtype=."
    return call


for _name in _DTYPED:
    globals()[_name] = _with_dtype(_name)


def seed(seed=None):
    numpy.random.seed(seed)


def __getattr__(name):
    value = getattr(numpy.random, name)
    if callable(value) and not isinstance(value, type):
        value = delegate(value)
    globals()[name] = value
    return value
