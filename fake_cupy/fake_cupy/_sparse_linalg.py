"""cupyx.scipy.sparse.linalg of the fake CuPy: the functions whose interface
CuPy 13 gives differently from SciPy's, the rest being SciPy's functions
behind _sparse.py's conversions.

- cg, cgs, gmres and minres take CuPy 13's `tol` (SciPy 1.14 renamed it
  `rtol` and 1.17 refuses `tol`), in CuPy's positional order; `rtol`, CuPy
  14's name, is taken as a keyword by cg, cgs and gmres (CuPy 14.2's minres
  has tol alone). b is solved in A's dtype and callbacks
  get cupy iterates. gmres is CuPy's algorithm on the fake's arrays (its
  iteration counting and callbacks are not SciPy's).
- LinearOperator works on cupy arrays: matvec, rmatvec and matmat take and
  give them, and a solver hands SciPy an operator that copies each vector
  to the device and back.
- lsqr is CuPy's direct QR solve of a square system, returning (x, None,
  ..., None) with x in float64.
- splu, spilu and factorized factor on the host, as CuPy's do, and their
  SuperLU solves cupy right-hand sides.
- eigsh and svds take CuPy 13's arguments (eigsh: which 'LM', 'LA' or
  'SA', no M or sigma) and give ascending values in a's real dtype.
- spsolve keeps CuPy's shapes and dtype."""

import numpy
import scipy.sparse
import scipy.sparse.linalg

from fake_cupy import _sparse
from fake_cupy._ndarray import ndarray, _new_from, _run_numpy


def _device(value, what):
    """A result of user code that CuPy's solvers compute with: it must be a
    cupy array, as arithmetic with it would fail on a GPU otherwise."""
    if not isinstance(value, ndarray):
        raise TypeError(f"{what} returned {type(value).__module__}."
                        f"{type(value).__name__}, not a cupy.ndarray")
    return value


# ---- LinearOperator ----------------------------------------------------

class LinearOperator:
    """cupyx.scipy.sparse.linalg.LinearOperator: `LinearOperator(shape,
    matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None)`, or a
    subclass that calls `__init__(dtype, shape)` and defines `_matvec` or
    `_matmat` (and `_rmatvec`); all of them take and give cupy arrays."""

    ndim = 2

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        return super().__new__(cls)

    def __init__(self, dtype, shape):
        shape = tuple(shape)
        if len(shape) != 2 or not all(
                isinstance(n, (int, numpy.integer)) and n >= 0 for n in shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = None if dtype is None else numpy.dtype(dtype)
        self.shape = (int(shape[0]), int(shape[1]))

    def _init_dtype(self):
        """As CuPy's: the dtype of matvec's result for a zero vector."""
        if self.dtype is None:
            from fake_cupy import zeros
            self.dtype = _device(self.matvec(zeros(self.shape[-1])),
                                 "LinearOperator.matvec").dtype

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _matmat(self, X):
        from fake_cupy import hstack
        return hstack([self.matvec(col.reshape(-1, 1)) for col in X.T])

    def _rmatvec(self, x):
        raise NotImplementedError("rmatvec is not defined")

    def _rmatmat(self, X):
        from fake_cupy import hstack
        return hstack([self.rmatvec(col.reshape(-1, 1)) for col in X.T])

    def _apply(self, x, rows, cols, method, name):
        if x.shape != (cols,) and x.shape != (cols, 1):
            raise ValueError("dimension mismatch")
        y = _device(method(x), f"LinearOperator.{name}")
        return y.reshape(rows) if x.ndim == 1 else y.reshape(rows, 1)

    def matvec(self, x):
        return self._apply(x, self.shape[0], self.shape[1], self._matvec,
                           "matvec")

    def rmatvec(self, x):
        return self._apply(x, self.shape[1], self.shape[0], self._rmatvec,
                           "rmatvec")

    def matmat(self, X):
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return _device(self._matmat(X), "LinearOperator.matmat")

    def rmatmat(self, X):
        if X.ndim != 2 or X.shape[0] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return _device(self._rmatmat(X), "LinearOperator.rmatmat")

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        if not isinstance(x, ndarray):
            raise TypeError(f"expected a cupy array, got {type(x)}")
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array, got {x.shape}")

    __call__ = __mul__ = __matmul__ = dot

    def __rmul__(self, x):
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        return NotImplemented

    def __add__(self, other):
        if isinstance(other, LinearOperator):
            return _SumLinearOperator(self, other)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, other):
        return self.__add__(-other)

    def adjoint(self):
        return _CustomLinearOperator(
            (self.shape[1], self.shape[0]), matvec=self.rmatvec,
            rmatvec=self.matvec, dtype=self.dtype)

    def transpose(self):
        return _CustomLinearOperator(
            (self.shape[1], self.shape[0]),
            matvec=lambda x: self.rmatvec(x.conj()).conj(),
            rmatvec=lambda x: self.matvec(x.conj()).conj(), dtype=self.dtype)

    H = property(adjoint)
    T = property(transpose)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"

    def _scipy_operator(self):
        """SciPy's operator over this one, for SciPy's solvers: each vector
        SciPy passes is copied to the device, and the result back (a copy:
        a matvec may return the same buffer at every call)."""
        self._init_dtype()

        def host(method):
            return lambda x: method(_new_from(x))._host().copy()
        return scipy.sparse.linalg.LinearOperator(
            self.shape, matvec=host(self.matvec), rmatvec=host(self.rmatvec),
            matmat=host(self.matmat), rmatmat=host(self.rmatmat),
            dtype=self.dtype)


class _CustomLinearOperator(LinearOperator):
    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None,
                 rmatmat=None):
        super().__init__(dtype, shape)
        self._matvec_impl, self._rmatvec_impl = matvec, rmatvec
        self._matmat_impl, self._rmatmat_impl = matmat, rmatmat
        self._init_dtype()

    def _matvec(self, x):
        return self._matvec_impl(x)

    def _matmat(self, X):
        if self._matmat_impl is not None:
            return self._matmat_impl(X)
        return super()._matmat(X)

    def _rmatvec(self, x):
        if self._rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self._rmatvec_impl(x)

    def _rmatmat(self, X):
        if self._rmatmat_impl is not None:
            return self._rmatmat_impl(X)
        return super()._rmatmat(X)


def _result_type(*items):
    return numpy.result_type(*[i.dtype if hasattr(i, "dtype") else
                               numpy.asarray(i).dtype for i in items])


class _SumLinearOperator(_CustomLinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        super().__init__(A.shape, lambda x: A.matvec(x) + B.matvec(x),
                         lambda x: A.rmatvec(x) + B.rmatvec(x),
                         dtype=_result_type(A, B))


class _ProductLinearOperator(_CustomLinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__((A.shape[0], B.shape[1]),
                         lambda x: A.matvec(B.matvec(x)),
                         lambda x: B.rmatvec(A.rmatvec(x)),
                         dtype=_result_type(A, B))


class _ScaledLinearOperator(_CustomLinearOperator):
    def __init__(self, A, alpha):
        super().__init__(A.shape, lambda x: alpha * A.matvec(x),
                         lambda x: numpy.conj(alpha) * A.rmatvec(x),
                         dtype=_result_type(A, alpha))


class MatrixLinearOperator(_CustomLinearOperator):
    """The operator of a cupy array or a sparse matrix of the fake."""

    def __init__(self, A):
        self.A = A
        super().__init__(A.shape, lambda x: A @ x, lambda x: A.T.conj() @ x,
                         matmat=lambda X: A @ X, dtype=A.dtype)


class IdentityOperator(_CustomLinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(shape, lambda x: x, lambda x: x, dtype=dtype)


def aslinearoperator(A):
    """As CuPy's: a LinearOperator as it is, a cupy array or a sparse matrix
    as a MatrixLinearOperator, an object with shape and matvec as an
    operator over them; anything else is TypeError."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, ndarray) or _sparse.issparse(A):
        if A.ndim != 2:
            raise ValueError("array must have ndim == 2")
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return _CustomLinearOperator(
            A.shape, A.matvec, getattr(A, "rmatvec", None),
            getattr(A, "matmat", None), getattr(A, "dtype", None))
    raise TypeError("type not understood")


# ---- iterative solvers ---------------------------------------------------

def _system(A, b, x0, M=None):
    """CuPy's _make_system checks: A (and M) a cupy array, a sparse matrix
    of the fake or a LinearOperator (aslinearoperator's TypeError for a
    SciPy matrix or a NumPy array, which SciPy's solvers would take), A
    square of float or complex dtype, b and x0 of shape (n,) or (n, 1), b
    solved in A's dtype."""
    dtype = aslinearoperator(A).dtype
    if M is not None:
        aslinearoperator(M)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix (shape: {A.shape})")
    if numpy.dtype(dtype).char not in "fdFD":
        raise TypeError(f"unsupprted dtype (actual: {dtype})")
    n = A.shape[0]
    for name, v in (("b", b), ("x0", x0)):
        if v is not None and isinstance(v, ndarray) and \
                v.shape not in ((n,), (n, 1)):
            raise ValueError(f"{name} has incompatible dimensions")
    if isinstance(b, ndarray):
        b = b.astype(dtype).ravel()
    if isinstance(x0, ndarray):
        x0 = x0.astype(dtype).ravel()
    return b, x0, numpy.dtype(dtype)


def _tolerance(tol, rtol):
    if rtol is not None:
        if tol is not None:
            raise TypeError("give tol (CuPy 13) or rtol (CuPy 14), not both")
        return rtol
    return 1e-5 if tol is None else tol


def _device_callback(callback):
    """SciPy calls back with NumPy iterates; CuPy's callbacks get cupy ones
    (a residual norm stays a number)."""
    if callback is None:
        return None

    def call(arg):
        if isinstance(arg, numpy.ndarray):
            arg = _new_from(arg)
        return callback(arg)
    return call


def _solve(name, A, b, x0, dtype, **kwargs):
    x, info = _sparse._host_call(getattr(scipy.sparse.linalg, name), A, b,
                                 x0=x0, **kwargs)
    return x.astype(dtype, copy=False), int(info)


def cg(A, b, x0=None, tol=None, maxiter=None, M=None, callback=None,
       atol=None, *, rtol=None):
    """cupyx.scipy.sparse.linalg.cg (CuPy 13's arguments)."""
    b, x0, dtype = _system(A, b, x0, M)
    return _solve("cg", A, b, x0, dtype, rtol=_tolerance(tol, rtol),
                  atol=atol or 0.0, maxiter=maxiter, M=M,
                  callback=_device_callback(callback))


def cgs(A, b, x0=None, tol=None, maxiter=None, M=None, callback=None,
        atol=None, *, rtol=None):
    """cupyx.scipy.sparse.linalg.cgs (CuPy 13's arguments; its default
    maxiter is 5 n)."""
    b, x0, dtype = _system(A, b, x0, M)
    return _solve("cgs", A, b, x0, dtype, rtol=_tolerance(tol, rtol),
                  atol=atol or 0.0, maxiter=5 * A.shape[0] if maxiter is None else maxiter,
                  M=M,
                  callback=_device_callback(callback))


def minres(A, b, x0=None, shift=0.0, tol=None, maxiter=None, M=None,
           callback=None, check=False):
    """cupyx.scipy.sparse.linalg.minres (CuPy 13's arguments, which CuPy
    14.2 keeps: no rtol)."""
    b, x0, dtype = _system(A, b, x0, M)
    return _solve("minres", A, b, x0, dtype, shift=shift,
                  rtol=_tolerance(tol, None), maxiter=maxiter, M=M,
                  callback=_device_callback(callback), check=check)


def gmres(A, b, x0=None, tol=None, restart=None, maxiter=None, M=None,
          callback=None, atol=None, callback_type=None, *, rtol=None):
    """cupyx.scipy.sparse.linalg.gmres: CuPy 13's restarted GMRES, run here
    on the fake's arrays rather than SciPy's, whose iteration counting and
    callbacks differ. Each cycle makes `restart` (default 20, at most n)
    Arnoldi steps with one classical Gram-Schmidt pass, M applied on the
    right, and solves the small least-squares problem on the host; maxiter
    (default 10 n) counts those steps and is checked between cycles, and
    info is the step count only when the last cycle ends exactly at maxiter.
    The callback runs between cycles: 'pr_norm' (default) gets the residual
    norm relative to b as a 0-d array from the second cycle on, 'x' the
    iterate from the first."""
    import fake_cupy
    b, x0, dtype = _system(A, b, x0)
    A = aslinearoperator(A)
    M = IdentityOperator(A.shape, dtype) if M is None else aslinearoperator(M)
    if M.shape != A.shape:
        raise ValueError("matrix and preconditioner have different shapes")
    n = A.shape[0]
    if n == 0:
        return fake_cupy.empty_like(b), 0
    b_norm = fake_cupy.linalg.norm(b)
    if b_norm == 0:
        return b, 0
    tol = _tolerance(tol, rtol)
    atol = tol * float(b_norm) if atol is None else \
        max(float(atol), tol * float(b_norm))
    maxiter = 10 * n if maxiter is None else maxiter
    restart = min(20 if restart is None else restart, n)
    callback_type = callback_type or "pr_norm"
    if callback_type not in ("x", "pr_norm"):
        raise ValueError(f"Unknown callback_type: {callback_type}")
    if callback is None:
        callback_type = None
    x = fake_cupy.zeros(n, dtype) if x0 is None else x0
    V = fake_cupy.empty((n, restart), dtype=dtype, order="F")
    H = fake_cupy.zeros((restart + 1, restart), dtype=dtype, order="F")
    e = numpy.zeros(restart + 1, dtype=dtype)
    iters = 0
    while True:
        mx = M.matvec(x)
        r = b - A.matvec(mx)
        r_norm = fake_cupy.linalg.norm(r)
        if callback_type == "x":
            callback(mx)
        elif callback_type == "pr_norm" and iters > 0:
            callback(r_norm / b_norm)
        if r_norm <= atol or iters >= maxiter:
            break
        v = r / r_norm
        V[:, 0] = v
        e[0] = float(r_norm)
        for j in range(restart):
            u = A.matvec(M.matvec(v))
            h = V[:, :j + 1].conj().T @ u
            u = u - V[:, :j + 1] @ h
            H[:j + 1, j] = h
            H[j + 1, j] = fake_cupy.linalg.norm(u)
            if j + 1 < restart:
                v = u / H[j + 1, j]
                V[:, j + 1] = v
        y = numpy.linalg.lstsq(H.get(), e, rcond=None)[0]
        x = x + V @ fake_cupy.asarray(y)
        iters += restart
    info = iters if iters == maxiter and not r_norm <= atol else 0
    return mx, info


# ---- eigenvalues and singular values --------------------------------------

def _real_dtype(dtype):
    return numpy.dtype(numpy.dtype(dtype).char.lower())


def eigsh(a, k=6, *, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True):
    """cupyx.scipy.sparse.linalg.eigsh (CuPy 13): SciPy's ARPACK with CuPy's
    arguments and checks (which is 'LM', 'LA' or 'SA'; 1 <= k < n; no M or
    sigma), eigenvalues ascending in the real type of a's dtype."""
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"expected square matrix (shape: {a.shape})")
    if numpy.dtype(a.dtype).char not in "fdFD":
        raise TypeError(f"unsupprted dtype (actual: {a.dtype})")
    n = a.shape[0]
    if k <= 0:
        raise ValueError(f"k must be greater than 0 (actual: {k})")
    if k >= n:
        raise ValueError(f"k must be smaller than n (actual: {k})")
    if which not in ("LM", "LA", "SA"):
        raise ValueError(f"which must be 'LM', 'LA' or 'SA' (actual: {which})")
    ncv = None if ncv is None else min(max(ncv, k + 2), n - 1)
    result = _sparse._host_call(
        scipy.sparse.linalg.eigsh, a, k, which=which, v0=v0, ncv=ncv,
        maxiter=maxiter, tol=tol, return_eigenvectors=return_eigenvectors)
    w, x = result if return_eigenvectors else (result, None)
    w = w.real.astype(_real_dtype(a.dtype))
    order = _new_from(numpy.argsort(w._host(), kind="stable"))
    if x is None:
        return w[order]
    return w[order], x[:, order].astype(a.dtype, copy=False)


def svds(a, k=6, *, ncv=None, tol=0, which="LM", maxiter=None,
         return_singular_vectors=True):
    """cupyx.scipy.sparse.linalg.svds (CuPy 13): the k largest singular
    values, ascending, with CuPy's checks (which is 'LM'; 1 <= k <
    min(m, n))."""
    if a.ndim != 2:
        raise ValueError(f"expected 2D (shape: {a.shape})")
    if numpy.dtype(a.dtype).char not in "fdFD":
        raise TypeError(f"unsupprted dtype (actual: {a.dtype})")
    if k <= 0:
        raise ValueError(f"k must be greater than 0 (actual: {k})")
    if k >= min(a.shape):
        raise ValueError(f"k must be smaller than min(m, n) (actual: {k})")
    if which != "LM":
        raise ValueError(f"which must be 'LM' (actual: {which})")
    result = _sparse._host_call(
        scipy.sparse.linalg.svds, a, k, ncv=ncv, tol=tol, which=which,
        maxiter=maxiter, return_singular_vectors=return_singular_vectors)
    if not return_singular_vectors:
        return result.astype(_real_dtype(a.dtype), copy=False)
    u, s, vt = result
    return u, s.astype(_real_dtype(a.dtype), copy=False), vt


# ---- direct solvers ------------------------------------------------------

def spsolve(A, b):
    """cupyx.scipy.sparse.linalg.spsolve: as CuPy's, b is solved in A's
    dtype, and a 2-D b (a column included, which SciPy returns as a vector)
    gives a 2-D result in Fortran order."""
    if not _sparse.issparse(A):
        raise TypeError("A must be cupyx.scipy.sparse.spmatrix")
    if not isinstance(b, ndarray):
        raise TypeError("b must be cupy.ndarray")
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be a square matrix (A.shape: {A.shape})")
    if b.ndim not in (1, 2):
        raise ValueError(f"Invalid b.shape (b.shape: {b.shape})")
    if A.shape[0] != b.shape[0]:
        raise ValueError(f"matrix dimension mismatch (A.shape: {A.shape}, "
                         f"b.shape: {b.shape})")
    host = _run_numpy(scipy.sparse.linalg.spsolve,
                      (A._synced().tocsr(), b._host().astype(A.dtype)), {})
    host = numpy.asarray(host, dtype=A.dtype).reshape(b.shape)
    return _new_from(numpy.asfortranarray(host) if b.ndim == 2 else host)


def lsqr(A, b):
    """cupyx.scipy.sparse.linalg.lsqr: CuPy's is a QR solve (cuSOLVER's
    csrlsvqr) of a square system, not SciPy's iterative least squares: A (a
    cupy array or a sparse matrix) must be square and b a 1-D cupy array of
    its size; it solves in float32 or float64 and returns x as float64 with
    nine Nones, SciPy's other results."""
    if not _sparse.isspmatrix_csr(A):
        A = _sparse.csr_matrix(A)
    if A.shape[0] != A.shape[1]:
        raise numpy.linalg.LinAlgError(
            "Last 2 dimensions of the array must be square")
    if not isinstance(b, ndarray):
        raise numpy.linalg.LinAlgError("cupy.linalg only supports cupy.ndarray")
    m = A.shape[0]
    if b.ndim != 1 or len(b) != m:
        raise ValueError("b must be 1-d array whose size is same as A")
    dtype = A.dtype if A.dtype.char in "fd" else \
        numpy.promote_types(A.dtype, "f")
    x = _run_numpy(scipy.sparse.linalg.spsolve,
                   (A._synced().astype(dtype).tocsc(), b._host().astype(dtype)),
                   {})
    x = _new_from(numpy.asarray(x, dtype=dtype).astype(numpy.float64))
    return (x,) + (None,) * 9


class SuperLU:
    """cupyx.scipy.sparse.linalg.SuperLU: a factorization SciPy computed on
    the host, as CuPy's splu does, whose solve takes cupy right-hand sides."""

    def __init__(self, obj):
        if not isinstance(obj, scipy.sparse.linalg.SuperLU):
            raise TypeError("obj must be scipy.sparse.linalg.SuperLU")
        self._lu = obj
        self.shape, self.nnz = obj.shape, obj.nnz
        self.perm_r, self.perm_c = _new_from(obj.perm_r), _new_from(obj.perm_c)
        self.L = _sparse.csr_matrix(obj.L.tocsr())
        self.U = _sparse.csr_matrix(obj.U.tocsr())

    def solve(self, rhs, trans="N"):
        if not isinstance(rhs, ndarray):
            raise TypeError("ojb must be cupy.ndarray")
        if rhs.ndim not in (1, 2):
            raise ValueError(f"rhs.ndim must be 1 or 2 (actual: {rhs.ndim})")
        if rhs.shape[0] != self.shape[0]:
            raise ValueError(f"shape mismatch (self.shape: {self.shape}, "
                             f"rhs.shape: {rhs.shape})")
        if trans not in ("N", "T", "H"):
            raise ValueError("trans must be 'N', 'T', or 'H'")
        x = _run_numpy(self._lu.solve,
                       (rhs._host().astype(self.L.dtype), trans), {})
        return _new_from(numpy.asfortranarray(x) if x.ndim == 2 else x)


def _host_factor(factor, A, **kwargs):
    if not _sparse.issparse(A):
        raise TypeError("A must be cupyx.scipy.sparse.spmatrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be a square matrix (A.shape: {A.shape})")
    if A.dtype.char not in "fdFD":
        raise TypeError(f"Invalid dtype (actual: {A.dtype})")
    return SuperLU(factor(A.get().tocsc(), **kwargs))


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None,
         panel_size=None, options={}):
    """cupyx.scipy.sparse.linalg.splu: SciPy's splu on the host."""
    return _host_factor(scipy.sparse.linalg.splu, A, permc_spec=permc_spec,
                        diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                        panel_size=panel_size, options=options)


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None,
          diag_pivot_thresh=None, relax=None, panel_size=None, options={}):
    """cupyx.scipy.sparse.linalg.spilu: SciPy's spilu on the host (CuPy's
    ILU(0) on the device for fill_factor=1 is SciPy's with that factor
    here, which may pivot)."""
    return _host_factor(scipy.sparse.linalg.spilu, A, drop_tol=drop_tol,
                        fill_factor=fill_factor, drop_rule=drop_rule,
                        permc_spec=permc_spec,
                        diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                        panel_size=panel_size, options=options)


def factorized(A):
    """cupyx.scipy.sparse.linalg.factorized: splu(A).solve."""
    return splu(A).solve


PUBLIC = {name: globals()[name] for name in (
    "LinearOperator", "aslinearoperator", "cg", "cgs", "minres", "gmres",
    "eigsh", "svds", "spsolve", "lsqr", "SuperLU", "splu", "spilu",
    "factorized")}
