"""cupyx.scipy.special of the fake CuPy: the functions of CuPy 13 that
SciPy no longer has, those whose loops resolve other types than SciPy's,
and logsumexp, softmax and log_softmax, which CuPy computes with its own
array operations; the others are delegates of SciPy's (see _cupyx.py).

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

The functions of two arguments resolve their loops the same way:
xlogy and xlog1py have ee->f, ff->f, dd->d, FF->F, DD->D (_xlogy.py), beta,
betaln, gammainc, gammaincc, gammaincinv and gammainccinv ff->f, dd->d
(_beta.py, _gammainc.py), where SciPy 1.17 lists dd->d first: float16,
bool and 8/16-bit integers give float32 in CuPy (int8 and float16 also in
xlogy), float64 in SciPy, and complex betaln is CuPy's TypeError. A Python
or NumPy scalar beside an array takes the array's loop (CuPy 13 follows
NumPy 1's value-based casting, so `xlogy(x32, 2.0)` stays float32).

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
from fake_cupy._ndarray import (_call_numpy, _check_ufunc_operand,
                                _new_from, ndarray)

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
    "xlogy": ("ee->f", "ff->f", "dd->d", "FF->F", "DD->D"),
    "xlog1py": ("ee->f", "ff->f", "dd->d", "FF->F", "DD->D"),
    "beta": ("ff->f", "dd->d"), "betaln": ("ff->f", "dd->d"),
    "gammainc": ("ff->f", "dd->d"), "gammaincc": ("ff->f", "dd->d"),
    "gammaincinv": ("ff->f", "dd->d"), "gammainccinv": ("ff->f", "dd->d"),
}


def _store(y, out):
    if out is None:
        return y
    if not isinstance(out, ndarray):
        raise TypeError("Output arrays must be cupy.ndarray")
    out[...] = y
    return out


def _takes(operand, type_char):
    """Whether a loop's input type takes the operand: an array's dtype must
    cast to it safely; a Python or NumPy scalar is weak, as in CuPy 13 (a
    real number fits any floating or complex type, a complex one only a
    complex type)."""
    loop_type = numpy.dtype(type_char)
    if isinstance(operand, numpy.dtype):
        return numpy.can_cast(operand, loop_type)
    if isinstance(operand, (complex, numpy.complexfloating)):
        return loop_type.kind == "c"
    return loop_type.kind in "fc"


def cupy_loop(name, *operands):
    """The input and output dtypes of CuPy's loop of the special ufunc
    `name` for operands given by their dtypes (arrays) or values
    (scalars), or None where SciPy's resolution is CuPy's (cupy.fuse
    traces with it too); TypeError where CuPy has no loop."""
    loops = _LOOPS.get(name)
    if loops is None:
        return None
    for loop in loops:
        ins, out = loop.split("->")
        if all(_takes(o, t) for o, t in zip(operands, ins)):
            return tuple(numpy.dtype(t) for t in ins) + (numpy.dtype(out),)
    types = ", ".join(f"dtype('{o}')" if isinstance(o, numpy.dtype)
                      else type(o).__name__ for o in operands)
    raise TypeError(f"Wrong type (({types},)) of arguments for "
                    f"cupyx_scipy_special_{name}")


def _with_cupy_loops(name, loops):
    """SciPy's ufunc `name` with CuPy's loop resolution on arrays."""
    scipy_ufunc = getattr(scipy.special, name)
    fallback = delegate(scipy_ufunc)
    nin = scipy_ufunc.nin

    def call(*args, out=None):
        if len(args) != nin:
            raise TypeError(f"Wrong number of arguments for {name}: "
                            f"{nin} expected, {len(args)} given")
        if not any(isinstance(a, ndarray) for a in args):
            return fallback(*args) if out is None else fallback(*args, out=out)
        for a in args:
            _check_ufunc_operand(a)
        operands = [a.dtype if isinstance(a, ndarray) else a for a in args]
        types = cupy_loop(name, *operands)
        # A NumPy array is left to _call_numpy, which refuses it as CuPy does.
        cast = [a.astype(t) if isinstance(a, ndarray) else a
                if isinstance(a, numpy.ndarray) else
                _new_from(numpy.asarray(a, dtype=t))
                for a, t in zip(args, types[:-1])]
        y = _call_numpy(scipy_ufunc, tuple(cast), {})
        return _store(y.astype(types[-1], copy=False), out)
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


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """cupyx.scipy.special.logsumexp as CuPy 13 computes it
    (cupyx/scipy/special/_logsumexp.py): cupy operations on `a` itself, so
    a list or a Python number is AttributeError (cupy.max calls its method)
    and the result takes cupy.exp's loop, float16 for 8-bit integers and
    float32 for 16-bit ones, where SciPy's takes array-likes and computes
    integers in float64."""
    import fake_cupy as cupy
    if b is not None:
        a, b = cupy.broadcast_arrays(a, b)
        if cupy.any(b == 0):
            a = a + 0.0     # at least floating, to hold -inf
            a[b == 0] = -cupy.inf
    a_max = cupy.max(a, axis=axis, keepdims=True)
    if a_max.ndim > 0:
        a_max[~cupy.isfinite(a_max)] = 0
    elif not cupy.isfinite(a_max):
        a_max = 0
    tmp = cupy.exp(a - a_max) if b is None else b * cupy.exp(a - a_max)
    s = cupy.sum(tmp, axis=axis, keepdims=keepdims)
    if return_sign:
        sgn = cupy.sign(s)
        s *= sgn
    out = cupy.log(s)
    if not keepdims:
        a_max = cupy.squeeze(a_max, axis=axis)
    out += a_max
    return (out, sgn) if return_sign else out


def softmax(x, axis=None):
    """cupyx.scipy.special.softmax as CuPy 13 computes it (_softmax.py):
    exp(x - max) over its sum, on cupy operations (a list is AttributeError,
    cupy.exp's loop gives the dtype)."""
    import fake_cupy as cupy
    x_max = cupy.amax(x, axis=axis, keepdims=True)
    exp_x_shifted = cupy.exp(x - x_max)
    return exp_x_shifted / cupy.sum(exp_x_shifted, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """cupyx.scipy.special.log_softmax as CuPy 13 computes it
    (_logsoftmax.py): integers are shifted by their maximum and cast to the
    smallest float type holding them, then x - log(sum(exp(x))) in that
    type."""
    import fake_cupy as cupy
    x_max = cupy.amax(x, axis=axis, keepdims=True)
    if x_max.ndim > 0:
        x_max[~cupy.isfinite(x_max)] = 0
    elif not cupy.isfinite(x_max):
        x_max = 0
    tmp = x - x_max
    if tmp.dtype.kind in "iu":
        for out_dtype in (cupy.float16, cupy.float32, cupy.float64):
            if cupy.can_cast(tmp.dtype, out_dtype):
                tmp = tmp.astype(out_dtype)
                break
    # CuPy's reduction kernel computes exp, the sum and log in tmp's type.
    total = cupy.sum(cupy.exp(tmp), axis=axis, keepdims=True, dtype=tmp.dtype)
    return tmp - cupy.log(total).astype(tmp.dtype, copy=False)


FUNCTIONS = {"sph_harm": sph_harm, "logsumexp": logsumexp, "softmax": softmax,
             "log_softmax": log_softmax,
             "btdtr": _beta_distribution("btdtr", "betainc"),
             "btdtri": _beta_distribution("btdtri", "betaincinv")} | {
    name: _with_cupy_loops(name, loops) for name, loops in _LOOPS.items()}
