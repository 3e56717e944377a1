"""cupyx.scipy.ndimage's measurements over labelled regions take CuPy's
arguments and give CuPy's results (cupyx/scipy/ndimage/_measurements.py).
Blob-measuring scripts write SciPy's idioms: `center_of_mass(img, labels,
range(1, n + 1))` ran on the fake (SciPy's functions took the range) and
raised TypeError on a GPU; `labeled_comprehension(img, labels, idx,
cupy.mean, float, 0)` failed on the fake (SciPy handed cupy.mean NumPy
arrays) and ran on a GPU."""
import numpy
import pytest



@pytest.fixture
def blobs(cp):
    img = cp.zeros((8, 8), dtype=numpy.float32)
    img[1:3, 1:4] = 1
    img[5:7, 5:7] = 2
    labels = cp.zeros((8, 8), dtype=numpy.int32)
    labels[1:3, 1:4] = 1
    labels[5:7, 5:7] = 2
    return img, labels


def test_index_is_a_cupy_array_or_an_int(ndi, cp, blobs):
    img, labels = blobs
    for index in ([1, 2], range(1, 3), numpy.arange(1, 3)):
        for func in (ndi.sum_labels, ndi.sum, ndi.mean, ndi.variance,
                     ndi.center_of_mass):
            with pytest.raises(TypeError, match="^index must be cupy.ndarray or a scalar int$"):
                func(img, labels, index)
    with pytest.raises(TypeError, match="^input must be cupy.ndarray$"):
        ndi.sum_labels(img.get(), labels, 1)
    with pytest.raises(TypeError, match="^label must be cupy.ndarray$"):
        ndi.mean(img, labels.get(), cp.arange(1, 3))


def test_result_types(ndi, cp, blobs):
    img, labels = blobs
    got = ndi.sum_labels(img, labels, cp.arange(1, 3))
    assert got.dtype == numpy.float64 and got.get().tolist() == [6.0, 8.0]
    # An int index sums in the input's type.
    one = ndi.sum_labels(img, labels, 1)
    assert one.dtype == numpy.float32 and float(one) == 6.0
    assert ndi.sum_labels(img, labels, cp.zeros(0, dtype=numpy.int32)).dtype == numpy.int64
    assert ndi.mean(img, labels, cp.arange(1, 3)).get().tolist() == [1.0, 2.0]
    assert float(ndi.mean(img, labels, numpy.int64(2))) == 2.0
    assert ndi.variance(img, labels, cp.arange(1, 3)).get().tolist() == [0.0, 0.0]
    centres = ndi.center_of_mass(img, labels, cp.arange(1, 3))
    assert isinstance(centres, list) and len(centres) == 2
    assert all(isinstance(c, cp.ndarray) and c.shape == (2,) for c in centres)
    assert [c.get().tolist() for c in centres] == [[1.5, 2.0], [5.5, 5.5]]
    whole = ndi.center_of_mass(img)
    assert isinstance(whole, tuple) and all(c.ndim == 0 for c in whole)


def test_labeled_comprehension_calls_func_on_cupy_arrays(ndi, cp, blobs):
    img, labels = blobs
    seen = []

    def peak(values):
        seen.append(type(values))
        return cp.max(values)
    got = ndi.labeled_comprehension(img, labels, cp.arange(1, 4), peak,
                                    numpy.float32, None)
    assert got.dtype == numpy.float32
    assert got.get()[:2].tolist() == [1.0, 2.0] and numpy.isnan(got.get()[2])
    assert seen == [cp.ndarray, cp.ndarray]
    assert float(ndi.labeled_comprehension(img, labels, 2, cp.mean, float, 0)) == 2.0
    counts = ndi.histogram(img, 0, 3, 3, labels, cp.arange(1, 3))
    assert [c.get().tolist() for c in counts] == [[0, 6, 0], [0, 0, 4]]
