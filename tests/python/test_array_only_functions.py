"""CuPy's functions that take only a cupy.ndarray.

`cupy.any`, `cupy.all`, `cupy.nonzero`, `cupy.flatnonzero` and
`cupy.argwhere` begin with CuPy's `_util.check_array(a, arg_name='a')`: a
NumPy array, a NumPy or Python scalar or a list raises `TypeError("'a' must
be a cupy.ndarray object, not <class ...>")`. A tutorial's step-size
control wrote `if cupy.any(rtol < 100 * EPS):` with a Python float `rtol`,
which CuPy refuses; the fake used to answer with NumPy's `numpy.bool`, so
the program only failed on a GPU."""
import re

import numpy
import pytest

ARRAY_ONLY = ("any", "all", "nonzero", "flatnonzero", "argwhere")


@pytest.mark.parametrize("name", ARRAY_ONLY)
@pytest.mark.parametrize("value", [
    numpy.ones(3), numpy.bool_(True), numpy.float64(1e-3) < 1e-14, False, 0.5,
    [1, 0, 2]], ids=["numpy-array", "numpy-bool", "comparison", "bool",
                     "float", "list"])
def test_non_cupy_argument_is_refused(cp, name, value):
    expected = "'a' must be a cupy.ndarray object, not " + str(type(value))
    with pytest.raises(TypeError, match="^" + re.escape(expected) + "$"):
        getattr(cp, name)(value)


def test_keyword_argument_is_checked_too(cp):
    with pytest.raises(TypeError, match="'a' must be a cupy.ndarray object"):
        cp.any(a=numpy.zeros(2))
    assert bool(cp.any(a=cp.ones(2)))


def test_cupy_arrays_give_cupy_results(cp):
    x = cp.asarray([[0, 1], [2, 0]])
    assert isinstance(cp.any(x), cp.ndarray) and bool(cp.any(x))
    assert isinstance(cp.all(x, axis=0), cp.ndarray)
    assert cp.all(x, axis=0).get().tolist() == [False, False]
    rows, cols = cp.nonzero(x)
    assert isinstance(rows, cp.ndarray)
    assert (rows.get().tolist(), cols.get().tolist()) == ([0, 1], [1, 0])
    assert cp.flatnonzero(x).get().tolist() == [1, 2]
    assert cp.argwhere(x).get().tolist() == [[0, 1], [1, 0]]
    # A 0-d cupy array (a comparison of device values) is an array too.
    assert bool(cp.any(cp.float64(1e-3) < cp.asarray(1e-14))) is False


def test_other_reductions_keep_taking_numpy_arrays(cp):
    # cupy.sum(numpy_array) is numpy_array.sum() in CuPy: not checked.
    assert cp.sum(numpy.arange(4)) == 6



def test_nonzero_of_a_0d_array_is_deprecated_not_refused(cp):
    # CuPy's _ndarray_nonzero (_routines_indexing.pyx) warns and answers
    # one int64 array of the count of nonzero values (one or none) for a
    # 0-d array, where NumPy 2.4 raises ValueError; cupy.where(condition)
    # is cupy.nonzero(condition), so `cp.where(total > limit)` on a reduced
    # (0-d) total is taken too.
    with pytest.warns(DeprecationWarning, match="calling nonzero on 0d arrays is deprecated"):
        (found,) = cp.nonzero(cp.asarray(3.0))
    assert found.dtype == numpy.int64 and found.get().tolist() == [0]
    with pytest.warns(DeprecationWarning):
        (found,) = cp.asarray(0).nonzero()
    assert found.shape == (0,)
    with pytest.warns(DeprecationWarning):
        (found,) = cp.where(cp.asarray(5) > 2)
    assert found.get().tolist() == [0]
    rows, cols = cp.where(cp.asarray([[0, 1], [2, 0]]))
    assert rows.get().tolist() == [0, 1] and cols.get().tolist() == [1, 0]
    assert cp.where(cp.asarray([True, False]), 1, 2).get().tolist() == [1, 2]
    with pytest.raises(ValueError, match="Must provide both 'x' and 'y' or neither."):
        cp.where(cp.asarray([True]), 1)



@pytest.mark.parametrize("condition", [True, 0.5 < 1.0, 1, [True, False]])
def test_where_of_a_python_condition_is_refused(cp, condition):
    # CuPy's three-argument where is _where_ufunc(condition.astype('?'), x, y)
    # (cupy/_sorting/search.py): a Python bool or number (`cp.where(r < rc, a,
    # b)` with a Python float r in a pair potential) or a list has no astype;
    # the fake took them as NumPy's where does.
    x = cp.arange(2.0)
    with pytest.raises(AttributeError, match="object has no attribute 'astype'"):
        cp.where(condition, x, 0.0)


def test_where_casts_its_condition_to_bool(cp):
    # A NumPy scalar has astype and is taken; a numeric cupy condition is
    # cast, so NaN and nonzero values choose x.
    x = cp.arange(3.0)
    assert cp.where(numpy.bool_(True), x, -1.0).get().tolist() == [0, 1, 2]
    c = cp.asarray([numpy.nan, 0.0, 2.0])
    assert cp.where(c, x, -1.0).get().tolist() == [0, -1, 2]

def test_trapz_is_cupys(cp):
    # cupy.trapz, which CuPy keeps after NumPy 2.4 removed numpy.trapz (an
    # energy functional integrated along a profile called it; the fake had
    # no trapz): y and x must be cupy arrays, x 1-D or of y's shape.
    y = numpy.arange(12.0).reshape(3, 4) ** 2
    x = numpy.array([0.0, 0.5, 1.5, 3.0])
    got = cp.trapz(cp.asarray(y), cp.asarray(x))
    assert isinstance(got, cp.ndarray)
    numpy.testing.assert_allclose(got.get(), numpy.trapezoid(y, x))
    numpy.testing.assert_allclose(cp.trapz(cp.asarray(y), dx=0.5, axis=0).get(),
                                  numpy.trapezoid(y, dx=0.5, axis=0))
    numpy.testing.assert_allclose(
        cp.trapz(cp.asarray(y), cp.asarray(numpy.tile(x, (3, 1)))).get(),
        numpy.trapezoid(y, x))
    with pytest.raises(TypeError, match="^`y` should be of type cupy.ndarray$"):
        cp.trapz([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="^`x` should be of type cupy.ndarray$"):
        cp.trapz(cp.asarray(y), x)
