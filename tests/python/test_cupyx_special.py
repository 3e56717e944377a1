"""cupyx.scipy.special functions of CuPy 13 that SciPy no longer has.

The fake's cupyx.scipy.special delegates to SciPy's, and SciPy 1.17 removed
`sph_harm(m, n, theta, phi)` (its replacement `sph_harm_y(n, m, theta, phi)`
swaps both pairs of arguments): CuPy 13's `cupyx.scipy.special.sph_harm`, a
ufunc with loops iiff->F, iidd->D, llff->F and lldd->D, raised
"module 'scipy.special' has no attribute 'sph_harm'"."""
import numpy
import pytest

import fake_cupy


@pytest.fixture
def special(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy.special
        yield cupyx.scipy.special
    finally:
        fake_cupy.uninstall()


def test_sph_harm_is_cupy13s(special, cp):
    theta = cp.linspace(0.0, 2 * numpy.pi, 7)     # azimuth
    phi = cp.linspace(0.1, numpy.pi - 0.1, 7)     # polar angle
    y = special.sph_harm(1, 1, theta, phi)
    assert isinstance(y, cp.ndarray) and y.dtype == numpy.complex128
    t, p = theta.get(), phi.get()
    expect = -0.5 * numpy.sqrt(3 / (2 * numpy.pi)) * numpy.exp(1j * t) * numpy.sin(p)
    numpy.testing.assert_allclose(y.get(), expect, rtol=1e-12, atol=1e-15)
    y0 = special.sph_harm(0, 2, theta, phi)
    numpy.testing.assert_allclose(
        y0.get(), 0.25 * numpy.sqrt(5 / numpy.pi) * (3 * numpy.cos(p) ** 2 - 1), atol=1e-12)
    y32 = special.sph_harm(1, 2, theta.astype(cp.float32), phi.astype(cp.float32))
    assert y32.dtype == numpy.complex64
    assert bool(cp.isnan(special.sph_harm(3, 2, theta, phi)).all())
    with pytest.raises(TypeError):
        special.sph_harm(1, 1, theta.get(), phi.get())
