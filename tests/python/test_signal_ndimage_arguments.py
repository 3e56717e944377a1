"""Arguments of cupy.arange, cupyx.scipy.signal and cupyx.scipy.ndimage that
CuPy 13 takes and SciPy/NumPy do not (or the reverse), met in public image-
and signal-processing programs run on the fake."""
import numpy
import pytest

import fake_cupy

scipy = pytest.importorskip("scipy")
import scipy.ndimage  # noqa: E402
import scipy.signal  # noqa: E402


@pytest.fixture
def cupyx_scipy(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy.ndimage
        import cupyx.scipy.signal
        yield cupyx.scipy
    finally:
        fake_cupy.uninstall()


def test_arange_takes_zero_dim_array_bounds(cp):
    # A label-relabelling step: lut[mask] = cupy.arange(1, mask.sum() + 1).
    # CuPy's arange computes the length with int(ceil((stop - start) / step))
    # and picks float only for a float-typed Python or NumPy scalar bound; a
    # 0-d array's type is not one, so the result is int64 even for a float
    # bound, where NumPy's would be float64.
    mask = cp.asarray([True, False, True, True])
    r = cp.arange(1, mask.sum() + 1)
    assert isinstance(r, cp.ndarray) and r.dtype == numpy.int64
    assert r.tolist() == [1, 2, 3]
    r = cp.arange(cp.asarray(3.5))
    assert r.dtype == numpy.int64 and r.tolist() == [0, 1, 2, 3]
    assert cp.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert cp.arange(2, 8, 3, dtype=cp.float32).dtype == numpy.float32
    assert cp.arange(5, 1).shape == (0,)


@pytest.mark.parametrize("name", ["spectrogram", "welch", "periodogram", "stft"])
def test_spectral_functions_copy_host_input_to_the_device(cupyx_scipy, cp, name):
    # CuPy's spectral functions begin with cupy.asarray(x): a NumPy signal
    # (a host-side filtfilt's result, say) or a list is taken and the
    # results are cupy arrays.
    x = numpy.sin(numpy.arange(400) * 0.3) + numpy.cos(numpy.arange(400) * 0.05)
    ours = getattr(cupyx_scipy.signal, name)
    theirs = getattr(scipy.signal, name)
    kwargs = {} if name == "periodogram" else {"nperseg": 64}
    for arg in (x, list(x)):
        got = ours(arg, 100.0, **kwargs)
        want = theirs(x, 100.0, **kwargs)
        for g, w in zip(got, want):
            assert isinstance(g, cp.ndarray)
            numpy.testing.assert_allclose(g.get(), w, rtol=1e-12, atol=1e-12)


def test_istft_and_csd_copy_host_input_to_the_device(cupyx_scipy, cp):
    x = numpy.cos(numpy.arange(256) * 0.2)
    _, _, z = scipy.signal.stft(x, nperseg=32)
    t, back = cupyx_scipy.signal.istft(z, nperseg=32)
    assert isinstance(back, cp.ndarray)
    numpy.testing.assert_allclose(back.get()[:256], x, atol=1e-12)
    f, pxy = cupyx_scipy.signal.csd(x, cp.asarray(x[::-1].copy()), nperseg=32)
    assert isinstance(pxy, cp.ndarray) and isinstance(f, cp.ndarray)


def test_wiener_takes_a_float_window_size(cupyx_scipy, cp):
    # A plugin passes radius * 2 + 1 with a float radius: CuPy converts
    # each size with int(), SciPy's np.ones(5.0) raises TypeError.
    image = cp.asarray(numpy.random.default_rng(0).random((12, 14)))
    got = cupyx_scipy.signal.wiener(image, 5.0)
    want = scipy.signal.wiener(image.get(), 5)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-12)
    got = cupyx_scipy.signal.wiener(image.astype(cp.float32), (3.0, 5))
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(
        got.get(), scipy.signal.wiener(image.get().astype(numpy.float32), (3, 5)),
        rtol=1e-6)


def test_distance_transform_edt_takes_cupy_keywords(cupyx_scipy, cp):
    # float64_distances and block_params are CuPy's keyword-only arguments;
    # float64_distances=False gives float32 distances. CuPy transforms 2-D
    # and 3-D images only.
    ndi = cupyx_scipy.ndimage
    mask = numpy.ones((9, 11), bool)
    mask[4, 5] = mask[0, 0] = False
    want = scipy.ndimage.distance_transform_edt(mask, sampling=(0.5, 2.0))
    got = ndi.distance_transform_edt(cp.asarray(mask), sampling=(0.5, 2.0),
                                     float64_distances=True)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-12)
    got = ndi.distance_transform_edt(cp.asarray(mask), float64_distances=False,
                                     block_params=None)
    assert got.dtype == numpy.float32
    d, i = ndi.distance_transform_edt(cp.asarray(mask), return_indices=True,
                                      float64_distances=False)
    assert d.dtype == numpy.float32 and i.shape == (2, 9, 11)
    with pytest.raises(NotImplementedError):
        ndi.distance_transform_edt(cp.asarray([0, 1, 1, 0]))
    with pytest.raises(TypeError):
        ndi.distance_transform_edt(cp.asarray(mask), None, True, False, None,
                                   None, None)


def test_find_peaks_properties_are_device_arrays(cupyx_scipy, cp):
    # A peak picker reads props["peak_heights"].get(): CuPy's find_peaks
    # returns its properties as cupy arrays, as it returns the peaks.
    x = numpy.sin(numpy.arange(200) * 0.3) * (1 + numpy.arange(200) / 200)
    peaks, props = cupyx_scipy.signal.find_peaks(
        cp.asarray(x), height=0.5, prominence=0.1, width=1)
    want_peaks, want = scipy.signal.find_peaks(x, height=0.5, prominence=0.1,
                                               width=1)
    assert isinstance(peaks, cp.ndarray)
    assert peaks.get().tolist() == want_peaks.tolist()
    assert sorted(props) == sorted(want)
    for key, value in props.items():
        assert isinstance(value, cp.ndarray), key
        numpy.testing.assert_allclose(value.get(), want[key])


def test_detrend_and_deconvolve_copy_host_input_to_the_device(cupyx_scipy, cp):
    # CuPy's detrend begins with cupy.asarray(data), deconvolve with
    # cupy.atleast_1d on both of its arguments.
    data = numpy.arange(20.0) * 0.5 + numpy.sin(numpy.arange(20.0))
    got = cupyx_scipy.signal.detrend(data)
    assert isinstance(got, cp.ndarray)
    numpy.testing.assert_allclose(got.get(), scipy.signal.detrend(data), atol=1e-12)
    quot, rem = cupyx_scipy.signal.deconvolve([0, 2, 1, 0, 2, 3, 1, 0, 0], [2, 1])
    assert isinstance(quot, cp.ndarray) and isinstance(rem, cp.ndarray)
    assert quot.get().tolist() == [0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]


def test_lfilter_needs_array_coefficients(cupyx_scipy, cp):
    # CuPy's lfilter begins with a0 = a[0]; a_r = -a[1:] / a0: SciPy's FIR
    # idiom lfilter(taps, 1.0, x) and list coefficients are TypeErrors there.
    sig = cupyx_scipy.signal
    x = cp.asarray(numpy.sin(numpy.arange(50) * 0.4))
    taps = cp.asarray([0.25, 0.5, 0.25])
    with pytest.raises(TypeError, match="not subscriptable"):
        sig.lfilter(taps, 1.0, x)
    with pytest.raises(TypeError, match="unary -"):
        sig.lfilter([1.0, -0.97], [1.0], x)
    with pytest.raises(TypeError):
        sig.lfilter_zi([1.0, 1.0], [1.0, -0.5])
    got = sig.lfilter(taps, cp.asarray([1.0]), x)
    numpy.testing.assert_allclose(
        got.get(), scipy.signal.lfilter(taps.get(), [1.0], x.get()), rtol=1e-12)
    b, a = sig.butter(3, 0.2)
    zi = sig.lfilter_zi(b, a)
    y, zf = sig.lfilter(b, a, x, zi=zi * x[0])
    assert isinstance(y, cp.ndarray) and isinstance(zf, cp.ndarray)


def test_next_fast_len_uses_cufft_radices(cupyx_scipy):
    # CuPy's next_fast_len is 7-smooth whatever `real` says: pocketfft's
    # (SciPy's) is 11-smooth for complex and 5-smooth for real transforms.
    import cupyx.scipy.fft
    nfl = cupyx.scipy.fft.next_fast_len
    assert nfl(121) == 125 and scipy.fft.next_fast_len(121) == 121
    assert nfl(7, real=True) == 7 and scipy.fft.next_fast_len(7, True) == 8
    assert nfl(1001) == 1008 and nfl(0) == 0 and nfl(1) == 1
    assert all(nfl(n) >= n for n in range(1, 200))


def test_lfilter_zi_is_cupys_history_layout(cupyx_scipy, cp):
    # CuPy's lfilter (cupyx/scipy/signal/_signaltools.py) keeps as state the
    # last len(b) - 1 inputs and then the last len(a) - 1 outputs, oldest
    # first (len(b) + len(a) - 2 values, SciPy's max(len(a), len(b)) - 1 of
    # its transposed direct form II): "This argument differs from
    # dimensions from the SciPy implementation".
    sig = cupyx_scipy.signal
    rng = numpy.random.default_rng(0)
    host = rng.standard_normal(64)
    b = cp.asarray([0.2, 0.3, 0.1, 0.05])
    a = cp.asarray([1.0, -0.6, 0.2])
    x = cp.asarray(host)
    zero = cp.zeros(3 + 2)
    y, zf = sig.lfilter(b, a, x, zi=zero)
    assert zf.shape == (5,) and y.shape == (64,)
    whole = scipy.signal.lfilter(b.get(), a.get(), host)
    numpy.testing.assert_allclose(y.get(), whole, rtol=1e-12, atol=1e-12)
    # zf is the history itself: the last three inputs, the last two outputs.
    numpy.testing.assert_allclose(zf.get(), numpy.r_[host[-3:], whole[-2:]],
                                  rtol=1e-12)
    # Chained in two halves it continues the whole signal.
    y1, z1 = sig.lfilter(b, a, x[:40], zi=zero)
    y2, z2 = sig.lfilter(b, a, x[40:], zi=z1)
    numpy.testing.assert_allclose(cp.concatenate((y1, y2)).get(), whole,
                                  rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(z2.get(), zf.get(), rtol=1e-12)
    # A hand-made history: two earlier inputs 1.0 and outputs 0.5.
    history = cp.asarray([1.0, 1.0, 1.0, 0.5, 0.5])
    got, _ = sig.lfilter(b, a, x, zi=history)
    scipy_zi = scipy.signal.lfiltic(b.get(), a.get(), [0.5, 0.5],
                                    [1.0, 1.0, 1.0])
    numpy.testing.assert_allclose(
        got.get(), scipy.signal.lfilter(b.get(), a.get(), host, zi=scipy_zi)[0],
        rtol=1e-12, atol=1e-12)
    # lfiltic gives the same layout (x's part first, each oldest first).
    zi = sig.lfiltic(b, a, cp.asarray([0.5, 0.25]), cp.asarray([3.0, 2.0]))
    assert zi.get().tolist() == [0.0, 2.0, 3.0, 0.25, 0.5]
    assert sig.lfiltic(b, a, cp.asarray([0.5])).get().tolist() == [0.0, 0.5]
    # SciPy's zi (max(len(a), len(b)) - 1 = 3 values) is refused.
    with pytest.raises(ValueError, match="len\\(b\\) \\+ len\\(a\\) - 2 = 5"):
        sig.lfilter(b, a, x, zi=cp.zeros(3))


def test_lfilter_zi_steady_state_and_rows(cupyx_scipy, cp):
    sig = cupyx_scipy.signal
    b, a = sig.butter(2, 0.25)
    zi = sig.lfilter_zi(b, a)
    # The step response's steady state: earlier inputs 1, earlier outputs
    # the filter's gain at 0 Hz (1 for a low-pass Butterworth filter).
    assert zi.shape == (4,) and zi.dtype == numpy.float64
    numpy.testing.assert_allclose(zi.get(), [1.0, 1.0, 1.0, 1.0], rtol=1e-9)
    gain = sig.lfilter_zi(cp.asarray([2.0, 1.0]), cp.asarray([1.0, -0.5]))
    numpy.testing.assert_allclose(gain.get(), [1.0, 6.0], rtol=1e-12)
    x = cp.full(20, 3.0)
    y, _ = sig.lfilter(b, a, x, zi=zi * x[0])
    numpy.testing.assert_allclose(y.get(), 3.0, rtol=1e-9)
    # Rows of a 2-D signal along the last axis, one history per row; along
    # axis 0 the history runs down the columns.
    rows = cp.asarray(numpy.random.default_rng(1).standard_normal((3, 30)))
    zr = cp.zeros((3, 4))
    yr, zfr = sig.lfilter(b, a, rows, zi=zr)
    assert zfr.shape == (3, 4)
    numpy.testing.assert_allclose(
        yr.get(), scipy.signal.lfilter(b.get(), a.get(), rows.get()),
        rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(zfr.get()[:, :2], rows.get()[:, -2:])
    yc, zfc = sig.lfilter(b, a, rows.T, axis=0, zi=zr.T)
    assert zfc.shape == (4, 3)
    numpy.testing.assert_allclose(yc.get(), yr.get().T, rtol=1e-12, atol=1e-12)


def test_lfilter_of_a_signal_shorter_than_the_filter(cupyx_scipy, cp):
    # CuPy pads the signal with len(b) - 1 earlier inputs before its FIR
    # convolution, so a short signal is filtered right; its final state
    # takes x[n - (len(b) - 1):n] with Python's slice, assigned to
    # len(b) - 1 places: one value is broadcast, several cannot be.
    sig = cupyx_scipy.signal
    b = cp.asarray([0.5, 0.25, 0.125, 0.0625, 0.03125])
    a = cp.asarray([1.0])
    x = cp.asarray([1.0, 2.0])
    numpy.testing.assert_allclose(
        sig.lfilter(b, a, x).get(), scipy.signal.lfilter(b.get(), [1.0], x.get()))
    with pytest.raises(ValueError, match="fewer than len\\(b\\) - 1 = 4"):
        sig.lfilter(b, a, x, zi=cp.zeros(4))
    y, zf = sig.lfilter(b, a, cp.asarray([3.0, 1.0, 2.0]), zi=cp.ones(4))
    # The state holds four earlier inputs of 1.
    numpy.testing.assert_allclose(
        y.get(), scipy.signal.lfilter(b.get(), [1.0], [1.0] * 4 + [3.0, 1.0, 2.0])[4:])
    assert zf.get().tolist() == [2.0, 2.0, 2.0, 2.0]
    # The outputs' part of an IIR filter's state likewise.
    y, zf = sig.lfilter(cp.asarray([1.0]), cp.asarray([1.0, -0.5, 0.25]),
                        cp.asarray([4.0]), zi=cp.zeros(2))
    assert y.get().tolist() == [4.0] and zf.get().tolist() == [4.0, 4.0]


def test_lfilter_zi_with_a_zero_leading_denominator(cupyx_scipy, cp):
    # CuPy's lfilter_zi divides by a[0] without a check (SciPy strips leading
    # zeros of `a` instead): the inputs' part is ones, the outputs' NaN.
    sig = cupyx_scipy.signal
    zi = sig.lfilter_zi(cp.asarray([1.0, 1.0]), cp.asarray([0.0, 1.0, -0.5]))
    got = zi.get()
    assert got.shape == (3,) and got[0] == 1.0 and numpy.isnan(got[1:]).all()
    assert sig.lfilter_zi(cp.asarray([1.0, 2.0]), cp.asarray([0.0])).get().tolist() == [1.0]


def test_interpolation_checks_and_float16_are_cupys(cupyx_scipy, cp):
    # Tomography and registration code rotates, shifts and resamples
    # images with these functions. CuPy checks order and mode with
    # ValueError (SciPy: RuntimeError), reads coordinates.shape (a list is
    # AttributeError), and interpolates float16 images in float16 after a
    # float32 prefilter (SciPy refuses float16).
    ndi = cupyx_scipy.ndimage
    img = cp.arange(64.0).reshape(8, 8)
    with pytest.raises(ValueError, match=r"^spline order is not supported$"):
        ndi.rotate(img, 10, order=7)
    with pytest.raises(ValueError, match=r"^boundary mode \(edge\) is not supported$"):
        ndi.shift(img, 1, mode="edge")
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        ndi.map_coordinates(img, [[1.0], [2.0]], order=1)
    with pytest.raises(ValueError, match="coordinates should have floating point dtype"):
        ndi.map_coordinates(img, cp.zeros((2, 3), dtype=numpy.complex64), order=1)
    half = img.astype(numpy.float16)
    rotated = ndi.rotate(half, 30, reshape=False, order=1)
    assert rotated.dtype == numpy.float16
    numpy.testing.assert_allclose(
        rotated.get(), scipy.ndimage.rotate(img.get(), 30, reshape=False, order=1),
        atol=0.1)
    assert ndi.zoom(half, 2, order=3).dtype == numpy.float16
    assert ndi.map_coordinates(half, cp.ones((2, 3)), order=1).get().tolist() == [9.0] * 3


def test_label_takes_a_host_structure_as_cupy_does(cupyx_scipy, cp):
    # CuPy's label (cupyx/scipy/ndimage/_measurements.py) reads its structure
    # on the host: a NumPy array (scipy.ndimage.generate_binary_structure, the
    # usual way percolation code asks for diagonal neighbours) or a list is
    # taken; the fake's delegate refused a NumPy structure.
    grid = cp.asarray([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    eight = scipy.ndimage.generate_binary_structure(2, 2)
    labels, n = cupyx_scipy.ndimage.label(grid, structure=eight)
    assert n == 2 and isinstance(n, int)
    assert labels.dtype == numpy.int32
    assert labels.get().tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 1], [2, 0, 0]]
    _, n = cupyx_scipy.ndimage.label(grid, structure=[[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    assert n == 4
    out = cp.zeros(grid.shape, dtype=numpy.int64)
    assert cupyx_scipy.ndimage.label(grid, cp.asarray(eight), out) == 2
    assert out.get()[3, 0] == 2
    with pytest.raises(TypeError, match="input must be cupy.ndarray"):
        cupyx_scipy.ndimage.label(grid.get())
    with pytest.raises(RuntimeError, match="structure and input must have equal rank"):
        cupyx_scipy.ndimage.label(grid, structure=numpy.ones(3))
    with pytest.raises(ValueError, match="structure dimensions must be equal to 3"):
        cupyx_scipy.ndimage.label(grid, structure=numpy.ones((5, 5)))


def test_fourier_filters_take_float16_as_cupy_does(cupyx_scipy, cp):
    """cupyx.scipy.ndimage's Fourier filters pick their output dtype as
    CuPy's _get_output_fourier does: a float16 spectrum or image is filtered
    into float64 (complex128 for fourier_shift), where SciPy's raised
    RuntimeError('data type not supported'); complex64 and float32 inputs
    keep their dtype."""
    ndi = cupyx_scipy.ndimage
    host = numpy.random.default_rng(5).standard_normal((6, 8))
    half = cp.asarray(host.astype(numpy.float16))
    wide = half.astype(cp.float64)
    for name, arg in (("fourier_gaussian", 1.5), ("fourier_uniform", 2.0),
                      ("fourier_ellipsoid", 2.0), ("fourier_shift", 1.25)):
        func = getattr(ndi, name)
        out = func(half, arg)
        expected = cp.complex128 if name == "fourier_shift" else cp.float64
        assert out.dtype == expected, name
        numpy.testing.assert_allclose(out.get(), func(wide, arg).get())
    assert ndi.fourier_gaussian(cp.ones((4, 4), cp.complex64), 1.0).dtype == cp.complex64
    assert ndi.fourier_uniform(cp.ones((4, 4), cp.float32), 1.0).dtype == cp.float32
    assert ndi.fourier_shift(cp.ones((4, 4), cp.float32), 1.0).dtype == cp.complex128
