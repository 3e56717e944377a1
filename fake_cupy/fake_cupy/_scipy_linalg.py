"""cupyx.scipy.linalg as CuPy 13 has it, not SciPy's whole scipy.linalg.

The fake delegated cupyx.scipy.linalg to SciPy 1.17's module, which differs
from CuPy's (cupyx/scipy/linalg/__init__.py) in what it holds and in what
its functions take and give:

- CuPy has bandwidth, lu, lu_factor, lu_solve, expm, khatri_rao,
  solve_triangular and the special matrices (block_diag, circulant,
  companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard,
  hankel, helmert, hilbert, kron, leslie, toeplitz, tri, tril, triu).
  SciPy's others (cho_factor, cho_solve, solve, inv, eigh, cholesky, qr,
  svd, ...) raise AttributeError there, so code that ran on the fake
  stopped on a GPU; kron, tri, tril and triu, which SciPy removed, raised
  AttributeError on the fake.
- solve_triangular computes in a's precision (float32 and float64 kept,
  others promoted with float32) and casts b to it, so a float32 factor with
  a float64 right-hand side gives float32; check_finite defaults to False,
  so NaN goes through where SciPy raised ValueError; a stack of matrices
  takes b of shape (..., M) as vectors and (..., M, N) as matrices.
- lu_factor and lu take float32, float64, complex64 and complex128 only
  (NotImplementedError, where SciPy converted integers), and factor with
  cuSOLVER's getrf, which divides by an exactly zero pivot: the column
  below it becomes NaN or inf (CuPy's documented lu_factor([[0, 1], [0,
  0]]) is [[0, 1], [nan, nan]]), with a RuntimeWarning naming the diagonal
  number, where LAPACK leaves the column as it is. They copy host data to
  the device (cupy.asarray) as CuPy's do, where the fake refused NumPy
  arrays. lu_solve solves in the factor's dtype, and its check_finite names
  the singular case; it and solve_triangular raise LinAlgError for a NumPy
  operand, as CuPy's _assert_cupy_array does.
- toeplitz, circulant and hankel ravel their arguments, where SciPy 1.17
  takes a 2-D argument as a batch; tri's dtype defaults to bool, and tri,
  tril and triu warn DeprecationWarning, as CuPy's do."""
import types
import warnings

import numpy

# CuPy's functions that are SciPy's with the fake's argument conversions.
_AS_SCIPY = ("bandwidth", "expm", "khatri_rao", "block_diag", "companion",
             "convolution_matrix", "dft", "fiedler", "fiedler_companion",
             "hadamard", "helmert", "hilbert", "leslie")


def _cupy_arrays_only(func):
    """CuPy's _util._assert_cupy_array at the start of the function: a
    NumPy operand raises LinAlgError (see _functions.delegate)."""
    func.host_operand_error = lambda: numpy.linalg.LinAlgError(
        "cupy.linalg only supports cupy.ndarray")
    return func


def _check_finite(*arrays, message="array must not contain infs or NaNs"):
    for a in arrays:
        if a.dtype.kind == "f" and not numpy.isfinite(a).all():
            raise ValueError(message)


@_cupy_arrays_only
def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False,
                     overwrite_b=False, check_finite=False):
    import scipy.linalg
    a, b = numpy.asarray(a), numpy.asarray(b)
    if a.ndim == 2:
        if a.shape[0] != a.shape[1]:
            raise ValueError("expected square matrix")
        if len(a) != len(b):
            raise ValueError("incompatible dimensions")
    elif a.ndim > 2:
        if a.shape[-1] != a.shape[-2]:
            raise ValueError("expected a batch of square matrices")
        if a.shape[:-2] != b.shape[:a.ndim - 2]:
            raise ValueError("incompatible batch count")
        if b.ndim < a.ndim - 1 or a.shape[-2] != b.shape[a.ndim - 2]:
            raise ValueError("incompatible dimensions")
    else:
        raise ValueError("expected one square matrix or a batch of square matrices")
    dtype = a.dtype if a.dtype.char in "fd" else numpy.promote_types(a.dtype.char, "f")
    if check_finite:
        _check_finite(a, b)
    with warnings.catch_warnings():
        # cuBLAS's trsm reads b in a's precision; casting a complex b to a
        # real one drops its imaginary part as CuPy's astype does.
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        a, b = a.astype(dtype), b.astype(dtype)
    if a.ndim == 2:
        return scipy.linalg.solve_triangular(a, b, trans=trans, lower=lower,
                                             unit_diagonal=unit_diagonal,
                                             check_finite=False)
    out = numpy.empty_like(b)
    for index in numpy.ndindex(*a.shape[:-2]):
        out[index] = scipy.linalg.solve_triangular(
            a[index], b[index], trans=trans, lower=lower,
            unit_diagonal=unit_diagonal, check_finite=False)
    return out


def _getrf(a):
    """cuSOLVER's getrf on a copy of `a` (M, N): partial pivoting by the
    first largest magnitude, as LAPACK's, but a zero pivot divides the
    column below it as cuSOLVER's does. Returns (lu, piv, info)."""
    lu = numpy.array(a, order="F")
    m, n = lu.shape
    k = min(m, n)
    piv = numpy.arange(k, dtype=numpy.int32)
    info = 0
    with numpy.errstate(all="ignore"):
        for j in range(k):
            p = j + int(numpy.argmax(numpy.abs(lu[j:, j])))
            piv[j] = p
            if p != j:
                lu[[j, p]] = lu[[p, j]]
            if lu[j, j] == 0 and info == 0:
                info = j + 1
            lu[j + 1:, j] /= lu[j, j]
            lu[j + 1:, j + 1:] -= numpy.outer(lu[j + 1:, j], lu[j, j + 1:])
    return lu, piv, info


# Frames from the warning in _factor up to the user's call: _factor,
# lu_factor or lu, _run_numpy, _call_numpy, the delegate, _host_data_copied
# and the keyword check (_cupy_keywords.checked).
_USER_FRAME = 8


def lu_factor(a, overwrite_a=False, check_finite=True):
    return _factor(a, check_finite)


def _factor(a, check_finite):
    import scipy.linalg.lapack
    a = numpy.asarray(a)
    if a.ndim != 2:
        raise numpy.linalg.LinAlgError(
            f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    if a.dtype.char not in "fdFD":
        raise NotImplementedError(
            "Only float32, float64, complex64 and complex128 are supported.")
    if check_finite:
        _check_finite(a)
    getrf, = scipy.linalg.lapack.get_lapack_funcs(("getrf",), (a,))
    lu, piv, info = getrf(a)
    if info > 0:
        # A zero pivot: cuSOLVER divides by it, LAPACK does not.
        lu, piv, info = _getrf(a)
        warnings.warn(f"Diagonal number {info} is exactly zero. Singular matrix.",
                      RuntimeWarning, stacklevel=_USER_FRAME)
    return numpy.asfortranarray(lu.astype(a.dtype)), piv.astype(numpy.int32)


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    factor, piv = _factor(a, check_finite)
    m, n = factor.shape
    k = min(m, n)
    lower = numpy.tril(factor[:, :k], -1) + numpy.eye(m, k, dtype=factor.dtype)
    upper = numpy.triu(factor[:k, :])
    perm = numpy.arange(m)
    for i, p in enumerate(piv):
        perm[[i, p]] = perm[[p, i]]
    if permute_l:
        out = numpy.empty_like(lower)
        out[perm] = lower
        return out, upper
    r_dtype = numpy.float32 if factor.dtype.char in "fF" else numpy.float64
    p_matrix = numpy.zeros((m, m), dtype=r_dtype)
    p_matrix[perm, numpy.arange(m)] = 1
    return p_matrix, lower, upper


@_cupy_arrays_only
def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    import scipy.linalg
    factor, piv = lu_and_piv
    factor, b = numpy.asarray(factor), numpy.asarray(b)
    if factor.ndim != 2:
        raise numpy.linalg.LinAlgError(
            f"{factor.ndim}-dimensional array given. Array must be two-dimensional")
    if factor.shape[0] != factor.shape[1]:
        raise numpy.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    if factor.shape[0] != b.shape[0]:
        raise ValueError("incompatible dimensions.")
    if factor.dtype.char not in "fdFD":
        raise NotImplementedError(
            "Only float32, float64, complex64 and complex128 are supported.")
    if trans not in (0, 1, 2):
        raise ValueError("unknown trans")
    b = b.astype(factor.dtype)
    if check_finite:
        _check_finite(factor, message=(
            "array must not contain infs or NaNs.\n"
            "Note that when a singular matrix is given, unlike "
            "scipy.linalg.lu_factor, cupyx.scipy.linalg.lu_factor "
            "returns an array containing NaN."))
        _check_finite(b)
    with numpy.errstate(all="ignore"):
        return scipy.linalg.lu_solve((factor, numpy.asarray(piv)), b, trans=trans,
                                     check_finite=False).astype(factor.dtype)


def _deprecated_tri():
    warnings.warn("'tri'/'tril/'triu' are deprecated", DeprecationWarning, stacklevel=6)


def tri(N, M=None, k=0, dtype=None):
    _deprecated_tri()
    if M is None:
        M = N
    elif isinstance(M, str):
        M, dtype = N, M
    return numpy.tri(N, M, k, bool if dtype is None else dtype)


def tril(m, k=0):
    _deprecated_tri()
    return numpy.tri(m.shape[0], m.shape[1], k=k, dtype=m.dtype.char) * m


def triu(m, k=0):
    _deprecated_tri()
    return (1 - numpy.tri(m.shape[0], m.shape[1], k - 1, m.dtype.char)) * m


def kron(a, b):
    return numpy.kron(a, b)


def toeplitz(c, r=None):
    import scipy.linalg
    c = c.ravel()
    r = c.conjugate() if r is None else r.ravel()
    return scipy.linalg.toeplitz(c, r)


def circulant(c):
    import scipy.linalg
    return scipy.linalg.circulant(c.ravel())


def hankel(c, r=None):
    import scipy.linalg
    c = c.ravel()
    r = numpy.zeros_like(c) if r is None else r.ravel()
    return scipy.linalg.hankel(c, r)


_OWN = (solve_triangular, lu_factor, lu, lu_solve, tri, tril, triu, kron,
        toeplitz, circulant, hankel)


def _host_data_copied(function):
    def call(a, *args, **kwargs):
        import fake_cupy
        return function(fake_cupy.asarray(a), *args, **kwargs)
    call.__name__ = call.__qualname__ = function.__name__
    call.__doc__ = function.__doc__
    return call


def module(name):
    """The cupyx.scipy.linalg module: the functions above and SciPy's
    _AS_SCIPY ones as delegates (cupy arrays in and out); other names raise
    AttributeError, as CuPy's module has no such attribute."""
    import scipy.linalg
    from fake_cupy import _functions
    proxy = types.ModuleType(name, "Fake CuPy's cupyx.scipy.linalg.")
    proxy.__file__ = None
    proxy.__path__ = []
    for func in _OWN:
        setattr(proxy, func.__name__, _functions.delegate(func))
    for func in (lu_factor, lu):
        # CuPy's _lu_factor begins with cupy.asarray(a): host data is copied.
        setattr(proxy, func.__name__, _host_data_copied(_functions.delegate(func)))
    for attr in _AS_SCIPY:
        setattr(proxy, attr, _functions.delegate(getattr(scipy.linalg, attr)))

    def getattr_(attr):
        raise AttributeError(f"module 'cupyx.scipy.linalg' has no attribute '{attr}'")
    proxy.__getattr__ = getattr_
    return proxy
