"""ndarray.flat and cupy.flatiter as CuPy's (cupy/_indexing/iterate.py): an
integer gives a 0-d copy, a slice a new 1-d array, a slice assignment takes
any value cupy.asarray takes and repeats it over the slice; other indices
(lists, arrays, tuples, bools) are IndexError where NumPy takes them. The fake
had no `flat`: code clearing the diagonal of a pairwise-distance matrix with
`r.flat[::n + 1] = 0`, an idiom of molecular-dynamics programs, stopped with
AttributeError."""
import numpy
import pytest


def test_slice_assignment_sets_the_diagonal_of_a_pairwise_matrix(cp):
    x = cp.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
    r = cp.linalg.norm(x[:, None, :] - x[None, :, :], axis=-1)
    r.flat[::4] = cp.inf
    assert r.get().tolist() == [[numpy.inf, 5, 10], [5, numpy.inf, 5], [10, 5, numpy.inf]]
    # A list or a NumPy array is copied to the device and repeated, cast to the
    # array's dtype.
    a = cp.zeros((2, 4), dtype=numpy.int32)
    a.flat[1::2] = [7.9, -1]
    a.flat[:2] = numpy.array([5])
    assert a.dtype == numpy.int32
    assert a.get().tolist() == [[5, 5, 0, -1], [0, 7, 0, -1]]
    a.flat[...] = 3
    assert a.get().tolist() == [[3] * 4] * 2
    a.flat[5] = 9
    assert a.get().tolist() == [[3] * 4, [3, 9, 3, 3]]


def test_slice_assignment_writes_through_a_view_in_c_order(cp):
    base = cp.zeros((3, 4))
    view = base[:, ::2].T                    # (2, 3), neither C nor F ordered
    view.flat[1:5] = cp.array([1.0, 2.0, 3.0, 4.0])
    assert base.get().tolist() == [[0, 0, 3, 0], [1, 0, 4, 0], [2, 0, 0, 0]]
    view.flat[::-2] = -1
    assert view.get().tolist() == [[0, -1, 2], [-1, 4, -1]]


def test_reading_gives_copies_in_c_order(cp):
    x = cp.arange(6).reshape(2, 3)
    e = x.T.flat[3]
    assert isinstance(e, cp.ndarray) and e.shape == () and int(e) == 4
    e[...] = 100
    assert int(x[1, 1]) == 4
    assert int(x.flat[-1]) == 5
    s = x.T.flat[1:5]
    assert s.shape == (4,) and s.get().tolist() == [3, 1, 4, 2]
    assert x.flat[4:1].shape == (0,) and x.flat[::-3].get().tolist() == [5, 2]
    assert x.flat[...].get().tolist() == [0, 1, 2, 3, 4, 5]


def test_iteration_length_copy_and_base(cp):
    x = cp.arange(4.0).reshape(2, 2)
    it = x.flat
    assert isinstance(it, cp.flatiter) and iter(it) is it and it.base is x
    assert len(it) == 4
    items = list(it)
    assert [float(v) for v in items] == [0, 1, 2, 3]
    assert all(isinstance(v, cp.ndarray) and v.shape == () for v in items)
    assert list(it) == []                   # an iterator, used up
    c = x.flat.copy()
    assert c.shape == (4,) and c.base is None


@pytest.mark.parametrize("index", [[1, 2], (0, 1), True, "array"])
def test_advanced_indices_are_refused_as_cupy_refuses_them(cp, index):
    x = cp.zeros((2, 3))
    if index == "array":
        index = cp.array([1, 2])
    with pytest.raises(IndexError, match="unsupported iterator index"):
        x.flat[index]
    with pytest.raises(IndexError, match="unsupported iterator index"):
        x.flat[index] = 1


def test_fill_diagonal_is_a_flat_slice_assignment(cp):
    # cupy.fill_diagonal is `a.flat[:end:step] = val`: a NumPy array or a list
    # of values is taken (the fake had refused a NumPy array) and repeated.
    d = cp.zeros((3, 3))
    assert cp.fill_diagonal(d, numpy.array([1.0, 2.0])) is None
    assert d.get().tolist() == [[1, 0, 0], [0, 2, 0], [0, 0, 1]]
    tall = cp.zeros((5, 2), dtype=numpy.int64)
    cp.fill_diagonal(tall, [7], wrap=True)
    assert tall.get().tolist() == [[7, 0], [0, 7], [0, 0], [7, 0], [0, 7]]
    cube = cp.zeros((2, 2, 2))
    cp.fill_diagonal(cube, cp.inf)
    assert cube.get()[1, 1, 1] == numpy.inf and cube.get().sum() == numpy.inf
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        cp.fill_diagonal(cp.zeros((2, 2, 3)), 1)
    with pytest.raises(ValueError, match="array must be at least 2-d"):
        cp.fill_diagonal(cp.zeros(3), 1)
