"""cupyx.scipy.special of the fake CuPy: the functions of CuPy 13 that
SciPy no longer has; the others are delegates of SciPy's (see _cupyx.py).

SciPy 1.17 removed sph_harm(m, n, theta, phi), theta the azimuth and phi the
polar angle; its replacement sph_harm_y(n, m, theta, phi) takes the polar
angle first, and gives 0 where |m| > n. CuPy 13's sph_harm is a ufunc with
the loops iiff->F, iidd->D, llff->F and lldd->D (single-precision angles
give complex64) and gives NaN where |m| > n or n < 0."""
import numpy
import scipy.special

from fake_cupy._ndarray import _call_numpy, _check_ufunc_operand, ndarray


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
    y = _call_numpy(_sph_harm_host, (m, n, theta, phi), {})
    if out is None:
        return y
    if not isinstance(out, ndarray):
        raise TypeError("Output arrays must be cupy.ndarray")
    out[...] = y
    return out


FUNCTIONS = {"sph_harm": sph_harm}
