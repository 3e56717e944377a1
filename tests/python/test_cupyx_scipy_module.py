"""cupyx.scipy.get_array_module, CuPy's way to write SciPy/CuPy generic code
(`xsp = cupyx.scipy.get_array_module(x); xsp.ndimage.gaussian_filter(x, 2)`):
cupyx.scipy when an argument is a CuPy array, else scipy. The fake's
cupyx.scipy had no such function (AttributeError)."""
import numpy
import pytest

import fake_cupy

scipy = pytest.importorskip("scipy")


def test_get_array_module_picks_cupyx_scipy_for_cupy_arrays(cp):
    fake_cupy.install()
    try:
        import cupyx.scipy
        import cupyx.scipy.ndimage
        x = cp.arange(12.0).reshape(3, 4)
        xsp = cupyx.scipy.get_array_module(x)
        assert xsp is cupyx.scipy
        out = xsp.ndimage.uniform_filter(x, 3)
        assert isinstance(out, cp.ndarray)
        assert cupyx.scipy.get_array_module(numpy.zeros(2), 1.0) is scipy
        assert cupyx.scipy.get_array_module() is scipy
        assert cupyx.scipy.get_array_module(numpy.zeros(2), x) is cupyx.scipy
    finally:
        fake_cupy.uninstall()


def _bilinear(image, y, x, outside):
    """OpenCV's bilinear sample of a 2-D image at (y, x): pixels outside
    the image are `outside` (BORDER_CONSTANT), or the nearest edge pixel
    when outside is None (BORDER_REPLICATE)."""
    def pixel(r, c):
        if outside is None:
            r = min(max(r, 0), image.shape[0] - 1)
            c = min(max(c, 0), image.shape[1] - 1)
        elif not (0 <= r < image.shape[0] and 0 <= c < image.shape[1]):
            return outside
        return image[r, c]
    r0, c0 = int(numpy.floor(y)), int(numpy.floor(x))
    fy, fx = y - r0, x - c0
    return ((1 - fy) * ((1 - fx) * pixel(r0, c0) + fx * pixel(r0, c0 + 1))
            + fy * ((1 - fx) * pixel(r0 + 1, c0) + fx * pixel(r0 + 1, c0 + 1)))


def test_ndimage_opencv_mode_samples_as_opencv(cp):
    # CuPy adds mode='opencv' to the interpolation functions ("performs like
    # cv2.warpAffine or cv2.resize"); the fake's SciPy delegates refused it
    # (RuntimeError: boundary mode not supported). The model: OpenCV's
    # bilinear sampling, its forward (x, y) matrix inverted, its border.
    fake_cupy.install()
    try:
        import cupyx.scipy.ndimage as ndi
    finally:
        fake_cupy.uninstall()
    img = numpy.arange(20, dtype=numpy.float64).reshape(4, 5) ** 1.5
    x = cp.asarray(img)
    # cv2.warpAffine(img, M, (5, 4), flags=INTER_LINEAR, borderValue=-1):
    # dst(x, y) = src(M^-1 (x, y)); here a rotation by 20 degrees and a move.
    t = numpy.radians(20)
    m = numpy.array([[numpy.cos(t), -numpy.sin(t), 0.7],
                     [numpy.sin(t), numpy.cos(t), -0.4]])
    got = ndi.affine_transform(x, cp.asarray(m), output_shape=(4, 5), order=1,
                               mode="opencv", cval=-1.0)
    assert isinstance(got, cp.ndarray) and got.dtype == numpy.float64
    inv = numpy.linalg.inv(numpy.vstack([m, [0, 0, 1]]))
    want = numpy.empty((4, 5))
    for r in range(4):
        for c in range(5):
            sx, sy, _ = inv @ [c, r, 1]
            want[r, c] = _bilinear(img, sy, sx, -1.0)
    numpy.testing.assert_allclose(got.get(), want, atol=1e-12)
    # shift: out[i] = in[i - s], the constant border blended in.
    got = ndi.shift(x, (0.5, -1.25), order=1, mode="opencv", cval=2.0)
    want = [[_bilinear(img, r - 0.5, c + 1.25, 2.0) for c in range(5)]
            for r in range(4)]
    numpy.testing.assert_allclose(got.get(), want, atol=1e-12)
    # cv2.resize(INTER_LINEAR): pixel centres aligned, edges repeated.
    got = ndi.zoom(x, (1.5, 0.8), order=1, mode="opencv")
    assert got.shape == (6, 4)
    want = [[_bilinear(img, (r + 0.5) * 4 / 6 - 0.5, (c + 0.5) * 5 / 4 - 0.5,
                       None) for c in range(4)] for r in range(6)]
    numpy.testing.assert_allclose(got.get(), want, atol=1e-12)
    # map_coordinates: a point half outside blends the edge with cval.
    got = ndi.map_coordinates(x, cp.asarray([[-0.5, 3.0], [2.0, 4.5]]),
                              order=1, mode="opencv", cval=10.0)
    numpy.testing.assert_allclose(
        got.get(), [(img[0, 2] + 10) / 2, (img[3, 4] + 10) / 2])
    # rotate: SciPy's geometry, the border constant: 90 degrees of a square
    # is rot90; a corner of a 45-degree rotation is cval.
    sq = cp.asarray(img[:4, :4])
    numpy.testing.assert_allclose(
        ndi.rotate(sq, 90, order=1, mode="opencv").get(),
        numpy.rot90(img[:4, :4]), atol=1e-12)
    turned = ndi.rotate(sq, 45, order=1, mode="opencv", cval=-7.0).get()
    assert turned.shape == (6, 6) and turned[0, 0] == -7.0
    # Other modes are SciPy's, unchanged.
    numpy.testing.assert_allclose(
        ndi.shift(x, 1, order=1, mode="nearest").get(),
        scipy.ndimage.shift(img, 1, order=1, mode="nearest"))
