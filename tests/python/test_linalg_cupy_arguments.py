"""cupy.linalg and cupyx.scipy.linalg as CuPy 13 gives them, where NumPy 2's
and SciPy 1.17's functions (which the fake delegated to) differ.

Public linear-algebra scripts met these differences: a batched Kalman
filter's stacked solves, a Tikhonov L-curve's lstsq without rcond, a kernel
regression's Cholesky and triangular solves, and graphical-lasso and GMRES
codes that catch LinAlgError. The expected values follow CuPy's source
(cupy/linalg/_solve.py, cupyx/scipy/linalg/__init__.py, _solve_triangular.py,
_decomp_lu.py and _special_matrices.py)."""
import warnings

import numpy
import pytest

import fake_cupy


@pytest.fixture
def sl(cp):
    """The fake's cupyx.scipy.linalg."""
    fake_cupy.install()
    try:
        import cupyx.scipy.linalg
        yield cupyx.scipy.linalg
    finally:
        fake_cupy.uninstall()


def _spd_stack(n_mats, n, seed=0):
    rng = numpy.random.default_rng(seed)
    m = rng.standard_normal((n_mats, n, n))
    return m @ m.transpose(0, 2, 1) + n * numpy.eye(n)


def test_solve_takes_stacked_vectors_without_broadcasting(cp):
    a = _spd_stack(3, 3)
    b = numpy.arange(9.0).reshape(3, 3)
    x = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
    # (3, 3) under (3, 3, 3) is three vectors, not one matrix (NumPy 2).
    numpy.testing.assert_allclose(numpy.einsum("nij,nj->ni", a, x.get()), b, atol=1e-12)
    x = cp.linalg.solve(cp.asarray(a), cp.asarray(b[:, :, None]))
    assert x.shape == (3, 3, 1)
    with pytest.raises(ValueError, match=r"b must have \(..., M\) or \(..., M, K\)"):
        cp.linalg.solve(cp.asarray(a[0]), cp.asarray(b[:, :, None]))
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        cp.linalg.solve(cp.ones((3, 2)), cp.ones(3))


def test_lstsq_default_rcond_warns_and_cuts_at_epsilon(cp):
    a = numpy.array([[1.0, 0.0], [0.0, 5e-16], [0.0, 0.0]])
    with pytest.warns(FutureWarning, match="rcond") as record:
        x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray([1.0, 2.0, 3.0]))
    assert record[0].filename == __file__
    # Machine epsilon (2.2e-16) keeps the singular value 5e-16 (rank 2),
    # where NumPy 2's default (epsilon times 3) drops it.
    assert int(rank) == 2 and isinstance(rank, cp.ndarray) and rank.dtype == numpy.int32
    assert res.shape == (1,) and s.dtype == numpy.float64
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray([1.0, 2.0, 3.0]),
                                          rcond=None)
    assert int(rank) == 1 and res.shape == (0,)
    with pytest.raises(numpy.linalg.LinAlgError, match="3-dimensional array given"):
        cp.linalg.lstsq(cp.ones((2, 2, 2)), cp.ones(2), rcond=None)
    with pytest.raises(numpy.linalg.LinAlgError, match="Incompatible dimensions"):
        cp.linalg.lstsq(cp.ones((3, 2)), cp.ones(2), rcond=None)


def test_pinv_and_svd_take_cupys_arguments(cp):
    a = numpy.diag([1.0, 1e-7, 0.0]).astype(numpy.float32)
    # CuPy's cutoff 1e-15 keeps 1e-7, NumPy 2's (3 * float32 epsilon) drops it.
    numpy.testing.assert_allclose(cp.linalg.pinv(cp.asarray(a)).get(),
                                  numpy.diag([1.0, 1e7, 0.0]), rtol=1e-6)
    numpy.testing.assert_allclose(cp.linalg.pinv(cp.asarray(a), rcond=1e-3).get(),
                                  numpy.diag([1.0, 0.0, 0.0]))
    with pytest.raises(TypeError):
        cp.linalg.pinv(cp.asarray(a), hermitian=True)
    with pytest.raises(TypeError):
        cp.linalg.svd(cp.asarray(a), hermitian=True)
    u, s, vh = cp.linalg.svd(cp.asarray(a))
    assert type(cp.linalg.svd(cp.asarray(a))) is tuple and s.dtype == numpy.float32


@pytest.mark.parametrize("name", ["multi_dot", "outer", "svdvals"])
def test_names_no_cupy_has_are_absent(cp, name):
    with pytest.raises(AttributeError, match=f"'cupy.linalg' has no attribute '{name}'"):
        getattr(cp.linalg, name)


def test_cupyx_scipy_linalg_holds_cupys_functions_only(cp, sl):
    for name in ("cho_factor", "cho_solve", "solve", "inv", "eigh", "cholesky"):
        with pytest.raises(AttributeError, match="'cupyx.scipy.linalg' has no attribute"):
            getattr(sl, name)
    m = cp.arange(1.0, 10.0).reshape(3, 3)
    with pytest.warns(DeprecationWarning):
        numpy.testing.assert_array_equal(sl.tril(m).get(), numpy.tril(m.get()))
    with pytest.warns(DeprecationWarning):
        numpy.testing.assert_array_equal(sl.triu(m, 1).get(), numpy.triu(m.get(), 1))
    with pytest.warns(DeprecationWarning):
        assert sl.tri(2).dtype == numpy.bool_
    numpy.testing.assert_array_equal(sl.kron(m, cp.eye(2)).get(), numpy.kron(m.get(), numpy.eye(2)))
    # A 2-D first column is raveled, as CuPy's toeplitz does.
    assert sl.toeplitz(cp.arange(4.0).reshape(2, 2)).shape == (4, 4)
    assert sl.block_diag(m, cp.eye(2)).shape == (5, 5)


def test_solve_triangular_computes_in_as_precision(cp, sl):
    low = numpy.tril(numpy.arange(1.0, 10.0).reshape(3, 3)) + numpy.eye(3)
    b = numpy.array([1.0, 2.0, 3.0])
    x = sl.solve_triangular(cp.asarray(low, dtype=cp.float32), cp.asarray(b), lower=True)
    assert x.dtype == numpy.float32
    numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(low, b), rtol=1e-6, atol=1e-6)
    x = sl.solve_triangular(cp.asarray(low), cp.asarray(b), lower=True, trans=1)
    numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(low.T, b), atol=1e-12)
    # check_finite is False: NaN goes through.
    assert cp.isnan(sl.solve_triangular(cp.asarray(low), cp.asarray([numpy.nan, 1.0, 1.0]),
                                        lower=True)).all()
    stack = numpy.stack([low, 2 * low])
    x = sl.solve_triangular(cp.asarray(stack), cp.asarray(numpy.stack([b, b])), lower=True)
    numpy.testing.assert_allclose(x.get()[1], numpy.linalg.solve(2 * low, b), atol=1e-12)
    with pytest.raises(ValueError, match="incompatible batch count"):
        sl.solve_triangular(cp.asarray(stack), cp.ones((3, 3)), lower=True)


def test_lu_factor_divides_by_a_zero_pivot(cp, sl):
    with pytest.warns(RuntimeWarning, match="Diagonal number 1 is exactly zero") as record:
        lu, piv = sl.lu_factor(cp.asarray([[0, 1], [0, 0]], dtype=cp.float32))
    # The warning names the caller's line, as CuPy's stacklevel=2 does.
    assert record[0].filename == __file__
    # CuPy's documented result.
    numpy.testing.assert_array_equal(lu.get(), [[0, 1], [numpy.nan, numpy.nan]])
    assert piv.dtype == numpy.int32 and piv.tolist() == [0, 1]
    with pytest.raises(ValueError, match="returns an array containing NaN"):
        sl.lu_solve((lu, piv), cp.ones(2, dtype=cp.float32))
    with pytest.raises(NotImplementedError, match="Only float32, float64"):
        sl.lu_factor(cp.eye(2, dtype=cp.int64))
    a = numpy.array([[2.0, 1.0, 1.0], [4.0, 3.0, 3.0], [8.0, 7.0, 9.0]])
    lu, piv = sl.lu_factor(cp.asarray(a, dtype=cp.float32))
    x = sl.lu_solve((lu, piv), cp.asarray([1.0, 2.0, 3.0]))
    assert x.dtype == numpy.float32
    numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(a, [1.0, 2.0, 3.0]), rtol=1e-5)
    p, low, up = sl.lu(cp.asarray(a))
    numpy.testing.assert_allclose((p @ low @ up).get(), a)


def test_eigh_takes_float16_and_refuses_with_cupys_errors(cp):
    a = cp.asarray([[2.0, 1.0], [1.0, 2.0]], dtype=cp.float16)
    w, v = cp.linalg.eigh(a)
    assert w.dtype == v.dtype == numpy.float16
    numpy.testing.assert_allclose(w.get(), [1.0, 3.0], rtol=1e-3)
    assert cp.linalg.eigvalsh(a).dtype == numpy.float16
    with pytest.raises(ValueError, match="Last 2 dimensions of the array must be square"):
        cp.linalg.eigh(cp.ones((2, 3)))
    with pytest.raises(ValueError, match="at least two-dimensional"):
        cp.linalg.eigh(cp.ones(3))
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        cp.linalg.eigvalsh(cp.ones((2, 3)))
    w, v = cp.linalg.eigh(cp.asarray(_spd_stack(4, 3)))
    assert w.shape == (4, 3) and v.shape == (4, 3, 3) and type(cp.linalg.eigh(a)) is tuple


def test_host_operands_raise_cupys_errors(cp, sl):
    host = numpy.eye(2)
    for call in (lambda: cp.linalg.solve(host, cp.ones(2)), lambda: cp.linalg.inv(host),
                 lambda: cp.linalg.lstsq(cp.eye(2), host, rcond=None),
                 lambda: cp.linalg.pinv(host), lambda: cp.linalg.qr(host),
                 lambda: cp.linalg.cholesky(host),
                 lambda: sl.solve_triangular(host, cp.ones(2))):
        with pytest.raises(numpy.linalg.LinAlgError, match="only supports cupy.ndarray"):
            call()
    # CuPy's lu_factor copies host data to the device.
    lu, piv = sl.lu_factor(numpy.array([[4.0, 3.0], [6.0, 3.0]]))
    assert isinstance(lu, cp.ndarray) and piv.tolist() == [1, 1]
    with pytest.raises(TypeError):
        cp.linalg.matrix_rank(cp.eye(2), hermitian=True)
