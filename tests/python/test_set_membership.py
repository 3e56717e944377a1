"""CuPy's set-membership functions (cupy/_logic/truth.py) differ from the
NumPy the fake runs on.

`cupy.in1d` is still CuPy's, where NumPy 2.4 removed `numpy.in1d`: a join
written as `keep = cp.in1d(keys, other_keys)` failed on the fake with
AttributeError. in1d and isin ravel both arguments with their own `.ravel()`
(a list or a Python number raises AttributeError, where NumPy takes any
array-like), and isin is in1d reshaped to the first argument's shape, with
no `kind=` keyword (NumPy 1.24's): CuPy raises TypeError for it."""
import numpy
import pytest


def test_in1d_flattens_and_tests_membership(cp):
    keys = cp.asarray([[5, 1, 7], [3, 1, 9]])
    other = cp.asarray([[1, 9], [4, 4]])
    got = cp.in1d(keys, other)
    assert isinstance(got, cp.ndarray) and got.dtype == numpy.bool_
    assert got.get().tolist() == [False, True, False, False, True, True]
    inverted = cp.in1d(keys, other, invert=True)
    assert inverted.get().tolist() == [True, False, True, True, False, False]
    # assume_unique is taken (and ignored, as CuPy documents).
    assert cp.in1d(cp.arange(4), cp.asarray([2]), assume_unique=True).get().tolist() == \
        [False, False, True, False]


def test_in1d_with_an_empty_operand(cp):
    assert cp.in1d(cp.arange(3), cp.asarray([], dtype=numpy.int64)).get().tolist() == \
        [False, False, False]
    assert cp.in1d(cp.arange(3), cp.asarray([], dtype=numpy.int64),
                   invert=True).get().tolist() == [True, True, True]
    assert cp.in1d(cp.asarray([], dtype=numpy.int64), cp.arange(3)).shape == (0,)


def test_isin_keeps_the_shape_of_its_first_argument(cp):
    labels = cp.asarray([[0, 2], [3, 2]])
    got = cp.isin(labels, cp.asarray([2, 3]))
    assert got.shape == (2, 2)
    assert got.get().tolist() == [[False, True], [True, True]]
    assert cp.isin(labels, cp.asarray([2]), invert=True).get().tolist() == \
        [[True, False], [True, False]]


def test_isin_and_in1d_take_only_arrays(cp):
    x = cp.asarray([1, 2, 3])
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ravel'"):
        cp.isin(x, [2, 3])
    with pytest.raises(AttributeError, match="'int' object has no attribute 'ravel'"):
        cp.in1d(x, 2)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'ravel'"):
        cp.in1d([1, 2], x)


def test_isin_has_no_kind_keyword(cp):
    x = cp.asarray([1, 2, 3])
    with pytest.raises(TypeError, match="kind"):
        cp.isin(x, cp.asarray([2]), kind="sort")


def test_round_underscore_is_around(cp):
    # cupy.round_ (cupy/_math/rounding.py) is kept by CuPy; NumPy 2 removed
    # numpy.round_. It rounds half to even, as around does, and copies host
    # data to the device first.
    got = cp.round_(cp.asarray([0.5, 1.5, 2.5, -0.5]))
    assert isinstance(got, cp.ndarray) and got.get().tolist() == [0.0, 2.0, 2.0, -0.0]
    assert cp.round_(cp.asarray([1.26]), 1).get().tolist() == [1.3]
    assert isinstance(cp.round_([1.2, 2.7]), cp.ndarray)


def test_unique_has_no_sorted_keyword(cp):
    # cupy.unique(ar, return_index, return_inverse, return_counts, axis, *,
    # equal_nan) has no `sorted=` (NumPy 2.3's): CuPy raises TypeError.
    x = cp.asarray([3, 1, 3, 2])
    values, first, counts = cp.unique(x, return_index=True, return_counts=True)
    assert values.get().tolist() == [1, 2, 3] and first.get().tolist() == [1, 3, 0]
    assert counts.get().tolist() == [1, 1, 2]
    assert cp.unique(cp.asarray([numpy.nan, 1.0, numpy.nan]), equal_nan=False).size == 3
    with pytest.raises(TypeError, match="sorted"):
        cp.unique(x, sorted=False)


def test_nan_is_a_member_where_the_test_elements_hold_one(cp):
    # CuPy's in1d sorts ar2 and compares searchsorted(ar2, ar1, 'left') with
    # 'right'; its searchsorted places a NaN among the NaNs sorted last, so a
    # NaN is found in an array holding one (NumPy's isin compares with ==, for
    # which NaN is in nothing).
    x = cp.asarray([[1.0, numpy.nan], [2.0, 5.0]])
    with_nan = cp.asarray([numpy.nan, 1.0, 5.0])
    assert cp.isin(x, with_nan).get().tolist() == [[True, True], [False, True]]
    assert cp.isin(x, with_nan, invert=True).get().tolist() == \
        [[False, False], [True, False]]
    assert cp.in1d(x, cp.asarray([1.0, 2.0])).get().tolist() == \
        [True, False, True, False]
    assert cp.in1d(cp.asarray([numpy.nan]), cp.asarray([numpy.nan, numpy.nan])).get().tolist() == [True]
    # Integers against floats compare by value, as CuPy's kernel does.
    assert cp.isin(cp.arange(4), cp.asarray([1.0, 2.5, 3.0])).get().tolist() == \
        [False, True, False, True]


def test_unique_inverse_is_flat_as_in_cupy_13(cp):
    # Every CuPy 13 release (13.0.0 to 13.6.0) flattens the input in
    # _unique_1d and returns the inverse of the flattened array; CuPy 14.0.0
    # passes inverse_shape=ar.shape, giving NumPy 2's inverse of the input's
    # shape. The fake follows CuPy 13: cupy.bincount(inverse) works on it.
    x = cp.asarray([[3, 1], [1, 2]])
    values, index, inverse, counts = cp.unique(
        x, return_index=True, return_inverse=True, return_counts=True)
    assert values.get().tolist() == [1, 2, 3]
    assert inverse.shape == (4,) and inverse.get().tolist() == [2, 0, 0, 1]
    assert (values[inverse] == x.ravel()).all()
    assert cp.bincount(inverse).get().tolist() == counts.get().tolist() == [2, 1, 1]
    # Along an axis the inverse is 1-D in CuPy 13 and NumPy 2 alike.
    rows, inverse = cp.unique(cp.asarray([[1, 2], [1, 2], [0, 5]]), axis=0,
                              return_inverse=True)
    assert inverse.get().tolist() == [1, 1, 0]
