"""cupyx.scipy.ndimage's filters compute in CuPy's types: the correlation
kernel (cupyx/scipy/ndimage/_filters.py) sums `cast<W>(x) * w` over the
nonzero weights in the weights' row-major order, in the type W of the input
promoted with float32 (float64 for integer weights), and stores
`cast<Y>(sum)`; the built-in filters make their weights in that type too. A
float32 image is thus filtered in float32; the fake took SciPy's values,
summed in double and rounded once, a few units in the last place away.
The expected values here are summed one term at a time in NumPy scalars of
the kernel's types."""
import itertools

import numpy
import pytest
import scipy.ndimage


f32 = numpy.float32
f64 = numpy.float64

# The filters' modes as numpy.pad names them.
_PAD = {"reflect": "symmetric", "grid-mirror": "symmetric",
        "mirror": "reflect", "nearest": "edge", "wrap": "wrap",
        "grid-wrap": "wrap", "constant": "constant"}


def _kernel_sum(image, weights, w_type, mode="reflect", cval=0.0,
                origins=None):
    """CuPy's correlation kernel, one output point and one term at a time:
    the sum in w_type, each product and partial sum rounded to it."""
    w_type = numpy.dtype(w_type).type
    weights = numpy.asarray(weights).astype(w_type)
    origins = origins or [0] * image.ndim
    offsets = [n // 2 + o for n, o in zip(weights.shape, origins)]
    pad = [(n, n) for n in weights.shape]
    values = image.astype(w_type)
    if mode == "constant":
        padded = numpy.pad(values, pad, "constant",
                           constant_values=w_type(cval))
    else:
        padded = numpy.pad(values, pad, _PAD[mode])
    out = numpy.empty(image.shape, w_type)
    for point in numpy.ndindex(image.shape):
        total = w_type(0)
        for k in numpy.ndindex(weights.shape):
            if weights[k] == 0:
                continue
            at = tuple(p - off + kk + n for p, off, kk, n in
                       zip(point, offsets, k, weights.shape))
            total = w_type(total + w_type(padded[at] * weights[k]))
        out[point] = total
    return out


def _axis_weights(weights, axis, ndim):
    shape = [1] * ndim
    shape[axis] = len(weights)
    return numpy.reshape(weights, shape)


def _image(shape, seed):
    return numpy.random.default_rng(seed).standard_normal(shape).astype(f32)


def _gaussian_weights(sigma, order, truncate=4.0):
    """The correlation weights of gaussian_filter1d in double: SciPy's
    response to a unit impulse, reversed."""
    radius = int(truncate * sigma + 0.5)
    impulse = numpy.zeros(4 * radius + 3)
    centre = 2 * radius + 1
    impulse[centre] = 1.0
    response = scipy.ndimage.gaussian_filter1d(impulse, sigma, order=order,
                                               mode="constant")
    return response[centre - radius:centre + radius + 1][::-1]


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap",
                                  "grid-wrap", "constant"])
def test_correlate_and_convolve_sum_in_float32(ndi, cp, mode):
    image = _image((7, 9), 1)
    weights = _image((3, 4), 2)
    weights[1, 2] = 0.0
    expected = _kernel_sum(image, weights, f32, mode, 0.3)
    got = ndi.correlate(cp.asarray(image), cp.asarray(weights), mode=mode,
                        cval=0.3)
    assert got.dtype == f32
    numpy.testing.assert_array_equal(got.get(), expected)
    # Convolution correlates with the flipped weights, its origin moved
    # for an even extent.
    flipped = weights[::-1, ::-1]
    expected = _kernel_sum(image, flipped, f32, mode, 0.3, [0, -1])
    got = ndi.convolve(cp.asarray(image), cp.asarray(weights), mode=mode,
                       cval=0.3)
    numpy.testing.assert_array_equal(got.get(), expected)


def test_float32_correlate_differs_from_scipy(ndi, cp):
    image = _image((16, 16), 3)
    weights = _image((5, 5), 4)
    got = ndi.correlate(cp.asarray(image), cp.asarray(weights)).get()
    in_double = scipy.ndimage.correlate(image, weights)
    numpy.testing.assert_allclose(got, in_double, rtol=0, atol=1e-5)
    assert (got != in_double).any()
    # A float64 image is computed in double, as SciPy does.
    numpy.testing.assert_allclose(
        ndi.correlate(cp.asarray(image, dtype=f64), cp.asarray(weights)).get(),
        scipy.ndimage.correlate(image.astype(f64), weights), atol=1e-13)


def test_one_dimensional_filters(ndi, cp):
    image = _image((6, 11), 5)
    weights = numpy.array([0.25, -1.5, 0.7, 2.1], dtype=f64)
    for axis, origin in ((0, 0), (1, 1), (-1, -1)):
        origins = [0, 0]
        origins[axis] = origin
        expected = _kernel_sum(image, _axis_weights(weights, axis, 2), f32,
                               "nearest", origins=origins)
        got = ndi.correlate1d(cp.asarray(image), cp.asarray(weights), axis,
                              mode="nearest", origin=origin)
        numpy.testing.assert_array_equal(got.get(), expected)
        origins[axis] = -origin - 1
        expected = _kernel_sum(image, _axis_weights(weights[::-1], axis, 2),
                               f32, "nearest", origins=origins)
        got = ndi.convolve1d(cp.asarray(image), cp.asarray(weights), axis,
                             mode="nearest", origin=origin)
        numpy.testing.assert_array_equal(got.get(), expected)


def test_uniform_filters_use_float32_weights(ndi, cp):
    image = _image((8, 9), 6)
    third = numpy.full(3, 1 / 3, dtype=f32)
    fifth = numpy.full(5, 1 / 5, dtype=f32)
    expected = _kernel_sum(image, _axis_weights(fifth, 1, 2), f32)
    got = ndi.uniform_filter1d(cp.asarray(image), 5)
    numpy.testing.assert_array_equal(got.get(), expected)
    # One pass per axis, each stored in the output's type.
    first = _kernel_sum(image, _axis_weights(third, 0, 2), f32, "wrap")
    expected = _kernel_sum(first, _axis_weights(fifth, 1, 2), f32, "wrap")
    got = ndi.uniform_filter(cp.asarray(image), (3, 5), mode="wrap")
    numpy.testing.assert_array_equal(got.get(), expected)
    in_double = scipy.ndimage.uniform_filter(image, (3, 5), mode="wrap")
    assert (got.get() != in_double).any()


def test_float16_image_sums_in_float32(ndi, cp):
    # SciPy has no float16 filters (RuntimeError: array type not supported);
    # CuPy's kernel sums a float16 image in float32 and rounds the sum to
    # float16.
    image = _image((5, 9), 16).astype(numpy.float16)
    weights = _gaussian_weights(1.2, 1)
    expected = _kernel_sum(image, _axis_weights(weights, 1, 2), f32)
    got = ndi.gaussian_filter1d(cp.asarray(image), 1.2, order=1)
    assert got.dtype == numpy.float16
    numpy.testing.assert_array_equal(got.get(),
                                     expected.astype(numpy.float16))


def test_integer_image_sums_in_float32_and_truncates(ndi, cp):
    # A uint8 image is summed in float32 (uint8 promoted with float32) with
    # float32 weights, and the sum truncated to uint8.
    ones = cp.ones((1, 6), dtype=numpy.uint8)
    got = ndi.uniform_filter1d(ones, 3, mode="nearest")
    assert got.dtype == numpy.uint8
    numpy.testing.assert_array_equal(got.get(), numpy.ones((1, 6)))
    # A negative sum stored in an unsigned type is -(unsigned)(-sum):
    # -3.5 gives -(3) modulo 256.
    line = cp.asarray(numpy.array([[10, 10, 3, 3, 3]], dtype=numpy.uint8))
    got = ndi.correlate1d(line, cp.asarray([-0.5, 0.0, 0.5]),
                          mode="nearest")
    numpy.testing.assert_array_equal(got.get(), [[0, 253, 253, 0, 0]])
    # A signed output truncates toward zero.
    got = ndi.correlate1d(line, cp.asarray([-0.5, 0.0, 0.5]), mode="nearest",
                          output=numpy.int16)
    numpy.testing.assert_array_equal(got.get(), [[0, -3, -3, 0, 0]])
    # Integer weights are summed in double.
    big = cp.asarray(numpy.array([[16777217, 1, 0]], dtype=numpy.int32))
    got = ndi.correlate1d(big, cp.asarray([1, 1]), mode="constant")
    numpy.testing.assert_array_equal(got.get(), [[16777217, 16777218, 1]])


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_gaussian_filters(ndi, cp, order):
    image = _image((7, 12), 7 + order)
    weights = _gaussian_weights(1.3, order)
    expected = _kernel_sum(image, _axis_weights(weights, 1, 2), f32)
    got = ndi.gaussian_filter1d(cp.asarray(image), 1.3, order=order)
    assert got.dtype == f32
    numpy.testing.assert_array_equal(got.get(), expected)
    # gaussian_filter: one pass per axis, axis 0 first.
    first = _kernel_sum(image, _axis_weights(_gaussian_weights(0.8, order),
                                             0, 2), f32, "mirror")
    expected = _kernel_sum(first, _axis_weights(_gaussian_weights(1.3, 1),
                                                1, 2), f32, "mirror")
    got = ndi.gaussian_filter(cp.asarray(image), (0.8, 1.3), order=(order, 1),
                              mode="mirror")
    numpy.testing.assert_array_equal(got.get(), expected)


def test_derivative_filters(ndi, cp):
    image = _image((9, 10), 11)
    d_image = cp.asarray(image)
    for name, smooth in (("sobel", [1, 2, 1]), ("prewitt", [1, 1, 1])):
        for axis in (0, 1):
            weights = [[-1, 0, 1] if a == axis else smooth for a in (0, 1)]
            expected = image
            for a in (0, 1):
                expected = _kernel_sum(expected, _axis_weights(
                    numpy.array(weights[a], f32), a, 2), f32)
            got = getattr(ndi, name)(d_image, axis)
            numpy.testing.assert_array_equal(got.get(), expected)
    second = numpy.array([1, -2, 1], f32)
    expected = _kernel_sum(image, _axis_weights(second, 0, 2), f32) + \
        _kernel_sum(image, _axis_weights(second, 1, 2), f32)
    got = ndi.laplace(d_image)
    assert got.dtype == f32
    numpy.testing.assert_array_equal(got.get(), expected)
    in_double = scipy.ndimage.laplace(image.astype(f64)).astype(f32)
    assert (got.get() != in_double).any()


def test_gaussian_derivatives_add_in_the_output_type(ndi, cp):
    image = _image((8, 8), 12)
    d_image = cp.asarray(image)
    along = [ndi.gaussian_filter(d_image, 1.1, order=order).get()
             for order in ((2, 0), (0, 2))]
    got = ndi.gaussian_laplace(d_image, 1.1)
    numpy.testing.assert_array_equal(got.get(), along[0] + along[1])
    along = [ndi.gaussian_filter(d_image, 1.1, order=order).get()
             for order in ((1, 0), (0, 1))]
    got = ndi.gaussian_gradient_magnitude(d_image, 1.1)
    assert got.dtype == f32
    numpy.testing.assert_array_equal(
        got.get(), numpy.sqrt(along[0] * along[0] + along[1] * along[1]))


def test_generic_laplace_passes_cupy_arrays(ndi, cp):
    image = cp.asarray(_image((5, 6), 13))
    seen = []

    def derivative2(input, axis, output, mode, cval, scale):
        seen.append((type(input), type(output), axis, mode))
        ndi.correlate1d(input, cp.asarray([scale, -2 * scale, scale]), axis,
                        output, mode, cval)

    got = ndi.generic_laplace(image, derivative2, mode=["wrap", "nearest"],
                              extra_arguments=(0.5,))
    assert seen == [(cp.ndarray, cp.ndarray, 0, "wrap"),
                    (cp.ndarray, cp.ndarray, 1, "nearest")]
    host = image.get()
    weights = numpy.array([0.5, -1.0, 0.5], f32)
    expected = _kernel_sum(host, _axis_weights(weights, 0, 2), f32, "wrap") \
        + _kernel_sum(host, _axis_weights(weights, 1, 2), f32, "nearest")
    numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("dtype", [f32, numpy.uint8, numpy.int16])
def test_rank_filters_keep_the_dtype(ndi, cp, dtype):
    image = (numpy.random.default_rng(14).random((6, 7)) * 100).astype(dtype)
    d_image = cp.asarray(image)
    calls = [("minimum_filter", {"size": 3}), ("maximum_filter", {"size": 3}),
             ("median_filter", {"size": (3, 2)}),
             ("percentile_filter", {"percentile": 30, "size": 3})]
    for (name, keywords), mode in itertools.product(
            calls, ["reflect", "mirror", "nearest", "wrap", "constant"]):
        got = getattr(ndi, name)(d_image, mode=mode, cval=7, **keywords)
        assert got.dtype == dtype
        numpy.testing.assert_array_equal(got.get(), getattr(
            scipy.ndimage, name)(image, mode=mode, cval=7, **keywords))
    got = ndi.median_filter(d_image, 3, output=f64)
    assert got.dtype == f64


def test_filter_modes_are_cupys(ndi, cp):
    image = cp.asarray(_image((4, 4), 15))
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        ndi.correlate(image, cp.ones((3, 3)), mode="grid-constant")
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        ndi.gaussian_filter(image, 1.0, mode="edge")
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        ndi.median_filter(image, 3, mode="grid-constant")
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        ndi.minimum_filter(image, 3, mode=["wrap", "grid-constant"])
    # CuPy tests cval by identity with numpy.nan.
    with pytest.raises(NotImplementedError, match="NaN cval"):
        ndi.maximum_filter(image, 3, mode="constant", cval=numpy.nan)
    # CuPy reads the weights' attributes: a list has none.
    with pytest.raises(AttributeError, match="'list' object has no attribute"):
        ndi.correlate1d(image, [1.0, 2.0])
