"""cupyx.scipy.ndimage's interpolation computes in the image's precision, as
CuPy's kernels do (cupyx/scipy/ndimage/_interp_kernels.py): a float32 image
is prefiltered in float32 and its samples summed in float32, with float32
weights when the coordinates are float32. The fake took SciPy's values,
computed in double and rounded once, a few units in the last place away
from CuPy's; resampling scripts that compare a GPU run with a stored result
bit for bit saw the difference only on a GPU."""
import numpy
import pytest
import scipy.ndimage


f32 = numpy.float32


def _linear_in_float32(image, coordinates):
    """What CuPy's order-1 kernel computes for a 1-D float32 image at float32
    coordinates: float32 weights, each product and the sum rounded to
    float32."""
    out = []
    for c in coordinates:
        lo = int(numpy.floor(c))
        w0, w1 = f32(lo + 1) - c, c - f32(lo)
        out.append(f32(f32(0) + image[lo] * w0) + image[lo + 1] * w1)
    return numpy.array(out, dtype=f32)


def test_map_coordinates_sums_in_float32(ndi, cp):
    rng = numpy.random.default_rng(1)
    image = rng.random(16).astype(f32)
    coordinates = (rng.random(200) * 14).astype(f32)
    got = ndi.map_coordinates(cp.asarray(image), cp.asarray(coordinates[None]),
                              order=1)
    assert got.dtype == f32
    expected = _linear_in_float32(image, coordinates)
    numpy.testing.assert_array_equal(got.get(), expected)
    # Rounded once from double, as SciPy computes, some values differ.
    in_double = scipy.ndimage.map_coordinates(
        image.astype(numpy.float64), coordinates[None].astype(numpy.float64),
        order=1).astype(f32)
    assert (in_double != expected).any()


def test_float32_image_is_prefiltered_and_sampled_in_float32(ndi, cp):
    rng = numpy.random.default_rng(2)
    image = rng.random((12, 10)).astype(f32)
    in_double = scipy.ndimage.zoom(image.astype(numpy.float64), 1.7, order=3)
    got = ndi.zoom(cp.asarray(image), 1.7, order=3)
    assert got.dtype == f32 and got.shape == in_double.shape
    numpy.testing.assert_allclose(got.get(), in_double, rtol=0, atol=2e-6)
    assert (got.get() != in_double.astype(f32)).any()
    # A float64 image is computed in double: SciPy's values.
    numpy.testing.assert_allclose(
        ndi.zoom(cp.asarray(image.astype(numpy.float64)), 1.7, order=3).get(),
        in_double, rtol=0, atol=1e-14)
    # spline_filter with a float32 output filters in float32.
    filtered = ndi.spline_filter(cp.asarray(image), output=f32)
    in_double = scipy.ndimage.spline_filter(image.astype(numpy.float64))
    numpy.testing.assert_allclose(filtered.get(), in_double, atol=2e-6)
    assert (filtered.get() != in_double.astype(f32)).any()


@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["constant", "grid-constant", "nearest",
                                  "mirror", "reflect", "grid-mirror",
                                  "wrap", "grid-wrap"])
def test_modes_and_orders_agree_with_scipy_to_float32(ndi, cp, order, mode):
    rng = numpy.random.default_rng(order)
    image = rng.random((6, 7)).astype(f32)
    host = image.astype(numpy.float64)
    d_image = cp.asarray(image)
    pairs = [
        (ndi.shift(d_image, (0.3, -1.7), order=order, mode=mode, cval=0.5),
         scipy.ndimage.shift(host, (0.3, -1.7), order=order, mode=mode,
                             cval=0.5)),
        (ndi.rotate(d_image, 23, order=order, mode=mode, cval=0.25),
         scipy.ndimage.rotate(host, 23, order=order, mode=mode, cval=0.25)),
        (ndi.affine_transform(d_image, cp.asarray([[0.9, 0.2], [-0.1, 1.1]]),
                              (0.4, -0.35), order=order, mode=mode),
         scipy.ndimage.affine_transform(host, [[0.9, 0.2], [-0.1, 1.1]],
                                        (0.4, -0.35), order=order, mode=mode)),
    ]
    for got, want in pairs:
        assert got.dtype == f32 and got.shape == want.shape
        if order > 0:
            numpy.testing.assert_allclose(got.get(), want, rtol=0, atol=2e-6)


def test_integer_output_is_rounded_and_converted_as_on_a_gpu(ndi, cp):
    # A cubic spline overshoots next to a step: the sum is below 0 and
    # above 255 there. CuPy's kernel stores (unsigned char)rint(sum): on a
    # GPU a negative value gives 0 and one past 255 its low bits (the
    # 32-bit conversion saturates, the narrowing truncates).
    step = numpy.zeros((4, 12), dtype=numpy.uint8)
    step[:, 6:] = 255
    got = ndi.zoom(cp.asarray(step), (1, 1.5), order=3).get()
    assert got.dtype == numpy.uint8
    sums = numpy.rint(ndi.zoom(cp.asarray(step, dtype=numpy.float64),
                               (1, 1.5), order=3).get())
    assert (sums < 0).any() and (sums > 255).any()
    expected = numpy.where(sums < 0, 0, sums).astype(numpy.int64) % 256
    numpy.testing.assert_array_equal(got, expected)


def test_zoom_kernel_has_no_cval(ndi, cp):
    # CuPy's zoom builds its kernel without cval: outside the image, with
    # grid_mode in 'constant' mode, it samples 0 (SciPy samples cval).
    image = cp.ones((4, 4), dtype=f32)
    with pytest.warns(UserWarning, match="grid-constant"):
        got = ndi.zoom(image, 1.5, order=0, mode="constant", cval=7.0,
                       grid_mode=True)
    assert 7.0 not in got.get() and 0.0 in got.get()
