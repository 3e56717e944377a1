"""cupyx.scipy.sparse.linalg as CuPy 13 gives it, not as SciPy's module does.

The fake's solvers were SciPy's behind the argument conversions, and public
programs met SciPy's interface where CuPy's differs:

- `cg(A, b, tol=1e-8)` (and `gmres`, `cgs`, `minres`): CuPy 13 names the
  relative tolerance `tol`, as SciPy did before 1.14; SciPy 1.17 raised
  "unexpected keyword argument 'tol'" (a finite-difference solver, a GMRES
  comparison script). CuPy's `maxiter` of `gmres` counts inner iterations,
  SciPy's counts restart cycles.
- a `LinearOperator` whose `matvec` does cupy arithmetic (a Jacobi
  preconditioner, a matrix-free operator): SciPy called it with NumPy arrays,
  and the program stopped at its first `A @ x`.
- `lsqr(A, b)`: CuPy's is a direct QR solve of a square system returning
  `(x, None, ..., None)`; SciPy's iterative LSQR stopped at its default
  tolerance 1e-6 (a solver comparison script saw 2e-5 relative error where
  CuPy gives round-off) and took rectangular systems.
- `splu(A).solve(b)` and `factorized(A)(b)` with a cupy right-hand side:
  SciPy's SuperLU refused the cupy array."""
import numpy
import pytest
import scipy.sparse
import scipy.sparse.linalg

from fake_cupy import _sparse as sparse

linalg = sparse.linalg


def _spd(n=8, seed=3):
    host = scipy.sparse.random(n, n, density=0.3, random_state=seed)
    return (host @ host.T + n * scipy.sparse.eye(n)).tocsr()


@pytest.mark.parametrize("name", ["cg", "cgs", "gmres", "minres"])
def test_iterative_solvers_take_cupy13_tol(cp, name):
    host = _spd()
    a = sparse.csr_matrix(host)
    b = cp.arange(8.0)
    solver = getattr(linalg, name)
    x, info = solver(a, b, tol=1e-12)
    assert info == 0 and isinstance(x, cp.ndarray) and x.dtype == numpy.float64
    numpy.testing.assert_allclose(x.get(), scipy.sparse.linalg.spsolve(host, numpy.arange(8.0)),
                                  rtol=1e-9)
    # CuPy 13's positional order: x0 then tol.
    x, info = solver(a, b, None, 1e-12)
    assert info == 0
    if name == "minres":
        # minres takes tol alone in CuPy 13.6 and 14.2 (the released wheels).
        with pytest.raises(TypeError, match="unexpected keyword argument 'rtol'"):
            solver(a, b, rtol=1e-12)
        return
    # CuPy 14's keyword is taken too; giving both is an error.
    x, info = solver(a, b, rtol=1e-12)
    assert info == 0
    with pytest.raises(TypeError):
        solver(a, b, tol=1e-8, rtol=1e-8)


def test_solution_follows_the_matrix_dtype(cp):
    a = sparse.csr_matrix(_spd().astype(numpy.float32))
    x, info = linalg.cg(a, cp.ones(8, dtype=cp.float64))
    assert info == 0 and x.dtype == numpy.float32


def test_gmres_maxiter_counts_inner_iterations(cp):
    # A matrix GMRES needs all 30 directions for: with restart=5 and
    # maxiter=10 CuPy runs two restart cycles (10 inner iterations) and
    # reports them, where SciPy's maxiter would allow 10 cycles.
    n = 30
    host = scipy.sparse.diags([numpy.arange(1.0, n + 1)], [0]).tocsr()
    a = sparse.csr_matrix(host)
    x, info = linalg.gmres(a, cp.ones(n), tol=1e-12, restart=5, maxiter=10)
    assert info == 10
    x, info = linalg.gmres(a, cp.ones(n), tol=1e-12, restart=5)
    assert info == 0
    numpy.testing.assert_allclose(x.get(), 1.0 / numpy.arange(1.0, n + 1), rtol=1e-9)


def test_callbacks_receive_cupy_iterates(cp):
    a = sparse.csr_matrix(_spd())
    seen = []
    linalg.cg(a, cp.ones(8), callback=lambda xk: seen.append(type(xk)))
    assert seen and all(t is cp.ndarray for t in seen)


def test_linear_operator_works_on_cupy_arrays(cp):
    host = _spd()
    a = sparse.csr_matrix(host)
    calls = []

    def matvec(x):
        assert isinstance(x, cp.ndarray)
        calls.append(x.shape)
        return a @ x

    op = linalg.LinearOperator((8, 8), matvec=matvec, dtype=cp.float64)
    b = cp.arange(8.0)
    y = op @ b
    assert isinstance(y, cp.ndarray) and y.shape == (8,)
    numpy.testing.assert_allclose(y.get(), host @ numpy.arange(8.0))
    assert (op.matvec(b.reshape(8, 1))).shape == (8, 1)
    assert (op @ cp.ones((8, 2))).shape == (8, 2)
    x, info = linalg.cg(op, b, tol=1e-12)
    assert info == 0 and isinstance(x, cp.ndarray)
    numpy.testing.assert_allclose(x.get(), scipy.sparse.linalg.spsolve(host, numpy.arange(8.0)),
                                  rtol=1e-9)
    # A Jacobi preconditioner as a LinearOperator of cupy arithmetic.
    inv_diag = 1.0 / a.diagonal()
    jacobi = linalg.LinearOperator((8, 8), matvec=lambda r: inv_diag * r)
    assert jacobi.dtype == numpy.float64
    x, info = linalg.cg(a, b, tol=1e-12, M=jacobi)
    assert info == 0
    numpy.testing.assert_allclose((a @ x).get(), numpy.arange(8.0), atol=1e-9)
    with pytest.raises(ValueError):
        op.matvec(cp.ones(7))


def test_linear_operator_algebra_and_subclasses(cp):
    a = cp.asarray(numpy.arange(9.0).reshape(3, 3))
    op = linalg.aslinearoperator(a)
    assert isinstance(op, linalg.LinearOperator)
    x = cp.asarray([1.0, 2.0, 3.0])
    for got, want in ((op.matvec(x), a.get() @ x.get()),
                      (op.rmatvec(x), a.get().T @ x.get()),
                      (op.H @ x, a.get().T @ x.get()),
                      ((2 * op + op) @ x, 3 * a.get() @ x.get()),
                      ((op * op) @ x, a.get() @ a.get() @ x.get())):
        assert isinstance(got, cp.ndarray)
        numpy.testing.assert_allclose(got.get(), want)

    class Scale(linalg.LinearOperator):
        def __init__(self, n, s):
            super().__init__(numpy.float64, (n, n))
            self.s = s

        def _matvec(self, v):
            return self.s * v

    numpy.testing.assert_allclose((Scale(3, 4.0) @ x).get(), 4 * x.get())
    assert linalg.aslinearoperator(sparse.csr_matrix(a)).shape == (3, 3)
    with pytest.raises(TypeError):
        linalg.aslinearoperator([[1.0]])


def test_matvec_returning_numpy_is_named(cp):
    op = linalg.LinearOperator((3, 3), matvec=lambda x: numpy.ones(3), dtype=numpy.float64)
    with pytest.raises(TypeError, match="matvec"):
        linalg.cg(op, cp.ones(3))


def test_lsqr_is_a_direct_square_solve(cp):
    rng = numpy.random.default_rng(0)
    host = rng.random((16, 16))
    b = rng.random(16)
    result = linalg.lsqr(cp.asarray(host), cp.asarray(b))
    assert len(result) == 10 and all(r is None for r in result[1:])
    x = result[0]
    assert isinstance(x, cp.ndarray) and x.dtype == numpy.float64
    numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(host, b), rtol=1e-9)
    x32 = linalg.lsqr(sparse.csr_matrix(cp.asarray(host, dtype=cp.float32)),
                      cp.asarray(b, dtype=cp.float32))[0]
    assert x32.dtype == numpy.float64
    with pytest.raises(numpy.linalg.LinAlgError):
        linalg.lsqr(cp.ones((4, 3)), cp.ones(4))
    with pytest.raises(ValueError):
        linalg.lsqr(cp.asarray(host), cp.ones(5))
    with pytest.raises(numpy.linalg.LinAlgError):
        linalg.lsqr(cp.asarray(host), b)


def test_splu_and_factorized_solve_cupy_right_hand_sides(cp):
    host = _spd().tocsc()
    a = sparse.csc_matrix(host)
    b = cp.arange(8.0)
    lu = linalg.splu(a)
    x = lu.solve(b)
    assert isinstance(x, cp.ndarray)
    numpy.testing.assert_allclose(x.get(), scipy.sparse.linalg.spsolve(host, numpy.arange(8.0)))
    xs = lu.solve(cp.ones((8, 2)), trans="T")
    assert xs.shape == (8, 2) and xs.flags.f_contiguous
    numpy.testing.assert_allclose(linalg.factorized(a)(b).get(), x.get())
    ilu = linalg.spilu(a)
    assert isinstance(ilu.solve(b), cp.ndarray)
    with pytest.raises(TypeError):
        lu.solve(numpy.ones(8))
    with pytest.raises(TypeError):
        linalg.splu(host)
    with pytest.raises(ValueError):
        lu.solve(b, trans="X")


def test_matvec_may_return_its_own_buffer(cp):
    # An LP solver's operator writes I + A^T A x into one preallocated
    # array and returns it at every call, as CuPy's solvers allow: each
    # result is used before the next matvec. SciPy's BiCGSTAB (SciPy's
    # function in the fake) keeps A p from one iteration past the next
    # matvec, so the fake hands SciPy copies.
    host = _spd()
    a = sparse.csr_matrix(host)
    out = cp.empty(8)

    def matvec(x):
        out[:] = a @ x
        return out

    op = linalg.LinearOperator((8, 8), matvec=matvec, dtype=cp.float64)
    plain = linalg.LinearOperator((8, 8), matvec=lambda x: a @ x, dtype=cp.float64)
    solver = linalg.bicgstab
    # Three iterations, so that a result overwritten by a later matvec
    # shows in x (a converged solve would hide it).
    x, _ = solver(op, cp.arange(8.0), rtol=1e-12, maxiter=3)
    expect, _ = solver(plain, cp.arange(8.0), rtol=1e-12, maxiter=3)
    numpy.testing.assert_array_equal(x.get(), expect.get())


def test_eigsh_and_svds_take_cupy13s_arguments(cp):
    # CuPy 13's eigsh(a, k=6, *, which='LM', v0, ncv, maxiter, tol,
    # return_eigenvectors) knows 'LM', 'LA' and 'SA' only, needs k < n and
    # returns ascending eigenvalues of the real type of a's dtype; SciPy's
    # took M, sigma, 'SM', 'BE' and k = n (a TypeError). A Schrodinger
    # script's complex64 Hamiltonian gives float32 eigenvalues.
    n = 12
    lap = scipy.sparse.diags([numpy.ones(n - 1), -2 * numpy.ones(n), numpy.ones(n - 1)],
                             [-1, 0, 1]).tocsr()
    exact = numpy.sort(numpy.linalg.eigvalsh(lap.toarray()))
    a = sparse.csr_matrix(lap)
    for which, expect in (("LM", exact[:3]), ("LA", exact[-3:]), ("SA", exact[:3])):
        w, v = linalg.eigsh(a, k=3, which=which)
        assert isinstance(w, cp.ndarray) and isinstance(v, cp.ndarray)
        numpy.testing.assert_allclose(w.get(), expect, rtol=1e-10)
        assert numpy.all(numpy.diff(w.get()) >= 0)
        numpy.testing.assert_allclose((a @ v).get(), v.get() * w.get(), atol=1e-9)
    w = linalg.eigsh(a, k=3, which="LA", return_eigenvectors=False)
    numpy.testing.assert_allclose(w.get(), exact[-3:], rtol=1e-10)
    w, v = linalg.eigsh(sparse.csr_matrix(lap.astype(numpy.complex64)), k=2)
    assert w.dtype == numpy.float32 and v.dtype == numpy.complex64
    for bad in ({"which": "SM"}, {"which": "BE"}, {"k": n}, {"k": 0}):
        with pytest.raises(ValueError):
            linalg.eigsh(a, **({"k": 3} | bad))
    with pytest.raises(TypeError):
        linalg.eigsh(a, k=3, sigma=0.5)
    with pytest.raises(TypeError):
        linalg.eigsh(a, 3, None)
    u, s, vt = linalg.svds(a, k=3)
    numpy.testing.assert_allclose(s.get(), numpy.sort(numpy.abs(exact))[-3:], rtol=1e-8)
    assert numpy.all(numpy.diff(s.get()) >= 0)
    with pytest.raises(ValueError):
        linalg.svds(a, k=3, which="SM")
    with pytest.raises(ValueError):
        linalg.svds(a, k=n)


def test_gmres_calls_back_once_per_restart_cycle(cp):
    # CuPy 13's gmres calls its callback at the start of each restart cycle
    # after the first (callback_type 'pr_norm', the default: the residual
    # norm relative to b, a 0-d cupy array) or of every cycle ('x': the
    # iterate); SciPy's 'pr_norm' calls it at every inner iteration, so an
    # iteration counter printed 5 times CuPy's count with restart=5.
    n = 30
    a = sparse.csr_matrix(scipy.sparse.diags([numpy.arange(1.0, n + 1)], [0]).tocsr())
    norms = []
    x, info = linalg.gmres(a, cp.ones(n), tol=1e-12, restart=5, callback=norms.append)
    assert info == 0
    cycles = len(norms)
    assert 1 <= cycles < 40
    assert all(isinstance(r, cp.ndarray) and r.shape == () for r in norms)
    assert float(norms[-1]) <= 1e-12
    iterates = []
    linalg.gmres(a, cp.ones(n), tol=1e-12, restart=5, callback=iterates.append,
                 callback_type="x")
    assert len(iterates) == cycles + 1 and isinstance(iterates[0], cp.ndarray)
    with pytest.raises(ValueError):
        linalg.gmres(a, cp.ones(n), callback=print, callback_type="legacy")


@pytest.mark.parametrize("name", ["cg", "cgs", "gmres", "minres"])
def test_solvers_refuse_host_matrices(cp, name):
    # CuPy's _make_system makes A and M linear operators, which a SciPy
    # matrix or a NumPy array is not (TypeError 'type not understood');
    # SciPy's solvers, behind the fake's, took them.
    host = _spd()
    solver = getattr(linalg, name)
    with pytest.raises(TypeError):
        solver(host, cp.ones(8))
    with pytest.raises(TypeError):
        solver(host.toarray(), cp.ones(8))
    with pytest.raises(TypeError):
        solver(sparse.csr_matrix(host), cp.ones(8), M=host)


@pytest.mark.parametrize("name", ["bicg", "qmr", "lgmres", "tfqmr", "eigs", "expm", "inv"])
def test_names_cupy_lacks_are_absent(name):
    # CuPy's module has cg, cgs, gmres, minres, lsqr, lsmr, eigsh, svds,
    # lobpcg, norm, spsolve, spsolve_triangular, splu, spilu, factorized,
    # SuperLU, LinearOperator, aslinearoperator and (CuPy 14) bicgstab.
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(linalg, name)


def test_norm_and_lsmr_stay_scipys_with_cupy_arrays(cp):
    host = _spd()
    a = sparse.csr_matrix(host)
    assert abs(float(linalg.norm(a)) - scipy.sparse.linalg.norm(host)) < 1e-12
    x = linalg.lsmr(a, cp.arange(8.0), atol=1e-12, btol=1e-12)[0]
    numpy.testing.assert_allclose(x.get(), scipy.sparse.linalg.spsolve(host, numpy.arange(8.0)),
                                  rtol=1e-8)
