"""Out-of-bounds integer array indices wrap around in CuPy ("Differences
between CuPy and NumPy": NumPy raises IndexError, CuPy wraps them), in reading
and in writing. Found by a public genetic algorithm whose roulette index
ran past its population: IndexError on the fake, a wrapped row on CuPy."""
import numpy
import pytest


def test_integer_array_index_wraps_when_reading(cp):
    a = cp.arange(3)
    # CuPy's documented example: a[[1, 3]] is [1, 0].
    assert a[[1, 3]].get().tolist() == [1, 0]
    assert a[cp.array([5, -4, 2])].get().tolist() == [2, 2, 2]
    x = cp.arange(12).reshape(4, 3)
    # Each index array wraps in the dimension it indexes.
    assert x[cp.array([5]), cp.array([4])].get().tolist() == [4]
    assert x[:, numpy.array([3, -1])].get().tolist() == [[0, 2], [3, 5], [6, 8], [9, 11]]
    assert x[..., [7]].get().ravel().tolist() == [1, 4, 7, 10]
    assert x[None, [6]].get().tolist() == [[[6, 7, 8]]]
    y = cp.arange(24).reshape(2, 3, 4)
    assert y[cp.array([[True, False, True], [False, False, False]]), [5, 6]].get().tolist() == [1, 10]


def test_integer_array_index_wraps_when_writing(cp):
    # CuPy's documented example: x[[1, 3]] = 10 gives [10, 10, 2].
    x = cp.array([0, 1, 2])
    x[[1, 3]] = 10
    assert x.get().tolist() == [10, 10, 2]
    m = cp.zeros((2, 2), dtype=numpy.int32)
    m[cp.array([2, 3]), cp.array([-3, 5])] = 7
    assert m.get().tolist() == [[0, 7], [0, 7]]


def test_basic_and_other_indices_keep_numpy_errors(cp):
    a = cp.arange(3)
    with pytest.raises(IndexError):
        a[3]            # a scalar index is basic indexing: CuPy raises too
    with pytest.raises(IndexError):
        a[cp.array([0.5])]
    assert a[cp.array([True, False, True])].get().tolist() == [0, 2]
    assert a[1:7].get().tolist() == [1, 2]


# take, put and ravel_multi_index: CuPy documents 'wrap' as the default for
# put(mode='wrap') and ravel_multi_index(mode='wrap') ("different than in
# NumPy ... to avoid potential device synchronization"), and take has no mode
# and wraps. The fake used NumPy's defaults and raised.

def test_take_wraps_out_of_bounds_indices(cp):
    a = cp.arange(5.0)
    numpy.testing.assert_array_equal(cp.take(a, cp.asarray([7, -8, 2])).get(), [2.0, 2.0, 2.0])
    numpy.testing.assert_array_equal(a.take(cp.asarray([5, 6])).get(), [0.0, 1.0])
    m = cp.arange(6).reshape(2, 3)
    numpy.testing.assert_array_equal(cp.take(m, cp.asarray([3, 4]), axis=1).get(), [[0, 1], [3, 4]])
    with pytest.raises(TypeError):
        cp.take(a, cp.asarray([1]), mode="clip")      # CuPy's take has no mode


def test_put_wraps_by_default_and_takes_modes(cp):
    a = cp.zeros(5)
    cp.put(a, cp.asarray([6, -1]), cp.asarray([1.0, 2.0]))
    numpy.testing.assert_array_equal(a.get(), [0.0, 1.0, 0.0, 0.0, 2.0])
    a.put(cp.asarray([7]), 3.0)
    assert a.get()[2] == 3.0
    cp.put(a, cp.asarray([9]), 4.0, mode="clip")
    assert a.get()[4] == 4.0
    with pytest.raises(IndexError):
        cp.put(a, cp.asarray([9]), 4.0, mode="raise")
    with pytest.raises(TypeError):
        cp.put(a, cp.asarray([1]), 4.0, mode="loop")


def test_ravel_multi_index_wraps_by_default(cp):
    index = (cp.asarray([3, 6, 6]), cp.asarray([4, 5, 1]))
    numpy.testing.assert_array_equal(cp.ravel_multi_index(index, (7, 6)).get(), [22, 41, 37])
    numpy.testing.assert_array_equal(cp.ravel_multi_index(index, (4, 4)).get(),
                                     numpy.ravel_multi_index(([3, 6, 6], [4, 5, 1]), (4, 4), mode="wrap"))
    with pytest.raises(ValueError):
        cp.ravel_multi_index(index, (4, 4), mode="raise")


def test_extract_takes_with_wrapping_and_needs_a_device_array(cp):
    # cupy.extract (cupy/_indexing/indexing.py) is
    # `a.ravel().take(condition.ravel().nonzero()[0])`: a condition longer
    # than `a` wraps its indices as take does, where NumPy raises IndexError;
    # `a` must be a cupy.ndarray, the condition may be host data.
    a = cp.asarray([[1, 2], [3, 4]])
    assert cp.extract(a % 2 == 0, a).get().tolist() == [2, 4]
    assert cp.extract([True, False, False, True], a).get().tolist() == [1, 4]
    assert cp.extract(cp.asarray([1, 0, 1, 0, 0, 1]), cp.asarray([1, 2, 3])).get().tolist() \
        == [1, 3, 3]
    with pytest.raises(TypeError, match="extract requires input array to be cupy.ndarray"):
        cp.extract(cp.asarray([True, False]), [1, 2])


def test_compress_takes_with_wrapping(cp):
    # ndarray.compress (_routines_indexing.pyx, _ndarray_compress) takes the
    # nonzero indices of the condition without testing its length, so a
    # longer condition wraps as take does; a scalar or a host condition of
    # other than one dimension raises ValueError. cupy.compress is
    # `a.compress(condition, axis, out)`.
    x = cp.asarray([[1, 2, 3], [4, 5, 6]])
    assert cp.compress(cp.asarray([True, False, True]), x, axis=1).get().tolist() == \
        [[1, 3], [4, 6]]
    assert x.compress([0, 1], axis=0).get().tolist() == [[4, 5, 6]]
    assert cp.compress([False, True, False, True], cp.asarray([7, 8, 9])).get().tolist() == [8, 7]
    assert x.compress(cp.asarray([1, 0, 0, 0, 0, 0, 1])).get().tolist() == [1, 1]
    with pytest.raises(ValueError, match="condition must be a 1-d array"):
        x.compress(True)
    with pytest.raises(ValueError, match="condition must be a 1-d array"):
        cp.compress([[True, False]], x)
