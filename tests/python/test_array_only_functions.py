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

