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
columns here, and the rest is NaN. Other functions are NumPy's."""
import warnings

import numpy

from fake_cupy import _ufunc_config


def __getattr__(name):
    return getattr(numpy.linalg, name)


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


def inv(a):
    try:
        return numpy.linalg.inv(a)
    except numpy.linalg.LinAlgError as error:
        a = numpy.asarray(a)
        if not _singular(a, error):
            raise
        identity = numpy.eye(a.shape[-1], dtype=a.dtype)
        return _through_zero_pivot(a, identity, error)


def solve(a, b):
    try:
        return numpy.linalg.solve(a, b)
    except numpy.linalg.LinAlgError as error:
        a, b = numpy.asarray(a), numpy.asarray(b)
        if not _singular(a, error):
            raise
        if b.ndim == 1:
            return _through_zero_pivot(a, b[:, None], error)[..., 0]
        return _through_zero_pivot(a, b, error)


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
