"""CuPy's lexsort and repeat take narrower arguments than NumPy's.

`cupy.lexsort(keys)` reads `keys.ndim` first (cupy/_sorting/sort.py): the
keys are one cupy.ndarray of rank one or two, so `cupy.lexsort((b, a))`, a
tuple of key arrays that NumPy takes, raises AttributeError, and keys of rank
three or more raise NotImplementedError. `ndarray.repeat` (cupy/_core/
_routines_manipulation.pyx, `_repeat`) refuses a cupy.ndarray of repeats
with ValueError, where NumPy takes an array of counts; `cupy.repeat` is
`a.repeat(repeats, axis)`. A program ranking with ties wrote
`cp.repeat(ranks, counts)` with device counts, which works on NumPy and
failed only on a GPU; the fake used to answer both calls with NumPy's
result."""
import numpy
import pytest


def test_lexsort_of_a_tuple_of_keys_is_refused(cp):
    a, b = cp.asarray([2, 1, 2, 1]), cp.asarray([0, 3, 1, 2])
    with pytest.raises(AttributeError, match="'tuple' object has no attribute 'ndim'"):
        cp.lexsort((b, a))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ndim'"):
        cp.lexsort([b, a])


def test_lexsort_of_stacked_keys_sorts_by_the_last_row_first(cp):
    a, b = cp.asarray([2, 1, 2, 1]), cp.asarray([0, 3, 1, 2])
    order = cp.lexsort(cp.stack((b, a)))
    assert isinstance(order, cp.ndarray) and order.dtype == numpy.intp
    assert order.get().tolist() == [3, 1, 0, 2]


def test_lexsort_of_keys_of_rank_three_is_not_implemented(cp):
    with pytest.raises(NotImplementedError, match="rank of three or more"):
        cp.lexsort(cp.zeros((2, 3, 4)))


def test_repeat_with_device_counts_is_refused(cp):
    x, counts = cp.asarray([1.0, 2.0, 3.0]), cp.asarray([2, 0, 1])
    message = "cupy.ndaray cannot be specified as `repeats` argument."
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        cp.repeat(x, counts)
    with pytest.raises(ValueError, match="cannot be specified as `repeats`"):
        x.repeat(counts)


def test_repeat_with_host_counts_is_taken(cp):
    x = cp.asarray([[1, 2], [3, 4]])
    assert cp.repeat(x, [2, 1], axis=0).get().tolist() == [[1, 2], [1, 2], [3, 4]]
    assert cp.repeat(x, 2).get().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert x.repeat((1, 2), axis=1).get().tolist() == [[1, 2, 2], [3, 4, 4]]
    assert cp.repeat(x, numpy.int64(1)).get().tolist() == [1, 2, 3, 4]


def test_repeat_of_a_list_has_no_repeat_method(cp):
    with pytest.raises(AttributeError, match="'list' object has no attribute 'repeat'"):
        cp.repeat([1, 2], 2)


def test_searchsorted_takes_only_cupy_arrays(cp):
    # cupy/_sorting/search.py: both `a` and `v` must be cupy.ndarray
    # ("Only int or ndarray are supported for v", whatever the value is).
    edges = cp.asarray([0.0, 1.0, 2.0])
    with pytest.raises(NotImplementedError, match="supported for v"):
        cp.searchsorted(edges, 0.5)
    with pytest.raises(NotImplementedError, match="supported for v"):
        edges.searchsorted([0.5, 1.5])
    with pytest.raises(NotImplementedError, match="supported for a"):
        cp.searchsorted([0.0, 1.0], cp.asarray([0.5]))
    with pytest.raises(ValueError, match="object too deep"):
        cp.searchsorted(cp.zeros((2, 2)), cp.asarray([0.5]))


def test_searchsorted_of_cupy_arrays_matches_numpy(cp):
    edges, v = cp.asarray([0.0, 1.0, 1.0, 2.0]), cp.asarray([[1.0, -1.0], [3.0, 1.5]])
    for side in ("left", "right"):
        got = cp.searchsorted(edges, v, side=side)
        assert got.dtype == numpy.int64 and got.shape == (2, 2)
        assert got.get().tolist() == numpy.searchsorted(edges.get(), v.get(), side=side).tolist()
    assert edges.searchsorted(cp.asarray(1.0)).get().tolist() == 1
    order = cp.argsort(cp.asarray([3, 1, 2]))
    assert cp.searchsorted(cp.asarray([3, 1, 2]), cp.asarray([2]), sorter=order).get().tolist() == [1]


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_of_an_all_nan_slice_is_minus_one(cp, name):
    # CuPy's docstring: "For all-NaN slice -1 is returned" (its reduction maps
    # a NaN to index -1); NumPy raises ValueError("All-NaN slice encountered").
    x = cp.asarray([[1.0, numpy.nan, 3.0], [numpy.nan, numpy.nan, numpy.nan]])
    got = getattr(cp, name)(x, axis=1)
    assert isinstance(got, cp.ndarray) and got.dtype == numpy.int64
    assert got.get().tolist() == [2 if name == "nanargmax" else 0, -1]
    assert getattr(cp, name)(cp.full(4, numpy.nan)).get().tolist() == -1
    assert getattr(cp, name)(x, axis=1, keepdims=True).shape == (2, 1)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_matches_numpy_where_a_value_is_found(cp, name):
    host = numpy.array([[numpy.nan, -numpy.inf, 2.0], [4.0, numpy.nan, 4.0]], dtype=numpy.float32)
    for axis in (None, 0, 1):
        got = getattr(cp, name)(cp.asarray(host), axis=axis)
        assert got.get().tolist() == getattr(numpy, name)(host, axis=axis).tolist()
    ints = cp.asarray([[3, 9, 9], [7, 1, 0]])
    assert getattr(cp, name)(ints, axis=0).get().tolist() == \
        getattr(numpy, name)(ints.get(), axis=0).tolist()


def test_argpartition_sorts_fully_as_cupy_does(cp):
    # cupy/_core/_routines_sorting.pyx: argpartition checks kth, then "kth is
    # ignored" and the whole axis is argsorted (stably), so code that takes
    # argpartition(d, k)[:, :k] as the k nearest in order gets them in order.
    d = cp.asarray([[5.0, 1.0, 4.0, 1.0, 3.0, 0.5], [2.0, 9.0, 7.0, 2.0, 0.0, 8.0]])
    got = cp.argpartition(d, 2, axis=1)
    assert got.get().tolist() == numpy.argsort(d.get(), axis=1, kind="stable").tolist()
    assert d.argpartition(-1, axis=None).get().tolist() == \
        numpy.argsort(d.get(), axis=None, kind="stable").tolist()
    with pytest.raises(ValueError, match=r"kth\(=6\) out of bounds 6"):
        cp.argpartition(d, 6)
    # CuPy 11.1 and later still argsort: its documentation ("fully sorts the
    # given array as cupy.argsort does") and source are unchanged; only
    # `partition` selects with a kernel, on axes of 32 elements or more.
    long = cp.asarray(numpy.arange(40.0)[::-1] % 7)
    assert cp.argpartition(long, 3).get().tolist() == \
        numpy.argsort(long.get(), kind="stable").tolist()


def test_partition_of_a_short_axis_sorts_it(cp):
    # CuPy sorts the axis when it is shorter than 32 (or k is large); longer
    # ones get its selection kernel, a valid partition.
    x = cp.asarray([7, 3, 9, 1, 5, 3, 8])
    assert cp.partition(x, 2).get().tolist() == [1, 3, 3, 5, 7, 8, 9]
    y = cp.asarray(numpy.arange(100)[::-1].copy())
    part = cp.partition(y, 10).get()
    assert part[10] == 10 and (part[:10] <= 10).all() and (part[11:] >= 10).all()
    with pytest.raises(ValueError, match="out of bounds"):
        cp.partition(x, 7)


def test_partition_arrangement_is_cupys(cp):
    # CuPy's ndarray.partition (cupy/_core/_routines_sorting.pyx) sorts the
    # whole axis when it is shorter than 32, when max(kth) rounds up to 1024
    # or more, or when its selection kernel would get 32 subarrays or fewer
    # (a 1-D axis shorter than about 10,000); otherwise the kernel leaves the
    # smallest max(32, next power of two above max(kth)) values sorted at
    # the head of each row, the rest in an order of its own.
    rng = numpy.random.default_rng(3)
    short = rng.permutation(31).astype(numpy.float64)
    assert cp.partition(cp.asarray(short), 3).get().tolist() == \
        sorted(short.tolist())
    line = rng.standard_normal(1000)
    assert (cp.partition(cp.asarray(line), 5).get() == numpy.sort(line)).all()
    rows = rng.standard_normal((8, 2048))
    head = cp.partition(cp.asarray(rows), [5, 20]).get()
    expected = numpy.sort(rows, axis=1)
    assert (head[:, :32] == expected[:, :32]).all()
    assert (numpy.sort(head, axis=1) == expected).all()
    assert (head[:, 32:].min(axis=1) >= head[:, 31]).all()
    wide = cp.partition(cp.asarray(rows), 600).get()
    assert (wide == expected).all()
    columns = cp.partition(cp.asarray(rows[:, :20].T.copy()), 2, axis=0).get()
    assert (columns == numpy.sort(rows[:, :20].T, axis=0)).all()
    flat = cp.partition(cp.asarray(rows[:2, :10]), -1, axis=None).get()
    assert flat.tolist() == sorted(rows[:2, :10].ravel().tolist())


def test_partition_refusals_are_cupys(cp):
    x = cp.asarray([7, 3, 9, 1, 5, 3, 8])
    with pytest.raises(ValueError, match=r"^kth\(=7\) out of bounds 7$"):
        cp.partition(x, 7)
    with pytest.raises(ValueError, match=r"^kth\(=-1\) out of bounds 7$"):
        cp.partition(x, [1, -8])
    with pytest.raises(numpy.exceptions.AxisError,
                       match="rank of zero is not supported"):
        cp.partition(cp.asarray(3.0), 0)
    with pytest.raises(AttributeError, match="'list' object has no attribute"):
        cp.partition([3, 1, 2], 1)
    # ndarray.partition sorts in place, and only a C-contiguous array.
    y = cp.asarray([[4, 2, 3], [9, 8, 7]])
    y.partition(1)
    assert y.get().tolist() == [[2, 3, 4], [7, 8, 9]]
    with pytest.raises(NotImplementedError,
                       match="^Sorting non-contiguous array is not supported.$"):
        y.T.partition(0)
    y.partition(0, axis=0)
    assert y.get().tolist() == [[2, 3, 4], [7, 8, 9]]


def test_argsort_is_stable_as_cupys(cp):
    # CuPy sorts with a stable sort (thrust); NumPy's default quicksort
    # leaves equal keys in an order of its own. A group-by taking the first
    # row of each key from cp.argsort(keys) got other rows on the fake.
    keys = numpy.random.default_rng(0).integers(0, 3, 200)
    want = numpy.argsort(keys, kind="stable")
    x = cp.asarray(keys)
    assert cp.argsort(x).get().tolist() == want.tolist()
    assert x.argsort().get().tolist() == want.tolist()
    assert cp.argsort(x, kind="stable").get().tolist() == want.tolist()
    two = cp.asarray(keys.reshape(4, 50))
    assert (cp.argsort(two, axis=0).get() ==
            numpy.argsort(keys.reshape(4, 50), axis=0, kind="stable")).all()
    assert (cp.argsort(two, axis=None).get() == want).all()


@pytest.mark.parametrize("kind", ["quicksort", "mergesort", "heapsort"])
def test_sort_kinds_other_than_stable_are_refused(cp, kind):
    x = cp.asarray([3, 1, 2])
    for call in (lambda: cp.sort(x, kind=kind), lambda: cp.argsort(x, kind=kind),
                 lambda: x.sort(kind=kind), lambda: x.argsort(kind=kind)):
        with pytest.raises(ValueError, match="kind can only be None or 'stable'"):
            call()


def test_sort_in_place_needs_a_contiguous_array(cp):
    # ndarray.sort sorts the array's own memory (_routines_sorting.pyx):
    # a transposed view raises NotImplementedError, a 0-d array AxisError;
    # cupy.sort copies first, so it takes the view.
    x = cp.asarray([[3, 1], [2, 0]])
    with pytest.raises(NotImplementedError, match="Sorting non-contiguous array"):
        x.T.sort()
    with pytest.raises(numpy.exceptions.AxisError, match="rank of zero"):
        cp.asarray(1.0).sort()
    assert cp.sort(x.T, axis=0).get().tolist() == [[1, 0], [3, 2]]
    y = cp.asarray([[3.0, numpy.nan, 1.0], [2.0, 0.0, -1.0]])
    y.sort(axis=1)
    assert numpy.array_equal(y.get(), [[1.0, 3.0, numpy.nan], [-1.0, 0.0, 2.0]],
                             equal_nan=True)
