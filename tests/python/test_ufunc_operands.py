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


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.insert(0, step)
        step *= max(n, 1)
    return tuple(strides)


def test_ufunc_results_are_c_ordered_whatever_the_inputs_layout(cp):
    # CuPy's ufuncs allocate each output with _ndarray_init, C-ordered
    # (cupy/_core/_kernel.pyx, _get_out_args_from_optionals): `a + a` of a
    # Fortran-ordered `a` is C-contiguous on a GPU, where NumPy's order='K'
    # keeps Fortran order. A kernel then reading `out` as column-major, or
    # code branching on `out.flags.f_contiguous`, sees CuPy's layout.
    f = cp.asfortranarray(cp.arange(12.0).reshape(3, 4))
    t = cp.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)
    s = cp.arange(40.0).reshape(5, 8)[::2, 1::3]
    column = cp.ones((3, 1), order="F")
    results = {
        "add": cp.add(f, f), "multiply": cp.multiply(t, 2.0),
        "sin": cp.sin(f), "maximum": cp.maximum(s, 3.0),
        "divmod": cp.divmod(f, 2.0)[1], "modf": cp.modf(t)[0],
        "+": f + 1.0, "*": 2 * f, "-x": -f, "abs": abs(t), "**": s ** 2,
        "<": f < 3.0, "==": t == t, "~": ~(f > 1.0), "column": column + 1,
        "exp": cp.exp(f.T),
    }
    for name, r in results.items():
        assert r.flags.c_contiguous, name
        assert r.strides == c_strides(r.shape, r.itemsize), name
        assert r.base is None, name
    assert not results["add"].flags.f_contiguous
    assert bool((results["add"] == 2 * cp.arange(12.0).reshape(3, 4)).all())
    assert bool((results["multiply"] == 2 * t).all())
    # A given output keeps its own layout; in-place operators write into
    # the array itself.
    out = cp.empty((3, 4), order="F")
    assert cp.add(f, 1.0, out=out) is out and out.flags.f_contiguous
    g = f.copy(order="F")
    g += 1.0
    assert g.flags.f_contiguous


def test_ufunc_takes_only_cupys_keywords(cp):
    # CuPy's ufunc.__call__ takes out, dtype and casting (and the private
    # _where) and raises TypeError('Wrong arguments ...') for the rest,
    # NumPy's order= and where= included.
    x = cp.arange(4.0)
    for kwargs in ({"order": "F"}, {"where": x > 1}, {"subok": True}):
        with pytest.raises(TypeError, match=r"^Wrong arguments \{'"
                           + next(iter(kwargs)) + "'"):
            cp.add(x, 1.0, **kwargs)
    assert cp.add(x, 1, dtype=cp.float32).dtype == numpy.float32
    out = cp.zeros(4)
    cp.add(x, 10.0, out=out, _where=x > 1)
    assert out.tolist() == [0.0, 0.0, 12.0, 13.0]


def test_in_place_operators_return_the_array_itself(cp):
    # CuPy's __iadd__ and the like are the ufunc with out=self and return
    # self: `x += 1` leaves `x` the same object, its base unchanged.
    x = cp.arange(4.0)
    y = x
    x += 1
    x *= 2
    x -= 1
    x /= 1
    x **= 1
    assert x is y and x.base is None
    assert x.get().tolist() == [1.0, 3.0, 5.0, 7.0]
    n = cp.arange(4)
    m = n
    n //= 2
    n %= 3
    n <<= 1
    n |= 1
    assert n is m and n.get().tolist() == [1, 1, 3, 3]
    row = cp.arange(6.0).reshape(2, 3)[1]
    same = row
    row += 1
    assert row is same and row.base is not None
