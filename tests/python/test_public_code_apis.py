"""CuPy APIs that public code with custom kernels uses, found by running such
code unchanged on the fake (docs/python.md, "Public code against the fake");
each test is the fake's behaviour reduced to what CuPy documents or does."""
import numpy
import pytest


def test_numpy_arrays_index_as_cupy_copies_them(cp):
    # CuPy converts a NumPy (or list) index to a device array first.
    x = cp.arange(12, dtype=numpy.float32).reshape(6, 2)
    rows = numpy.array([4, 0, 5])
    got = x[rows]
    assert isinstance(got, cp.ndarray)
    assert (got.get() == numpy.arange(12).reshape(6, 2)[rows]).all()
    assert (x[numpy.array([True, False] * 3)].get()[:, 0] == [0, 4, 8]).all()
    x[numpy.array([1, 2])] = 7
    assert (x.get()[1:3] == 7).all() and x.get()[0, 0] == 0
    with pytest.raises(IndexError):
        x[numpy.array([0.5])]
    # Still no implicit conversion of a NumPy operand.
    with pytest.raises(TypeError, match="Unsupported type"):
        x + numpy.ones((6, 2), numpy.float32)
