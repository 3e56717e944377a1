"""cupyx.scipy.special of the fake CuPy: the functions of CuPy 13 that
SciPy no longer has, and those whose loops resolve other types than
SciPy's; the others are delegates of SciPy's (see _cupyx.py).

CuPy's ufuncs take the first of their loops that the input casts to
safely. gammaln's are f->f, d->d (float16, bool and 8/16-bit integers give
float32, SciPy's float64); erf, erfc and erfcx have e->d, f->f, d->d (int16
and uint16 give float32); erfinv and erfcinv f->f, d->d; none takes complex
values (TypeError), where SciPy's erf does (cupyx/scipy/special/_erf.py,
_gammaln.py, CuPy 13). gamma, j0, j1, y0, y1, i0, i0e, i1, i1e, k0, k0e,
k1, k1e, ndtr, log_ndtr and ndtri have f->f, d->d, digamma also F->F, D->D,
and expit, logit and log_expit e->f, f->f, d->d, where SciPy 1.17 mostly
lists d->d first: float16, bool and 8/16-bit integers give float32 in CuPy,
float64 in SciPy, and ndtr's complex input is CuPy's TypeError (_gamma.py,
_digamma.py, _bessel.py, _stats_distributions.py and the logistic
functions' file). An array input is cast to the loop's input type and
SciPy's result to its output type; other inputs (Python numbers, values
cupy.fuse traces) go to SciPy's ufunc as before.

SciPy 1.14 removed btdtr and btdtri, the beta distribution's function and
its inverse, which CuPy 13 has (betainc and betaincinv under other names).

SciPy 1.17 removed sph_harm(m, n, theta, phi), theta the azimuth and phi the
polar angle; its replacement sph_harm_y(n, m, theta, phi) takes the polar
angle first, and gives 0 where |m| > n. CuPy 13's sph_harm is a ufunc with
the loops iiff->F, iidd->D, llff->F and lldd->D (single-precision angles
give complex64) and gives NaN where |m| > n or n < 0."""
import numpy
import scipy.special

from fake_cupy._functions import delegate
from fake_cupy._ndarray import _call_numpy, _check_ufunc_operand, ndarray

_LOOPS = {
    "erf": ("e->d", "f->f", "d->d"), "erfc": ("e->d", "f->f", "d->d"),
    "erfcx": ("e->d", "f->f", "d->d"), "erfinv": ("f->f", "d->d"),
    "erfcinv": ("f->f", "d->d"), "gammaln": ("f->f", "d->d"),
    "gamma": ("f->f", "d->d"), "digamma": ("f->f", "d->d", "F->F", "D->D"),
    "j0": ("f->f", "d->d"), "j1": ("f->f", "d->d"), "y0": ("f->f", "d->d"),
    "y1": ("f->f", "d->d"), "i0": ("f->f", "d->d"), "i1": ("f->f", "d->d"),
    "i0e": ("f->f", "d->d"), "i1e": ("f->f", "d->d"), "k0": ("f->f", "d->d"),
    "k0e": ("f->f", "d->d"), "k1": ("f->f", "d->d"), "k1e": ("f->f", "d->d"),
    "ndtr": ("f->f", "d->d"), "log_ndtr": ("f->f", "d->d"),
    "ndtri": ("f->f", "d->d"),
    "expit": ("e->f", "f->f", "d->d"), "logit": ("e->f", "f->f", "d->d"),
    "log_expit": ("e->f", "f->f", "d->d"),
}


def _store(y, out):
    if out is None:
        return y
    if not isinstance(out, ndarray):
        raise TypeError("Output arrays must be cupy.ndarray")
    out[...] = y
    return out


def cupy_loop(name, dtype):
    """The (input, output) dtypes of CuPy's loop of the special ufunc `name`
    for an array of `dtype`, or None where SciPy's resolution is CuPy's
    (cupy.fuse traces with it too); TypeError where CuPy has no loop."""
    loops = _LOOPS.get(name)
    if loops is None:
        return None
    for loop in loops:
        if numpy.can_cast(dtype, loop[0]):
            return numpy.dtype(loop[0]), numpy.dtype(loop[-1])
    raise TypeError(f"Wrong type ((dtype('{dtype}'),)) of arguments for "
                    f"cupyx_scipy_special_{name}")


def _with_cupy_loops(name, loops):
    """SciPy's ufunc `name` with CuPy's loop resolution on arrays."""
    scipy_ufunc = getattr(scipy.special, name)
    fallback = delegate(scipy_ufunc)

    def call(x, out=None):
        if not isinstance(x, ndarray):
            return fallback(x) if out is None else fallback(x, out=out)
        in_type, out_type = cupy_loop(name, x.dtype)
        y = _call_numpy(scipy_ufunc, (x.astype(in_type),), {})
        return _store(y.astype(out_type, copy=False), out)
    call.__name__ = name
    call.__doc__ = scipy_ufunc.__doc__
    for attr in ("nin", "nout", "nargs"):
        setattr(call, attr, getattr(scipy_ufunc, attr))
    call.types = list(loops)
    call.ntypes = len(loops)
    return call


def _sph_harm_host(m, n, theta, phi):
    single = all(numpy.result_type(a) in (numpy.float16, numpy.float32)
                 for a in (theta, phi))
    y = numpy.asarray(scipy.special.sph_harm_y(n, m, phi, theta))
    # SciPy's sph_harm_y gives 0 where |m| > n; CuPy's (as SciPy's old
    # sph_harm) gives NaN there and for n < 0.
    y = numpy.where((numpy.abs(m) > n) | (numpy.asarray(n) < 0), numpy.nan, y)
    return y.astype(numpy.complex64 if single else numpy.complex128)


def sph_harm(m, n, theta, phi, out=None):
    """cupyx.scipy.special.sph_harm (CuPy 13): the spherical harmonic of
    order m and degree n at azimuth theta and polar angle phi."""
    for arg in (m, n, theta, phi):
        _check_ufunc_operand(arg)
    return _store(_call_numpy(_sph_harm_host, (m, n, theta, phi), {}), out)


def _beta_distribution(name, scipy_name):
    """CuPy 13's ufunc `name` (btdtr, btdtri), which SciPy 1.14 removed for
    `scipy_name` (betainc, betaincinv) with the same arguments; its loops
    are fff->f and ddd->d."""
    scipy_ufunc = getattr(scipy.special, scipy_name)

    def host(a, b, x):
        types = [v.dtype for v in (a, b, x) if isinstance(v, numpy.ndarray)]
        for loop in (numpy.float32, numpy.float64):
            if all(numpy.can_cast(t, loop) for t in types):
                break
        else:
            raise TypeError(f"Wrong type ({tuple(types)}) of arguments for "
                            f"cupyx_scipy_{name}")
        if not types:
            loop = numpy.float64
        args = [numpy.asarray(v, dtype=loop) for v in (a, b, x)]
        return numpy.asarray(scipy_ufunc(*args)).astype(loop, copy=False)

    def call(a, b, x, out=None):
        for arg in (a, b, x):
            _check_ufunc_operand(arg)
        return _store(_call_numpy(host, (a, b, x), {}), out)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = (f"cupyx.scipy.special.{name} (CuPy 13): SciPy's "
                    f"{scipy_name} under its old name.")
    return call


FUNCTIONS = {"sph_harm": sph_harm,
             "btdtr": _beta_distribution("btdtr", "betainc"),
             "btdtri": _beta_distribution("btdtri", "betaincinv")} | {
    name: _with_cupy_loops(name, loops) for name, loops in _LOOPS.items()}
