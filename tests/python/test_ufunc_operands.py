"""CuPy's ufuncs and arithmetic operators take cupy arrays and scalars only.

"Universal functions only work with cupy.array or scalar" (CuPy's
"Differences between CuPy and NumPy"): `cupy.log([10, 15])` and
`x + [1, 2, 3]` raise `TypeError("Unsupported type <class 'list'>")`, so
that no host data is copied to the device behind the user's back. A NumPy
vs CuPy tutorial's "pitfalls" script tried such calls; the fake answered
them with NumPy's list conversion, so the code ran on the fake and failed on
a GPU."""
import numpy
import pytest


def unsupported(obj):
    return "^Unsupported type " + str(type(obj)).replace("(", r"\(") + "$"


@pytest.mark.parametrize("operand", [[1.0, 2.0, 3.0], (1.0, 2.0, 3.0), None,
                                     "abc"], ids=["list", "tuple", "None", "str"])
def test_ufunc_refuses_what_is_not_an_array_or_scalar(cp, operand):
    with pytest.raises(TypeError, match=unsupported(operand)):
        cp.log(operand)
    with pytest.raises(TypeError, match=unsupported(operand)):
        cp.add(cp.arange(3.0), operand)
    with pytest.raises(TypeError, match=unsupported(operand)):
        cp.maximum(operand, 0)


@pytest.mark.parametrize("op", ["__add__", "__radd__", "__sub__", "__mul__",
                                "__truediv__", "__floordiv__", "__pow__",
                                "__mod__", "__and__", "__or__", "__iadd__"])
def test_arithmetic_operator_refuses_a_list(cp, op):
    x = cp.arange(3)
    with pytest.raises(TypeError, match=unsupported([])):
        getattr(x, op)([1, 2, 3])


def test_reflected_list_operand_is_refused(cp):
    with pytest.raises(TypeError, match=unsupported([])):
        [1, 2, 3] + cp.arange(3)


def test_arrays_and_scalars_still_work(cp):
    x = cp.arange(3.0)
    assert (x + 1).get().tolist() == [1.0, 2.0, 3.0]
    assert (2 ** x).get().tolist() == [1.0, 2.0, 4.0]
    assert (x * numpy.float32(2)).get().tolist() == [0.0, 2.0, 4.0]
    assert float(cp.exp(0.0)) == 1.0
    assert cp.maximum(0, x - 1).get().tolist() == [0.0, 0.0, 1.0]
    assert cp.add(x, x, None).get().tolist() == [0.0, 2.0, 4.0]
    out = cp.empty(3)
    cp.multiply(x, 3, out)
    assert out.get().tolist() == [0.0, 3.0, 6.0]
    with pytest.raises(TypeError, match=unsupported(numpy.ones(1))):
        cp.add(x, numpy.ones(3))


def test_functions_that_take_sequences_are_unchanged(cp):
    x = cp.arange(3)
    assert cp.concatenate([x, x]).size == 6
    assert cp.stack((x, x)).shape == (2, 3)
    assert cp.asarray([1, 2]).get().tolist() == [1, 2]
