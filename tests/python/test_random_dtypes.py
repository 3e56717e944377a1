"""The dtype= argument CuPy's RandomState adds to every distribution
(cupy/random/_generator.py): a program drawing household sizes with
cupy.random.binomial(Mc, Pc, size=N, dtype=cupy.int32) raised NumPy's
TypeError. Integer distributions give the dtype asked for; the floating
ones drawn through cuRAND's uniform or normal generators take float32 or
float64 only, as CuPy's do, and those CuPy computes in a kernel writing
into an array of the dtype asked for take any dtype."""
import numpy
import pytest

INTEGER = {"binomial": (5, 0.3), "geometric": (0.4,),
           "hypergeometric": (5, 6, 4), "logseries": (0.5,),
           "negative_binomial": (3, 0.5), "poisson": (2.0,), "zipf": (2.0,)}
FLOATING = {"gumbel": (), "pareto": (2.0,), "power": (2.0,), "rayleigh": (),
            "standard_cauchy": (), "triangular": (0.0, 0.5, 1.0),
            "wald": (1.0, 1.0), "weibull": (2.0,)}
# Continuous distributions that CuPy computes in a kernel writing into
# cupy.empty(size, dtype) (cupy/random/_kernels.py, output type Y): any
# dtype is taken and the samples are cast to it.
KERNEL_WRITTEN = {"beta": (2.0, 3.0), "chisquare": (30.0,), "f": (3.0, 4.0),
                  "standard_gamma": (20.0,), "standard_t": (3.0,),
                  "vonmises": (0.0, 1.0), "noncentral_chisquare": (30.0, 1.0),
                  "noncentral_f": (3.0, 4.0, 1.0)}


@pytest.mark.parametrize("name", sorted(INTEGER))
def test_integer_distributions_take_dtype(cp, name):
    for module in (cp.random, cp.random.RandomState(3)):
        out = getattr(module, name)(*INTEGER[name], size=7, dtype=numpy.int32)
        assert isinstance(out, cp.ndarray) and out.dtype == numpy.int32
        assert out.shape == (7,)


@pytest.mark.parametrize("name", sorted(FLOATING))
def test_floating_distributions_take_float_dtypes_only(cp, name):
    out = getattr(cp.random, name)(*FLOATING[name], size=5, dtype=numpy.float32)
    assert isinstance(out, cp.ndarray) and out.dtype == numpy.float32
    with pytest.raises(TypeError, match="float32 and float64"):
        getattr(cp.random, name)(*FLOATING[name], size=5, dtype=numpy.int32)


@pytest.mark.parametrize("name", sorted(KERNEL_WRITTEN))
def test_kernel_written_distributions_take_any_dtype(cp, name):
    out = getattr(cp.random, name)(*KERNEL_WRITTEN[name], size=5, dtype=numpy.float32)
    assert out.dtype == numpy.float32
    out = getattr(cp.random, name)(*KERNEL_WRITTEN[name], size=5, dtype=numpy.int32)
    assert isinstance(out, cp.ndarray) and out.dtype == numpy.int32 and out.shape == (5,)


def test_gamma_and_dirichlet_still_refuse_integer_dtypes(cp):
    with pytest.raises(TypeError):
        cp.random.gamma(2.0, size=3, dtype=numpy.int32)
    with pytest.raises(TypeError):
        cp.random.dirichlet([1.0, 2.0], size=3, dtype=numpy.int32)


# CuPy's multivariate_normal is experimental (a FutureWarning at each call).
@pytest.mark.filterwarnings("ignore:cupy.random")
def test_multivariate_normal_and_dirichlet_take_dtype(cp):
    out = cp.random.multivariate_normal([0.0, 1.0], [[1.0, 0.0], [0.0, 1.0]], size=4,
                                        dtype=numpy.float32)
    assert out.dtype == numpy.float32 and out.shape == (4, 2)
    out = cp.random.dirichlet([1.0, 2.0, 3.0], size=3, dtype=numpy.float32)
    assert out.dtype == numpy.float32 and out.shape == (3, 3)
    # Parameters may be CuPy arrays, as cupy.asarray takes them.
    out = cp.random.binomial(cp.array([3, 4]), 0.5, size=2, dtype=numpy.int64)
    assert out.dtype == numpy.int64 and bool((out <= cp.array([3, 4])).all())


def test_normal_still_refuses_an_integer_dtype(cp):
    with pytest.raises(TypeError, match="float32 and float64"):
        cp.random.normal(size=3, dtype=numpy.int64)
