"""CuPy's histogram functions take narrower arguments than NumPy's
(cupy/_statistics/histogram.py).

`cupy.histogram` raises NotImplementedError for a string `bins` ('auto',
'fd': "only integer and array bins are implemented"), ValueError for
weights that are not a cupy.ndarray and NotImplementedError for complex
data; `cupy.histogramdd` and `cupy.histogram2d` take bin edges only as
cupy arrays ("array-like bins not supported"); `cupy.digitize` reads
`x.dtype` and `bins.ndim`, so a list of edges raises AttributeError, and it
does not check that the edges are monotonic. NumPy takes all of these, and
the fake used to answer with NumPy's result, so such code ran on the fake
and failed only on a GPU."""
import numpy
import pytest


@pytest.fixture
def data(cp):
    return cp.asarray([0.5, 1.5, 1.7, 2.5, 3.0, 0.1])


def test_histogram_of_string_bins_is_not_implemented(cp, data):
    with pytest.raises(NotImplementedError, match="only integer and array bins"):
        cp.histogram(data, bins="auto")


def test_histogram_weights_must_be_a_cupy_array(cp, data):
    with pytest.raises(ValueError, match="weights must be a cupy.ndarray"):
        cp.histogram(data, bins=3, weights=numpy.ones(6))


def test_histogram_of_complex_data_is_not_implemented(cp):
    with pytest.raises(NotImplementedError, match="complex number is not supported"):
        cp.histogram(cp.asarray([1 + 1j, 2]), bins=2)


def test_histogram_takes_integer_list_and_device_bins(cp, data):
    hist, edges = cp.histogram(data, bins=3)
    ref_hist, ref_edges = numpy.histogram(data.get(), bins=3)
    assert isinstance(hist, cp.ndarray) and hist.dtype == numpy.int64
    assert hist.get().tolist() == ref_hist.tolist()
    assert numpy.allclose(edges.get(), ref_edges)
    assert cp.histogram(data, bins=[0, 1, 2, 4])[0].get().tolist() == [2, 2, 2]
    weighted = cp.histogram(data, bins=cp.asarray([0.0, 2.0, 4.0]), weights=data)[0]
    assert numpy.allclose(weighted.get(), [3.8, 5.5])


def test_histogram2d_with_list_edges_is_refused(cp, data):
    with pytest.raises(ValueError, match="array-like bins not supported"):
        cp.histogram2d(data, data, bins=[[0, 2, 4], [0, 1, 4]])
    with pytest.raises(ValueError, match="array-like bins not supported"):
        cp.histogramdd(cp.stack([data, data], axis=1), bins=[[0, 2, 4], [0, 1, 4]])


def test_histogram2d_with_device_edges_or_counts(cp, data):
    edges = cp.asarray([0.0, 2.0, 4.0])
    hist, xe, ye = cp.histogram2d(data, data * 0.5, bins=[edges, edges])
    ref = numpy.histogram2d(data.get(), data.get() * 0.5, bins=[[0, 2, 4], [0, 2, 4]])[0]
    assert hist.dtype == numpy.float64 and hist.get().tolist() == ref.tolist()
    assert cp.histogram2d(data, data, bins=(2, 3))[0].shape == (2, 3)


def test_digitize_needs_device_edges(cp, data):
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ndim'"):
        cp.digitize(data, [0, 1, 2])
    with pytest.raises(AttributeError, match="'list' object has no attribute 'dtype'"):
        cp.digitize([0.5, 1.5], cp.asarray([0, 1, 2]))
    with pytest.raises(ValueError, match="object too deep"):
        cp.digitize(data, cp.zeros((2, 2)))


def test_digitize_does_not_check_monotonic_edges(cp, data):
    # CuPy binary-searches whatever it is given, to avoid a synchronization.
    result = cp.digitize(data, cp.asarray([0.0, 2.0, 1.0, 3.0]))
    assert isinstance(result, cp.ndarray) and result.shape == data.shape


def test_digitize_matches_numpy_on_monotonic_edges(cp, data):
    for bins in ([0.0, 1.0, 2.0, 3.0], [3.0, 2.0, 1.0, 0.0]):
        for right in (False, True):
            got = cp.digitize(data, cp.asarray(bins), right=right)
            ref = numpy.digitize(data.get(), bins, right=right)
            assert got.dtype == numpy.int64 and got.get().tolist() == ref.tolist()


def test_bincount_takes_a_cupy_array_of_integers(cp):
    # cupy.bincount reads x.ndim and refuses a float array with its own
    # TypeError; weights must match x's shape (a list has no shape).
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ndim'"):
        cp.bincount([0, 1, 1])
    with pytest.raises(TypeError, match="x must be int array"):
        cp.bincount(cp.asarray([0.0, 1.0]))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        cp.bincount(cp.asarray([0, 1]), weights=[0.5, 0.5])
    with pytest.raises(ValueError, match="must be non-negative"):
        cp.bincount(cp.asarray([0, -1]))


def test_bincount_matches_numpy(cp):
    x = cp.asarray([0, 3, 3, 1], dtype=cp.int32)
    got = cp.bincount(x, minlength=6)
    assert got.dtype == numpy.intp and got.get().tolist() == [1, 1, 0, 2, 0, 0]
    w = cp.bincount(x, weights=cp.asarray([1, 2, 3, 4], dtype=cp.int16))
    assert w.dtype == numpy.float64 and w.get().tolist() == [1.0, 4.0, 0.0, 5.0]


def test_bincount_of_nothing_is_cupys_error(cp):
    # Counting the transitions of a chain that visited no state, or the
    # members of an empty group: CuPy 13's bincount sizes its result with
    # int(cupy.max(x)) + 1 before looking at minlength, so an empty x is
    # the maximum's ValueError on a GPU (CuPy's issues 8116 and 9362, also
    # through histogramdd and histogram2d), where NumPy returns zeros.
    with pytest.raises(ValueError, match="zero-size array"):
        cp.bincount(cp.array([], dtype=cp.int64), minlength=5)
    with pytest.raises(ValueError, match="zero-size array"):
        cp.histogramdd(cp.empty((0, 1)), bins=2)
    with pytest.raises(ValueError, match="zero-size array"):
        cp.histogram2d(cp.empty(0), cp.empty(0), bins=2)
    assert cp.histogram(cp.empty(0), bins=2)[0].get().tolist() == [0, 0]
    counts = cp.bincount(cp.array([3, 1]), minlength=5)
    assert counts.get().tolist() == [0, 1, 0, 1, 0]
