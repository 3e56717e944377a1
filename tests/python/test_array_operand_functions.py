"""CuPy's products and axis functions read their operands' attributes.

`cupy.tensordot`, `inner` and `kron` begin with `a.ndim` (kron after
letting numbers through to `multiply`), `vdot` with `a.size`, `outer` with
`a.ravel()` (cupy/linalg/_product.py), `transpose`, `swapaxes` and
`squeeze` are `return a.METHOD(...)` (cupy/_manipulation/transpose.py,
dims.py), `moveaxis` hands `a` to a Cython routine typed as an ndarray, and
`dot` is `a.dot(b, out)`, whose `b` is typed.  So a list (or a Python
number) is refused where NumPy converts it: a state-vector program that
contracts `cp.tensordot(gate_as_nested_list, psi, ...)` runs on NumPy and
stops on a GPU.  The fake converted lists as NumPy does."""
import numpy
import pytest


@pytest.mark.parametrize("name, attr", [("tensordot", "ndim"), ("inner", "ndim"),
                                        ("kron", "ndim"), ("vdot", "size"),
                                        ("outer", "ravel")])
def test_products_read_an_attribute_of_each_operand(cp, name, attr):
    x = cp.arange(4.0)
    with pytest.raises(AttributeError, match=f"'list' object has no attribute '{attr}'"):
        getattr(cp, name)([1.0, 2.0, 3.0, 4.0], x)
    with pytest.raises(AttributeError, match=f"'list' object has no attribute '{attr}'"):
        getattr(cp, name)(x, [1.0, 2.0, 3.0, 4.0])


def test_tensordot_of_a_0d_array(cp):
    # CuPy multiplies a 0-d operand when axes is 0 and raises ValueError for
    # any other axes; NumPy raised IndexError (tuple index out of range).
    s, m = cp.asarray(2.0), cp.ones((2, 2))
    assert cp.tensordot(s, m, 0).get().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert cp.tensordot(s, m, axes=((), ())).shape == (2, 2)
    for axes in (2, 1, ([0], [0])):
        with pytest.raises(ValueError, match="An input is zero-dim while axes has dimensions"):
            cp.tensordot(s, m, axes)


def test_kron_takes_python_numbers_and_tensordot_does_not(cp):
    x = cp.arange(3.0)
    assert cp.kron(2, x).get().tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(AttributeError, match="'float' object has no attribute 'ndim'"):
        cp.tensordot(2.0, x, 0)


@pytest.mark.parametrize("call", [lambda cp: cp.transpose([[1, 2]]),
                                  lambda cp: cp.swapaxes([[1, 2]], 0, 1),
                                  lambda cp: cp.squeeze([[1, 2]])])
def test_axis_methods_of_a_list(cp, call):
    with pytest.raises(AttributeError, match="'list' object has no attribute"):
        call(cp)


def test_axis_methods_of_a_numpy_array_answer_with_numpy(cp):
    h = numpy.arange(6).reshape(2, 3)
    r = cp.transpose(h)
    assert type(r) is numpy.ndarray and r.shape == (3, 2)
    assert type(cp.swapaxes(h, 0, 1)) is numpy.ndarray
    assert type(cp.squeeze(h[None])) is numpy.ndarray


def test_moveaxis_and_dot_want_cupy_arrays(cp):
    with pytest.raises(TypeError, match="Argument 'a' has incorrect type"):
        cp.moveaxis([[1, 2]], 0, 1)
    with pytest.raises(TypeError, match="Argument 'b' has incorrect type"):
        cp.dot(cp.eye(2), [1.0, 2.0])


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_scans_want_cupy_arrays(cp, name):
    # CuPy's cumsum and cumprod hand `a` to _math.scan_core, typed as an
    # ndarray: a list, a Python number or a NumPy scalar is refused (CuPy
    # 13.6 answers so without a GPU), where NumPy converts them.
    for value, type_name in (([1, 2], "list"), (3, "int"),
                             (numpy.int64(3), "numpy.int64")):
        with pytest.raises(TypeError, match=r"^Argument 'a' has incorrect type \(expected "
                           rf"cupy._core.core._ndarray_base, got {type_name}\)$"):
            getattr(cp, name)(value)
    assert getattr(cp, name)(cp.asarray([1, 2, 3])).get().tolist() == \
        getattr(numpy, name)([1, 2, 3]).tolist()
    # nancumsum and nancumprod read `a.dtype` first.
    with pytest.raises(AttributeError, match="'list' object has no attribute 'dtype'"):
        getattr(cp, "nan" + name)([1.0, 2.0])


def test_cupy_operands_are_unchanged(cp):
    psi = cp.arange(8.0).reshape(2, 2, 2)
    h = cp.asarray([[1.0, 1.0], [1.0, -1.0]]) / numpy.sqrt(2)
    r = cp.moveaxis(cp.tensordot(h, psi, axes=([1], [1])), 0, 1)
    want = numpy.moveaxis(numpy.tensordot(h.get(), psi.get(), axes=([1], [1])), 0, 1)
    numpy.testing.assert_allclose(r.get(), want)
    assert cp.kron(cp.eye(2), h).shape == (4, 4)
    assert float(cp.vdot(psi, psi)) == 140.0
    assert cp.outer(cp.arange(2), cp.arange(3)).shape == (2, 3)
    assert cp.swapaxes(psi, 0, 2).shape == (2, 2, 2)
    assert cp.dot(h, cp.ones(2)).shape == (2,)
