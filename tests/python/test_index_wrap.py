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
