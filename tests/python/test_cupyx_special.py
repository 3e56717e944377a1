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


def test_loops_resolve_as_cupys(special, cp):
    # CuPy's ufuncs take the first of their loops the input casts to safely:
    # gammaln has f->f, d->d (float16, bool and 8/16-bit integers give
    # float32), erf/erfc/erfcx have e->d, f->f, d->d (int16 gives float32),
    # and none takes complex. SciPy's resolution gave float64 and took
    # complex erf.
    import scipy.special
    cases = ((special.gammaln, "float16", "float32"), (special.gammaln, "int8", "float32"),
             (special.gammaln, "bool", "float32"), (special.gammaln, "int32", "float64"),
             (special.erf, "int16", "float32"), (special.erf, "float16", "float64"),
             (special.erf, "int8", "float64"), (special.erfc, "uint16", "float32"),
             (special.erfinv, "int8", "float32"), (special.erf, "float32", "float32"))
    for func, dtype, want in cases:
        x = cp.arange(1, 4).astype(dtype) if dtype != "bool" else cp.ones(3, dtype=bool)
        y = func(x)
        assert y.dtype == numpy.dtype(want), (func.__name__, dtype, y.dtype)
        ref = getattr(scipy.special, func.__name__)(x.get().astype(numpy.float64))
        numpy.testing.assert_allclose(y.get(), ref, rtol=1e-6 if want == "float32" else 1e-12)
    with pytest.raises(TypeError):
        special.erf(cp.ones(2, dtype=cp.complex128))
    out = cp.empty(3, dtype=cp.float64)
    assert special.gammaln(cp.arange(1.0, 4.0), out=out) is out
    assert isinstance(special.erf(0.5), cp.ndarray)


def test_fused_special_functions_resolve_as_unfused(special, cp):
    # cupy.fuse traces cupyx.scipy.special's ufuncs; its loop for them is
    # the one the unfused call takes (CuPy's), so a fused gammaln of
    # float16 values is float32 as the plain call.
    @cp.fuse
    def fused(x):
        return special.gammaln(x) + special.erf(x)

    for dtype in ("float16", "int16", "float64"):
        x = cp.arange(1, 5).astype(dtype)
        want = special.gammaln(x) + special.erf(x)
        got = fused(x)
        assert got.dtype == want.dtype, (dtype, got.dtype, want.dtype)
        numpy.testing.assert_allclose(got.get(), want.get(), rtol=1e-6)


def test_more_loops_resolve_as_cupys(special, cp):
    # CuPy's Bessel functions (j0 ... k1e), gamma and the normal
    # distribution's ndtr, log_ndtr and ndtri have f->f, d->d, digamma also
    # F->F, D->D, and expit, logit and log_expit e->f, f->f, d->d: float16,
    # bool and 8/16-bit integers give float32, 32/64-bit integers float64.
    # SciPy 1.17's loops mostly list d->d first, so the fake gave float64.
    import scipy.special
    names = ("j0", "j1", "y0", "y1", "i0", "i0e", "i1", "i1e", "k0", "k0e",
             "k1", "k1e", "gamma", "digamma", "ndtr", "log_ndtr", "ndtri",
             "expit", "logit", "log_expit")
    cases = (("float16", "float32"), ("bool", "float32"), ("int8", "float32"),
             ("uint8", "float32"), ("int16", "float32"), ("uint16", "float32"),
             ("int32", "float64"), ("int64", "float64"), ("float32", "float32"),
             ("float64", "float64"))
    for name in names:
        func = getattr(special, name)
        for dtype, want in cases:
            x = cp.ones(3, dtype=bool) if dtype == "bool" else \
                (cp.arange(1, 4) if name not in ("logit", "ndtri") else cp.arange(1, 4) / 8).astype(dtype)
            y = func(x)
            assert y.dtype == numpy.dtype(want), (name, dtype, y.dtype)
            ref = getattr(scipy.special, name)(x.get().astype(numpy.float64))
            numpy.testing.assert_allclose(y.get(), ref, rtol=1e-5 if want == "float32" else 1e-12)
    assert special.digamma(cp.ones(2, dtype=cp.complex64)).dtype == numpy.complex64
    for name in ("j0", "ndtr"):
        with pytest.raises(TypeError):
            getattr(special, name)(cp.ones(2, dtype=cp.complex128))

    @cp.fuse
    def fused(x):
        return special.expit(x) + special.j0(x)

    x = cp.arange(1, 4).astype(numpy.int16)
    assert fused(x).dtype == numpy.float32
    numpy.testing.assert_allclose(fused(x).get(), (special.expit(x) + special.j0(x)).get(),
                                  rtol=1e-6)


def test_two_argument_loops_resolve_as_cupys(special, cp):
    # Log-likelihoods call xlogy and betaln on float32 or small-integer
    # data. CuPy's xlogy and xlog1py have ee->f, ff->f, dd->d, FF->F, DD->D,
    # its beta, betaln and incomplete gamma functions ff->f, dd->d; SciPy
    # 1.17 lists dd->d first, so the fake gave float64 for float16 and
    # 8/16-bit integers, and took complex betaln.
    import scipy.special
    cases = (("float16", "float32"), ("int8", "float32"), ("uint8", "float32"),
             ("int16", "float32"), ("uint16", "float32"), ("int32", "float64"),
             ("float32", "float32"), ("float64", "float64"))
    for name in ("xlogy", "xlog1py", "beta", "betaln", "gammainc", "gammaincc"):
        func = getattr(special, name)
        for dtype, want in cases:
            x, y = cp.arange(1, 4).astype(dtype), cp.arange(2, 5).astype(dtype)
            got = func(x, y)
            assert got.dtype == numpy.dtype(want), (name, dtype, got.dtype)
            ref = getattr(scipy.special, name)(x.get().astype(numpy.float64),
                                               y.get().astype(numpy.float64))
            numpy.testing.assert_allclose(got.get(), ref,
                                          rtol=1e-5 if want == "float32" else 1e-12)
    x32 = cp.array([0.0, 0.5, 2.0], dtype=cp.float32)
    # A scalar beside an array takes the array's loop; xlogy(0, y) is 0.
    assert special.xlogy(x32, 2.0).dtype == numpy.float32
    assert special.betaln(x32 + 1, numpy.float64(2.0)).dtype == numpy.float32
    assert float(special.xlogy(x32, 0.0)[0]) == 0.0
    assert special.xlogy(x32.astype(cp.complex64), x32 + 1).dtype == numpy.complex64
    with pytest.raises(TypeError):
        special.betaln(x32.astype(cp.complex64), x32)
    with pytest.raises(TypeError):
        special.xlogy(x32, x32.get())
    out = cp.empty(3, dtype=cp.float64)
    assert special.betaln(x32 + 1, x32 + 1, out=out) is out
    assert isinstance(special.betaln(2.5, 4.0), cp.ndarray)


def test_logsumexp_is_cupys(special, cp):
    # CuPy's logsumexp runs cupy operations on `a` itself: cupy.max(a) is
    # a's method (a list or a number is AttributeError) and the exponential
    # takes cupy.exp's loop (int8 -> float16, int16 -> float32). SciPy's,
    # which the fake delegated to, took lists and computed integers in
    # float64.
    import scipy.special
    for dtype, want in (("int8", "float16"), ("int16", "float32"), ("int64", "float64"),
                        ("float16", "float16"), ("float32", "float32")):
        got = special.logsumexp(cp.arange(4).astype(dtype))
        assert isinstance(got, cp.ndarray) and got.dtype == numpy.dtype(want), (dtype, got)
        assert float(got) == pytest.approx(scipy.special.logsumexp(numpy.arange(4.0)),
                                           rel=2e-3 if want == "float16" else 1e-6)
    for arg in ([1.0, 2.0], 3.0):
        with pytest.raises(AttributeError, match="has no attribute 'max'"):
            special.logsumexp(arg)
    with pytest.raises(TypeError):
        special.logsumexp(numpy.array([1.0, 2.0]))
    # Weights, signs, axes and the infinite cases agree with SciPy.
    a = cp.array([[1.0, 2.0, -cp.inf], [3.0, -cp.inf, 0.5]])
    b = cp.array([[1.0, -1.0, 2.0], [0.0, 2.0, 1.0]])
    got, sgn = special.logsumexp(a, axis=1, b=b, return_sign=True)
    ref, rsgn = scipy.special.logsumexp(a.get(), axis=1, b=b.get(), return_sign=True)
    numpy.testing.assert_allclose(got.get(), ref, rtol=1e-14)
    numpy.testing.assert_array_equal(sgn.get(), rsgn)
    assert special.logsumexp(a, axis=(0, 1), keepdims=True).shape == (1, 1)
    assert float(special.logsumexp(cp.array([-cp.inf, -cp.inf]))) == -numpy.inf
    assert float(special.logsumexp(cp.array([cp.inf, 1.0]))) == numpy.inf


def test_softmax_and_log_softmax_are_cupys(special, cp):
    # CuPy computes both with cupy operations on x itself (amax calls x's
    # method): a list is AttributeError, where SciPy's, which the fake
    # delegated to, took it. Values and dtypes agree with SciPy's.
    import scipy.special
    x = cp.asarray(numpy.linspace(-3.0, 4.0, 12).reshape(3, 4))
    for axis in (None, 0, 1):
        numpy.testing.assert_allclose(special.softmax(x, axis=axis).get(),
                                      scipy.special.softmax(x.get(), axis=axis), rtol=1e-13)
        numpy.testing.assert_allclose(special.log_softmax(x, axis=axis).get(),
                                      scipy.special.log_softmax(x.get(), axis=axis), rtol=1e-13)
    assert special.log_softmax(cp.arange(4, dtype=cp.int8)).dtype == numpy.float16
    assert special.softmax(cp.arange(4, dtype=cp.int16)).dtype == numpy.float32
    for func in (special.softmax, special.log_softmax):
        with pytest.raises(AttributeError):
            func([1.0, 2.0])
