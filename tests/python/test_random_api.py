"""cupy.random's names, refusals and results, as CuPy's source has them
(cupy/random/__init__.py, _generator.py, _sample.py, _permutations.py,
_generator_api.pyx, _bit_generator.pyx).

Public Monte Carlo programs met these: a photon-absorption simulation builds
`cupy.random.Generator(cupy.random.XORWOW(1234))` (AttributeError in the
fake, which had NumPy's bit generators instead); a local search draws one
index with `cupy.random.choice(n)`, which CuPy refuses without size= where
the fake answered; programs seed with integers past 2**32 - 1, which CuPy
takes and NumPy's legacy seeding refuses; and Generator code passes NumPy
scalars as parameters, which CuPy's Generator refuses."""
import numpy
import pytest


def test_cupys_bit_generators_seed_a_generator(cp):
    for cls in (cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210):
        gen = cp.random.Generator(cls(1234))
        x = gen.random(1000, dtype=cp.float32)
        assert isinstance(x, cp.ndarray) and x.dtype == numpy.float32
        assert 0.0 <= float(x.min()) and float(x.max()) < 1.0
        again = cp.random.Generator(cls(1234)).random(1000, dtype=cp.float32)
        assert bool((x == again).all())
    bits = cp.random.XORWOW(5, size=64).random_raw(4)
    assert bits.dtype == numpy.int32 and bits.shape == (4,)
    rng = cp.random.default_rng(cp.random.MRG32k3a(3))
    assert isinstance(rng.bit_generator, cp.random.MRG32k3a)
    assert cp.random.default_rng(rng) is rng
    assert isinstance(cp.random.default_rng(7).bit_generator, cp.random.XORWOW)


def test_numpys_other_names_are_absent(cp):
    for name in ("PCG64", "MT19937", "SeedSequence", "get_state", "set_state"):
        with pytest.raises(AttributeError, match=f"cupy.random' has no attribute '{name}'"):
            getattr(cp.random, name)
    rs = cp.random.RandomState(1)
    for name in ("random", "bytes", "get_state", "random_integers", "multinomial"):
        with pytest.raises(AttributeError, match=f"'RandomState' object has no attribute '{name}'"):
            getattr(rs, name)
    with pytest.raises(TypeError, match="needs a cupy.random bit generator"):
        cp.random.Generator(numpy.random.PCG64(1)).random(3)


def test_choice_needs_size_and_replacement_for_p(cp):
    with pytest.raises(NotImplementedError, match="without specifying size"):
        cp.random.choice(10)
    with pytest.raises(NotImplementedError):
        cp.random.choice(10, 3, replace=False, p=[0.1] * 10)
    with pytest.raises(NotImplementedError):
        cp.random.choice(cp.array(3), 2)
    with pytest.raises(ValueError, match="1-dimensional or an integer"):
        cp.random.choice(numpy.int64(5), 2)
    with pytest.raises(ValueError, match="do not sum to 1"):
        cp.random.choice(3, 2, p=[0.5, 0.2, 0.2])
    with pytest.raises(ValueError, match="larger sample than population"):
        cp.random.choice(3, 4, replace=False)
    spins = cp.random.choice([1, -1], size=(200, 50), p=[0.75, 0.25])
    assert spins.dtype == numpy.int64 and spins.shape == (200, 50)
    assert abs(float((spins == 1).mean()) - 0.75) < 0.03
    picked = cp.random.choice(cp.arange(10, 20), 10, replace=False)
    assert sorted(picked.get().tolist()) == list(range(10, 20))
    assert cp.random.choice(5, ()).shape == ()


def test_shuffle_and_permutation_take_cupy_arrays(cp):
    with pytest.raises(TypeError, match="must be cupy.ndarray"):
        cp.random.shuffle(numpy.arange(4))
    with pytest.raises(TypeError, match="ndim is 0"):
        cp.random.shuffle(cp.array(1))
    with pytest.raises(TypeError):
        cp.random.permutation([1, 2, 3])
    rows = cp.arange(12).reshape(6, 2)
    cp.random.shuffle(rows)
    assert sorted(rows[:, 0].get().tolist()) == [0, 2, 4, 6, 8, 10]
    assert bool((rows[:, 1] == rows[:, 0] + 1).all())
    perm = cp.random.permutation(8)
    assert perm.dtype == numpy.int64 and sorted(perm.get().tolist()) == list(range(8))


def test_seeds_reach_two_to_the_64(cp):
    cp.random.seed(2**40)
    a = cp.random.rand(3)
    cp.random.seed(2**40)
    assert bool((a == cp.random.rand(3)).all())
    cp.random.seed(numpy.uint64(2**64 - 1))
    cp.random.seed(numpy.arange(3))
    with pytest.raises(ValueError, match="between 0 and 2\\*\\*64 - 1"):
        cp.random.seed(-1)
    with pytest.raises(TypeError, match="Seed must be an integer"):
        cp.random.seed(1.5)
    with pytest.raises(TypeError, match="instance of RandomState"):
        cp.random.set_random_state(numpy.random.RandomState(1))


def test_scalar_draws_are_zero_dimensional_arrays(cp):
    for value in (cp.random.rand(), cp.random.randint(0, 10), cp.random.random(),
                  cp.random.default_rng(1).integers(5), cp.random.default_rng(1).random()):
        assert isinstance(value, cp.ndarray) and value.shape == ()
    assert cp.random.randint(1, 4, dtype=cp.int32).dtype == numpy.int32
    # CuPy's normal computes loc + scale * N(0, 1) without NumPy's check.
    noise = cp.random.normal(1.0, -2.0, size=20000, dtype=cp.float32)
    assert noise.dtype == numpy.float32 and abs(float(noise.std()) - 2.0) < 0.05
    assert cp.random.normal(cp.zeros((2, 3)), 1.0).shape == (2, 3)
    with pytest.raises(TypeError, match="unexpected keyword arguments foo"):
        cp.random.rand(3, foo=1)
    counts = cp.random.multinomial(10, [0.5, 0.5], size=3)
    assert counts.dtype == numpy.int64 and bool((counts.sum(axis=1) == 10).all())
    assert cp.random.multinomial(4, cp.array([0.2, 0.3, 0.5])).shape == (3,)
    with pytest.raises(ValueError, match="do not sum to 1"):
        cp.random.multinomial(10, [0.5, 0.4])


def test_generator_parameters_are_python_numbers_or_cupy_arrays(cp):
    rng = cp.random.default_rng(1)
    with pytest.raises(TypeError, match="lam is required to be a cupy.ndarray or a scalar"):
        rng.poisson(numpy.float64(3.0), 3)
    with pytest.raises(TypeError, match="alpha is required"):
        rng.dirichlet([1.0, 2.0])
    with pytest.raises(TypeError, match="p is required"):
        rng.binomial(5, 1, 3)
    with pytest.raises(TypeError, match="Unsupported dtype int64 for standard_normal"):
        rng.standard_normal(3, dtype=numpy.int64)
    with pytest.raises(NotImplementedError, match="Ziggurat"):
        rng.standard_exponential(3, method="zig")
    counts = rng.poisson(cp.array([1.0, 50.0]), size=(4000, 2))
    assert counts.dtype == numpy.int64
    assert numpy.allclose(counts.mean(axis=0).get(), [1.0, 50.0], rtol=0.05)
    assert rng.integers(2, size=(4, 4), dtype=numpy.int8).dtype == numpy.int8
    with pytest.raises(ValueError, match="high is out of bounds for int8"):
        rng.integers(300, dtype=numpy.int8)
    low = rng.uniform((0, 0), (5, 10), size=(500, 2))
    assert low.shape == (500, 2) and float(low[:, 1].max()) > 5.0


def test_curand_constants_name_randomstate_methods(cp):
    curand = cp.cuda.curand
    rs = cp.random.RandomState(seed=42, method=curand.CURAND_RNG_PSEUDO_XORWOW)
    assert rs.method == 101 and rs.rand(2).shape == (2,)
    for name in ("CURAND_RNG_PSEUDO_MRG32K3A", "CURAND_RNG_PSEUDO_PHILOX4_32_10",
                 "CURAND_RNG_PSEUDO_MT19937", "CURAND_RNG_QUASI_SOBOL32"):
        cp.random.RandomState(1, method=getattr(curand, name))
    with pytest.raises(curand.CURANDError, match="CURAND_STATUS_TYPE_ERROR") as info:
        cp.random.RandomState(1, method=7)
    assert info.value.status == 103
    assert curand.getVersion() >= 10000


def test_each_device_has_its_own_random_state(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    cp.random.seed(3)
    first = cp.random.rand(4)
    with cp.cuda.Device(1):
        other = cp.random.get_random_state()
        cp.random.seed(3)
        assert bool((cp.random.rand(4) == first).all())
    assert other is not cp.random.get_random_state()
    mine = cp.random.RandomState(5)
    with cp.cuda.Device(1):
        cp.random.set_random_state(mine)
        assert cp.random.get_random_state() is mine
    assert cp.random.get_random_state() is not mine


@pytest.mark.filterwarnings("ignore:cupy.random")
def test_multivariate_normal_is_cupys(cp):
    # MCMC proposals draw from multivariate normals. CuPy 13's takes
    # method= ('cholesky' by default, 'eigh', 'svd') and check_valid=
    # ('ignore' by default); the fake's was NumPy's: method= a TypeError,
    # a covariance that is not positive definite a RuntimeWarning and SVD
    # samples instead of CuPy's silent Cholesky, check_valid='raise' a
    # ValueError instead of LinAlgError.
    cov = cp.array([[1.0, 0.5], [0.5, 2.0]])
    with pytest.warns(FutureWarning, match="multivariate_normal is experimental"):
        x = cp.random.multivariate_normal(cp.array([1.0, -2.0]), cov, size=20000)
    assert isinstance(x, cp.ndarray) and x.shape == (20000, 2) and x.dtype == numpy.float64
    numpy.testing.assert_allclose(cp.mean(x, axis=0).get(), [1.0, -2.0], atol=0.05)
    numpy.testing.assert_allclose(cp.cov(x.T).get(), cov.get(), atol=0.08)
    for method in ("eigh", "svd"):
        y = cp.random.multivariate_normal([0.0, 0.0], cov, size=(3, 4), method=method,
                                          dtype=numpy.float32)
        assert y.shape == (3, 4, 2) and y.dtype == numpy.float32
    with pytest.raises(ValueError, match="method must be one of"):
        cp.random.multivariate_normal([0.0, 0.0], cov, method="qr")
    bad = cp.array([[1.0, 2.0], [2.0, 1.0]])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        cp.random.multivariate_normal([0.0, 0.0], bad, size=2)   # silent, invalid
    with pytest.raises(numpy.linalg.LinAlgError, match="not positive definite"):
        cp.random.multivariate_normal([0.0, 0.0], bad, check_valid="raise")
    with pytest.warns(RuntimeWarning, match="may be invalid"):
        cp.random.multivariate_normal([0.0, 0.0], bad, check_valid="warn", method="eigh")
    with pytest.raises(ValueError, match="mean and cov must have same length"):
        cp.random.multivariate_normal([0.0], cov)


def test_dirichlet_draws_a_row_per_parameter_row(cp):
    # Gibbs samplers draw every row of a transition matrix at once with
    # cp.random.dirichlet(eta + counts). CuPy's RandomState.dirichlet draws
    # standard gammas of alpha broadcast to size + alpha.shape and
    # normalizes the last axis, so a 2-D alpha works and a zero in alpha
    # gives a zero component; NumPy's, which the fake used, raised
    # "object too deep for desired array" and "alpha <= 0".
    alpha = cp.array([[1.0, 2.0, 3.0], [6.0, 2.0, 2.0]])
    one = cp.random.dirichlet(alpha)
    assert one.shape == (2, 3) and one.dtype == numpy.float64
    numpy.testing.assert_allclose(one.sum(axis=-1).get(), 1.0)
    cp.random.seed(0)
    many = cp.random.dirichlet(alpha, size=20000)
    assert many.shape == (20000, 2, 3)
    numpy.testing.assert_allclose(many.mean(axis=0).get(),
                                  (alpha / alpha.sum(axis=-1, keepdims=True)).get(), atol=0.01)
    zero = cp.random.dirichlet([1.0, 0.0, 2.0], size=(2, 2))
    assert zero.shape == (2, 2, 3) and bool((zero[..., 1] == 0).all())
    assert cp.random.dirichlet([1.0, 2.0], size=3, dtype=numpy.float32).dtype == numpy.float32
    with pytest.raises(TypeError):
        cp.random.dirichlet([1.0, 2.0], size=3, dtype=numpy.int32)
