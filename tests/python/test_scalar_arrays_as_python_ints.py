"""A 0-d cupy array is not a Python integer.

CuPy's ndarray (`cupy/_core/core.pyx`, "Conversion") defines `__int__`,
`__float__` and `__complex__` but no `__index__`: `int(x)` works, while
`range(x)`, `a_list[x]`, `operator.index(x)` and slice bounds raise
`TypeError`.  Programs written against NumPy meet this when a ufunc of
Python numbers (`cupy.mod(i + 1, 2)`, `cupy.abs(dist)`, which CuPy answers
with a 0-d cupy array) picks an item of a list of tensors or bounds a loop,
as an iTEBD program's correlators do.  The fake had an `__index__`, so such
code ran on the fake and failed only on a GPU."""
import operator

import pytest


def test_a_ufunc_of_python_numbers_is_a_0d_array(cp):
    x = cp.mod(3, 2)
    assert isinstance(x, cp.ndarray) and x.shape == ()
    assert int(x) == 1


@pytest.mark.parametrize("use", [
    lambda x: range(x),
    lambda x: operator.index(x),
    lambda x: ["a", "b"][x],
    lambda x: ("a", "b")[x],
    lambda x: "ab"[:x],
    lambda x: hex(x),
])
def test_a_0d_integer_array_is_no_index(cp, use):
    x = cp.abs(1)
    with pytest.raises(TypeError):
        use(x)


def test_int_float_and_cupy_indexing_still_work(cp):
    x = cp.mod(5, 3)
    assert int(x) == 2 and float(x) == 2.0
    a = cp.arange(10, 20)
    assert int(a[x]) == 12
    assert a[cp.asarray([1, 2])].get().tolist() == [11, 12]


def test_truth_value_is_cupys(cp):
    # CuPy's __nonzero__ (core.pyx): an empty array is False with a
    # DeprecationWarning (NumPy 2.4 raises ValueError), one element its
    # value, more elements NumPy's "ambiguous" ValueError naming a.any() and
    # a.all() (the fake's message had been item()'s "can only convert an
    # array of size 1 to a Python scalar", for `if spins == 1:` on a lattice).
    with pytest.warns(DeprecationWarning, match="The truth value of an empty array is ambiguous"):
        assert not bool(cp.zeros((0, 3)))
    assert bool(cp.asarray([2])) and not bool(cp.asarray([[0.0]]))
    with pytest.raises(ValueError, match=r"more than one element is ambiguous. Use a.any\(\) or a.all\(\)"):
        if cp.ones((4, 4)) == 1:
            pass
