"""cupy.fft's and cupyx.scipy.fft's transforms take CuPy's arguments and
give CuPy's dtypes and layouts (cupy/fft/_fft.py, cupyx/scipy/fft/_fft.py),
where the fake had NumPy's and SciPy's: spectral solvers, optics and
tomography code met these differences (a list transformed, NumPy's `out=`
and SciPy's `workers=` taken, float16 half-spectra inverted to float16, a
transform along axis 0 returned C-contiguous where CuPy's is not, NumPy
2's DeprecationWarning for `s` without `axes`)."""
import types
import warnings

import numpy
import pytest

import fake_cupy


@pytest.fixture
def fx(cp):
    """cupy and cupyx.scipy.fft (sfft), imported as a program imports them."""
    fake_cupy.install()
    try:
        import cupyx.scipy.fft
        yield types.SimpleNamespace(cupy=cp, sfft=cupyx.scipy.fft)
    finally:
        fake_cupy.uninstall()


def test_a_list_or_a_numpy_array_is_refused_as_cupy_refuses_it(fx):
    cp, sfft = fx.cupy, fx.sfft
    for module in (cp.fft, sfft):
        for func in (module.fft, module.rfft, module.ihfft, module.irfft):
            with pytest.raises(TypeError,
                               match="input array a must be a cupy.ndarray"):
                func([1.0, 2.0, 3.0])
            with pytest.raises(TypeError,
                               match="input array a must be a cupy.ndarray"):
                func(numpy.ones(4))
        # The N-D transforms read a.ndim first.
        with pytest.raises(AttributeError, match="no attribute 'ndim'"):
            module.fft2([[1.0, 2.0], [3.0, 4.0]])
        # hfft begins with a.conj().
        with pytest.raises(AttributeError, match="no attribute 'conj'"):
            module.hfft([1.0, 2.0])


def test_keywords_cupy_lacks_are_refused(fx):
    cp, sfft = fx.cupy, fx.sfft
    x = cp.arange(8, dtype=cp.float32)
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        cp.fft.fft(x, out=cp.empty(8, cp.complex64))
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        sfft.fft(x, workers=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        sfft.rfftn(x.reshape(2, 4), workers=-1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'device'"):
        cp.fft.fftfreq(8, device="cpu")
    with pytest.raises(TypeError, match="unexpected keyword argument 'xp'"):
        sfft.rfftfreq(8, 0.5, xp=numpy)
    with pytest.raises(TypeError, match="unexpected keyword argument 'overwrite_x'"):
        cp.fft.fft(x, overwrite_x=True)
    # What CuPy takes still works, by position and by name.
    y = cp.fft.fft(x, None, -1, "ortho")
    assert y.dtype == cp.complex64
    z = sfft.fft2(x.reshape(2, 4), s=(2, 4), axes=(0, 1), norm="forward",
                  overwrite_x=False)
    numpy.testing.assert_allclose(
        z.get(), numpy.fft.fft2(x.get().reshape(2, 4), norm="forward"),
        rtol=1e-6)


def test_norm_is_checked_with_cupys_message(fx):
    x = fx.cupy.ones(4, fx.cupy.complex64)
    with pytest.raises(ValueError, match='Invalid norm value bogus, should be '
                       '"backward", "ortho", or "forward"'):
        fx.cupy.fft.ifft(x, norm="bogus")


def test_output_dtypes_follow_cupys_conversions(fx):
    cp, sfft = fx.cupy, fx.sfft
    half = cp.arange(8, dtype=cp.float16)
    for module in (cp.fft, sfft):
        # float16 is computed as complex64 / float32, never given back as
        # float16 (NumPy's hfft and irfft of float16 gave float16).
        assert module.hfft(half).dtype == cp.float32
        assert module.irfft(half).dtype == cp.float32
        assert module.fft(half).dtype == cp.complex64
        assert module.rfft(half).dtype == cp.complex64
        assert module.ihfft(half).dtype == cp.complex64
        assert module.irfftn(half.reshape(2, 4)).dtype == cp.float32
        assert module.fft(cp.arange(4)).dtype == cp.complex128
        assert module.irfft(cp.arange(5)).dtype == cp.float64
    ref = numpy.fft.hfft(numpy.arange(8, dtype=numpy.float32))
    numpy.testing.assert_allclose(cp.fft.hfft(half).get(), ref, rtol=1e-5)


def test_s_without_axes_gives_no_numpy_deprecation_warning(fx):
    cp = fx.cupy
    a = cp.ones((4, 6), cp.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = cp.fft.fftn(a, s=(4, 4))
        part = cp.fft.fftn(a, s=(None, 8), axes=(0, 1))
        padded = fx.sfft.rfft2(a, s=(8, 8))
    assert out.shape == (4, 4) and part.shape == (4, 8)
    assert padded.shape == (8, 5)


def test_complex_transform_over_no_axes_is_the_input_itself(fx):
    cp = fx.cupy
    c = cp.ones((2, 4), cp.complex64)
    assert cp.fft.fft2(c, axes=()) is c
    assert fx.sfft.fftn(c, axes=()) is c
    with pytest.raises(IndexError):
        cp.fft.rfft2(c.real.copy(), axes=())


def test_a_transform_along_a_leading_axis_has_cupys_layout(fx):
    cp, sfft = fx.cupy, fx.sfft
    host = numpy.random.default_rng(1).standard_normal((3, 4, 5))
    a = cp.asarray(host)
    # CuPy swaps the axis last, transforms a C-contiguous copy and swaps
    # back: the result is a transposed view, not C-contiguous.
    y = cp.fft.fft(a, axis=0)
    assert not y.flags.c_contiguous
    assert y.strides == (16, 3 * 16, 12 * 16)
    numpy.testing.assert_allclose(y.get(), numpy.fft.fft(host, axis=0))
    r = sfft.rfft(a, axis=1)
    assert r.shape == (3, 3, 5) and r.strides == (240, 16, 48)
    # Along the last axis, and through one N-D plan, it stays C-ordered.
    assert cp.fft.fft(a, axis=-1).flags.c_contiguous
    assert cp.fft.fft2(a, axes=(0, 1)).flags.c_contiguous
    # Axes an N-D plan cannot take are done one at a time, the last one
    # given deciding the layout.
    z = cp.fft.fftn(a, axes=(2, 0))
    assert z.strides == (16, 3 * 16, 12 * 16)
    numpy.testing.assert_allclose(z.get(), numpy.fft.fftn(host, axes=(2, 0)))


def test_frequencies_and_shifts_as_cupys(fx):
    cp, sfft = fx.cupy, fx.sfft
    x = cp.linspace(0, 1, 9)
    # A spacing that is a cupy 0-d array gives a cupy array.
    f = cp.fft.fftfreq(8, d=x[1] - x[0])
    assert isinstance(f, cp.ndarray) and f.dtype == cp.float64
    numpy.testing.assert_allclose(f.get(), numpy.fft.fftfreq(8, 0.125))
    r = sfft.rfftfreq(9, numpy.float32(0.5))
    assert r.dtype == cp.float64
    numpy.testing.assert_allclose(r.get(), numpy.fft.rfftfreq(9, 0.5))
    # fftshift copies what it is given to the device, a NumPy array too.
    host = numpy.arange(12).reshape(3, 4)
    s = cp.fft.fftshift(host)
    assert isinstance(s, cp.ndarray)
    numpy.testing.assert_array_equal(s.get(), numpy.fft.fftshift(host))
    numpy.testing.assert_array_equal(
        sfft.ifftshift([1, 2, 3, 4, 5]).get(), numpy.fft.ifftshift([1, 2, 3, 4, 5]))
    numpy.testing.assert_array_equal(
        cp.fft.fftshift(cp.asarray(host), axes=1).get(),
        numpy.fft.fftshift(host, axes=1))


def test_dct_and_dst_take_cupys_arguments_and_types(fx):
    sfft = fx.sfft
    x = fx.cupy.arange(8, dtype=fx.cupy.float32)
    y = sfft.dct(x, 2, None, -1, "ortho", False)
    assert y.dtype == fx.cupy.float32
    numpy.testing.assert_allclose(
        y.get(), __import__("scipy.fft").fft.dct(x.get(), norm="ortho"),
        rtol=1e-5, atol=1e-5)
    assert sfft.idstn(x.reshape(2, 4), type=3).shape == (2, 4)
    with pytest.raises(TypeError, match="unexpected keyword argument 'orthogonalize'"):
        sfft.dct(x, norm="ortho", orthogonalize=False)
    with pytest.raises(TypeError, match="unexpected keyword argument 'workers'"):
        sfft.dctn(x.reshape(2, 4), workers=2)
    with pytest.raises(NotImplementedError, match="Only DST-II and DST-III"):
        sfft.idst(x, type=1)
    with pytest.raises(NotImplementedError, match="Only DCT-II and DCT-III"):
        sfft.dctn(x.reshape(2, 4), type=4)
    with pytest.raises(ValueError, match="invalid DCT type"):
        sfft.idct(x, type=5)
    with pytest.raises(AttributeError, match="no attribute 'dtype'"):
        sfft.dct([1.0, 2.0])


def test_fftpack_takes_cupys_arguments(fx):
    import cupyx.scipy.fftpack as pack
    cp = fx.cupy
    a = cp.asarray(numpy.random.default_rng(2).standard_normal((3, 4, 5)))
    with pytest.raises(TypeError, match="input array a must be a cupy.ndarray"):
        pack.fft([1.0, 2.0])
    with pytest.raises(AttributeError, match="no attribute 'shape'"):
        pack.rfft([1.0, 2.0])
    with pytest.raises(TypeError, match="unexpected keyword argument 'plan'"):
        pack.irfft(a, plan=None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'norm'"):
        pack.fft(a, norm="ortho")
    # irfft builds its device array from what it is given, a NumPy array too.
    host = numpy.arange(8.0)
    numpy.testing.assert_allclose(pack.irfft(host).get(),
                                  __import__("scipy.fftpack").fftpack.irfft(host))
    y = pack.fft(a, 5, 0)
    assert y.strides == (16, 5 * 16, 20 * 16) and y.shape == (5, 4, 5)
    numpy.testing.assert_allclose(y.get(), numpy.fft.fft(a.get(), 5, axis=0))
    z = pack.fftn(a, shape=(4, 4), axes=(1, 2))
    assert z.shape == (3, 4, 4) and z.flags.c_contiguous
    assert pack.fft(a.astype(cp.float16)).dtype == cp.complex64


def test_none_in_s_keeps_the_axis_length(fx):
    cp = fx.cupy
    host = numpy.random.default_rng(4).standard_normal((4, 6))
    a = cp.asarray(host)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full = cp.fft.irfftn(cp.fft.rfftn(a), s=(None, None), axes=(0, 1))
        cut = cp.fft.fftn(a, s=(None, 4))
        packed = fx.sfft.fft2(a, s=(2, None))
    # An inverse real transform's None is the length its input implies.
    assert full.shape == (4, 6)
    numpy.testing.assert_allclose(full.get(), host, atol=1e-12)
    numpy.testing.assert_allclose(cut.get(), numpy.fft.fftn(host, s=(4, 4), axes=(0, 1)))
    numpy.testing.assert_allclose(packed.get(), numpy.fft.fft2(host, s=(2, 6)))
