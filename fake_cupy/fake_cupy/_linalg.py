"""The host side of the fake's cupy.linalg: NumPy's linalg, except for what
inv and solve do with a singular matrix.

NumPy raises LinAlgError ("Singular matrix"). CuPy factors with cuSOLVER's
getrf and solves with getrs, and by default (cupyx.errstate linalg='ignore')
does not read getrf's status back: the solve divides by the zero pivot and
the result holds inf and nan. Under linalg='raise' it raises LinAlgError as
NumPy does. Here the singular case is solved with LAPACK's getrf and getrs
(SciPy's lu_factor and lu_solve), the same algorithm, so the non-finite
entries fall where cuSOLVER's do for small matrices (its blocked
factorization may round differently). Without SciPy the LinAlgError stays.
cholesky follows CuPy's too: CuPy factors with cuSOLVER's potrf (in
float32 or float64, other types promoted with float32) and reads its devInfo
back only under linalg='raise', where a matrix that is not positive definite
raises LinAlgError("Error reported by dpotrf in cuSOLVER. devInfo = [2]...");
under 'ignore' it returns, without an error, the lower triangle potrf left:
the columns before the failing leading minor factored, and from that
minor's column on NaN (cuSOLVER's documentation: "some diagonal elements of
L are not real"; its factorization goes on past the failing pivot, and
programs test the result with isnan). LAPACK's potrf gives the factored
columns here, and the rest is NaN.

solve, lstsq, pinv and svd take CuPy's arguments and give CuPy's results
where NumPy 2's differ (cupy/linalg/_solve.py, _decomposition.py):

- solve(a, b) reads b of shape (..., M) under a of shape (..., M, M) as a
  stack of vectors, and b of a's rank as a stack of matrices, without
  broadcasting (ValueError otherwise); NumPy 2 takes any b of two or more
  dimensions as matrices and broadcasts, so a batched Kalman update's
  solve(S, y) failed or, with as many tracks as rows, solved another system.
- lstsq(a, b, rcond='warn') warns FutureWarning for the default and cuts
  singular values at machine epsilon (rcond -1), as NumPy 1 did; NumPy 2
  cuts at epsilon times max(M, N) without a word. a must be 2-D and b at
  most 2-D (LinAlgError); the rank is a 0-d int32 array.
- pinv(a, rcond=1e-15): CuPy's cutoff, where NumPy 2's default is epsilon
  times max(M, N) (for float32 a 1e8 times larger), and no hermitian.
- svd has no hermitian argument, matrix_rank no hermitian or rtol.
- solve, lstsq, inv, pinv, svd, qr and cholesky begin with CuPy's
  _assert_cupy_array: a NumPy operand is LinAlgError("cupy.linalg only
  supports cupy.ndarray"), not the fake's generic TypeError, so code that
  falls back on LinAlgError takes the same branch as on a GPU.
- eigh and eigvalsh take float16 (computed in float32, results float16,
  "for backward compatibility" in CuPy's source) where NumPy raises
  TypeError; eigh refuses a non-square or 1-D array with ValueError, not
  LinAlgError.

numpy.linalg's names that no CuPy release has in cupy.linalg (multi_dot,
outer, svdvals, and the array-API names but matrix_transpose: matrix_norm,
vector_norm, vecdot, diagonal, trace, tensordot) raise AttributeError, where
the fake gave NumPy's answer and the code failed only on a GPU; the names
CuPy 14 added (eig, eigvals, cond, cross, matmul, matrix_transpose) stay,
as the fake takes CuPy 14's spellings elsewhere (rtol=, bicgstab; the lists
are in _cupy_names). Other functions are NumPy's."""
import warnings

import numpy

from fake_cupy import _cupy_names, _ufunc_config


def __getattr__(name):
    _cupy_names.check("cupy.linalg", name)
    return getattr(numpy.linalg, name)


def _cupy_arrays_only(func):
    """Marks a function that begins with CuPy's _util._assert_cupy_array:
    a NumPy operand raises LinAlgError("cupy.linalg only supports
    cupy.ndarray") (see _functions.delegate), as in CuPy."""
    func.host_operand_error = lambda: numpy.linalg.LinAlgError(
        "cupy.linalg only supports cupy.ndarray")
    return func


def _assert_square(a):
    """CuPy's _util._assert_nd_squareness."""
    if max(a.shape[-2:]) != min(a.shape[-2:]):
        raise numpy.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def _assert_rank2(a):
    """CuPy's _util._assert_rank2."""
    if a.ndim != 2:
        raise numpy.linalg.LinAlgError(
            f"{a.ndim}-dimensional array given. Array must be two-dimensional")


def _through_zero_pivot(a, b, error):
    """Solves a x = b (stacked, b of shape (..., n, k)) with LAPACK's LU,
    its zero pivot included."""
    try:
        import scipy.linalg
    except ImportError:
        raise error from None
    dtype = numpy.result_type(a.dtype, b.dtype, numpy.float32)
    if dtype.kind not in "fc":
        dtype = numpy.dtype(numpy.float64)
    batch = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = numpy.broadcast_to(a, batch + a.shape[-2:]).astype(dtype)
    b = numpy.broadcast_to(b, batch + b.shape[-2:]).astype(dtype)
    out = numpy.empty(batch + b.shape[-2:], dtype)
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        for index in numpy.ndindex(*batch):
            lu = scipy.linalg.lu_factor(a[index], check_finite=False)
            out[index] = scipy.linalg.lu_solve(lu, b[index], check_finite=False)
    return out


def _singular(a, error):
    """Whether NumPy's LinAlgError is about a singular matrix (else it is
    about a shape, which CuPy refuses alike), in linalg='ignore' mode."""
    return (not _ufunc_config.linalg_raises() and a.ndim >= 2
            and a.shape[-1] == a.shape[-2] and "Singular" in str(error))


@_cupy_arrays_only
def inv(a):
    try:
        return numpy.linalg.inv(a)
    except numpy.linalg.LinAlgError as error:
        a = numpy.asarray(a)
        if not _singular(a, error):
            raise
        identity = numpy.eye(a.shape[-1], dtype=a.dtype)
        return _through_zero_pivot(a, identity, error)


@_cupy_arrays_only
def solve(a, b):
    a, b = numpy.asarray(a), numpy.asarray(b)
    _assert_square(a)
    if not ((a.ndim == b.ndim or a.ndim == b.ndim + 1) and
            a.shape[:-1] == b.shape[:a.ndim - 1]):
        raise ValueError("a must have (..., M, M) shape and b must have (..., M) "
                         "or (..., M, K)")
    vectors = b.ndim == a.ndim - 1
    if vectors:
        b = b[..., None]
    try:
        x = numpy.linalg.solve(a, b)
    except numpy.linalg.LinAlgError as error:
        if not _singular(a, error):
            raise
        x = _through_zero_pivot(a, b, error)
    return x[..., 0] if vectors else x


@_cupy_arrays_only
def lstsq(a, b, rcond="warn"):
    """CuPy's lstsq: the SVD solution with CuPy's cutoff (see above)."""
    if isinstance(rcond, str) and rcond == "warn":
        warnings.warn(
            "`rcond` parameter will change to the default of machine precision "
            "times ``max(M, N)`` where M and N are the input matrix dimensions.\n"
            "To use the future default and silence this warning we advise to "
            "pass `rcond=None`, to keep using the old, explicitly pass "
            "`rcond=-1`.", FutureWarning, stacklevel=5)
        rcond = -1
    a, b = numpy.asarray(a), numpy.asarray(b)
    _assert_rank2(a)
    if b.ndim > 2:
        raise numpy.linalg.LinAlgError(
            f"{b.ndim}-dimensional array given. Array must be at most two-dimensional")
    m, n = a.shape
    if m != b.shape[0]:
        raise numpy.linalg.LinAlgError("Incompatible dimensions")
    u, s, vh = numpy.linalg.svd(a, full_matrices=False)
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(m, n)
    elif rcond <= 0 or rcond >= 1:
        rcond = numpy.finfo(s.dtype).eps
    singular = s <= rcond * s.max()
    s1 = numpy.where(singular, 0, 1 / numpy.where(singular, 1, s)).astype(s.dtype)
    rank = numpy.int32(s.size - numpy.count_nonzero(singular))
    x = vh.T.conj() @ ((b.T @ u.conj()) * s1).T
    if m <= n or rank != n:
        residuals = numpy.empty((0,), dtype=s.dtype)
    else:
        e = b - a @ x
        residuals = numpy.atleast_1d(numpy.sum(numpy.abs(e) ** 2, axis=0).astype(s.dtype))
    return x, residuals, rank, s


@_cupy_arrays_only
def pinv(a, rcond=1e-15):
    """CuPy's pinv: singular values at or below rcond times the largest
    are dropped, rcond broadcasting against the stack."""
    return numpy.linalg.pinv(a, rcond=numpy.asarray(rcond))


@_cupy_arrays_only
def qr(a, mode="reduced"):
    return numpy.linalg.qr(a, mode=mode)


def matrix_rank(M, tol=None):
    """CuPy's matrix_rank(M, tol=None): no hermitian or rtol."""
    return numpy.linalg.matrix_rank(M, tol=tol)


def _eigh(a, UPLO, vectors):
    """CuPy's _syevd and syevj: float16 is computed in float32 and the
    results are given back in float16."""
    a = numpy.asarray(a)
    if a.ndim < 2:
        raise ValueError("Array must be at least two-dimensional")
    half = a.dtype == numpy.float16
    if half:
        a = a.astype(numpy.float32)
    if vectors:
        w, v = numpy.linalg.eigh(a, UPLO=UPLO)
        return (w.astype(numpy.float16), v.astype(numpy.float16)) if half else (w, v)
    w = numpy.linalg.eigvalsh(a, UPLO=UPLO)
    return w.astype(numpy.float16) if half else w


def eigh(a, UPLO="L"):
    a = numpy.asarray(a)
    if a.ndim >= 2 and a.shape[-1] != a.shape[-2]:
        raise ValueError("Last 2 dimensions of the array must be square")
    return _eigh(a, UPLO, True)


def eigvalsh(a, UPLO="L"):
    a = numpy.asarray(a)
    if a.ndim >= 2:
        _assert_square(a)
    return _eigh(a, UPLO, False)


@_cupy_arrays_only
def svd(a, full_matrices=True, compute_uv=True):
    return numpy.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def _potrf(a):
    """LAPACK's potrf of each matrix of `a` (lower) and its info values (0,
    or the order k of the failing minor), the factor's lower triangle NaN
    from column k on, as cuSOLVER's."""
    import scipy.linalg.lapack
    out = numpy.empty_like(a)
    info = numpy.zeros(a.shape[:-2] or (1,), numpy.int32)
    for index in numpy.ndindex(*a.shape[:-2]):
        potrf, = scipy.linalg.lapack.get_lapack_funcs(("potrf",), (a[index],))
        factor, status = potrf(a[index], lower=True, clean=True)
        factor = numpy.tril(factor)
        if status > 0:
            rest = factor[status - 1:, status - 1:]
            rest[numpy.tril_indices_from(rest)] = numpy.nan
        out[index] = factor
        info[index if index else 0] = status
    return out, info.ravel()


@_cupy_arrays_only
def cholesky(a):
    a = numpy.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        return numpy.linalg.cholesky(a)     # NumPy's error, as CuPy's
    dtype = a.dtype if a.dtype.char in "fd" else \
        numpy.promote_types(a.dtype, numpy.float32)
    a = a.astype(dtype)
    try:
        return numpy.linalg.cholesky(a)
    except numpy.linalg.LinAlgError as error:
        try:
            factor, info = _potrf(a)
        except ImportError:
            raise error from None
        if _ufunc_config.linalg_raises():
            routine = {"f": "s", "d": "d", "F": "c", "D": "z"}[dtype.char]
            routine += "potrfBatched" if a.ndim > 2 else "potrf"
            raise numpy.linalg.LinAlgError(
                f"Error reported by {routine} in cuSOLVER. devInfo = {info}. "
                "Please refer to the cuSOLVER documentation.") from None
        return factor
