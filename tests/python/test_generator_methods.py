"""cupy.random.Generator has only the methods CuPy implements.

CuPy's Generator (cupy/random/_generator_api.pyx, as of CuPy 13) offers
integers, random, uniform, standard_normal, standard_exponential,
exponential, standard_gamma, gamma, beta, binomial, chisquare, dirichlet,
f, geometric, hypergeometric, logseries, poisson and power; code that needs
normal, choice, shuffle or permutation calls the module functions (a
probabilistic inference package draws `std * rng.standard_normal(size) +
mean` and `cupy.random.choice(...)` for that reason). The fake's Generator
answered every method of NumPy's, so `rng.normal(...)` ran here and stopped
with AttributeError on a GPU."""
import numpy
import pytest

CUPYS = {"integers": (0, 5), "random": (), "uniform": (), "standard_normal": (),
         "standard_exponential": (), "exponential": (), "standard_gamma": (2.0,),
         "gamma": (2.0,), "beta": (2.0, 3.0), "binomial": (5, 0.5),
         "chisquare": (3.0,), "dirichlet": ([1.0, 2.0],), "f": (3.0, 4.0),
         "geometric": (0.5,), "hypergeometric": (5, 6, 4), "logseries": (0.5,),
         "poisson": (2.0,), "power": (2.0,)}


@pytest.mark.parametrize("name", sorted(CUPYS))
def test_cupys_methods_draw_device_arrays(cp, name):
    rng = cp.random.default_rng(1)
    # CuPy's Generator takes Python numbers and cupy arrays as parameters.
    args = [cp.array(a) if isinstance(a, list) else a for a in CUPYS[name]]
    out = getattr(rng, name)(*args, size=3)
    assert isinstance(out, cp.ndarray) and out.shape[0] == 3


@pytest.mark.parametrize("name", ["normal", "choice", "shuffle", "permutation",
                                  "permuted", "lognormal", "multivariate_normal",
                                  "bytes", "spawn"])
def test_numpys_other_methods_are_absent(cp, name):
    rng = cp.random.default_rng(1)
    with pytest.raises(AttributeError, match=f"Generator' object has no attribute '{name}'"):
        getattr(rng, name)
    assert not hasattr(rng, name)


def test_the_module_functions_remain_for_what_generator_lacks(cp):
    rng = cp.random.default_rng(0)
    x = 2.0 * rng.standard_normal((4,)) + 1.0
    assert isinstance(x, cp.ndarray) and x.shape == (4,)
    idx = cp.random.choice(8, size=(3,), replace=False)
    assert len(set(idx.get().tolist())) == 3
    assert rng.bit_generator is not None
