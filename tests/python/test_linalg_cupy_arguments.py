"""cupy.linalg as CuPy 13 gives it, where NumPy 2's functions (which the
fake delegated to) differ.

Public linear-algebra scripts met these differences: a batched Kalman
filter's stacked solves, a Tikhonov L-curve's lstsq without rcond, a kernel
regression's Cholesky and triangular solves, and graphical-lasso and GMRES
codes that catch LinAlgError. The expected values follow CuPy's source
(cupy/linalg/__init__.py, _solve.py and _eigenvalue.py)."""
import warnings

import numpy
import pytest




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
    with pytest.warns(FutureWarning, match="rcond"):
        x, res, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray([1.0, 2.0, 3.0]))
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


@pytest.mark.parametrize("name", ["eig", "eigvals", "cond", "multi_dot", "outer",
                                  "trace", "cross", "matrix_norm"])
def test_names_cupy13_lacks_are_absent(cp, name):
    with pytest.raises(AttributeError, match=f"'cupy.linalg' has no attribute '{name}'"):
        getattr(cp.linalg, name)





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
