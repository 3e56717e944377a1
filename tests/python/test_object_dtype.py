"""Device arrays of an object dtype are refused, as CuPy refuses them.

A tutorial's list of CuPy pitfalls ("no strings or objects in CuPy") tried
such arrays. The fake used to make them: NumPy wrote references to Python
objects into the device buffer without their reference counts, so
`cupy.arange(3).astype(object) + 1` ended the interpreter with a
segmentation fault. CuPy's array creation raises `ValueError("Unsupported
dtype object")`; so does the fake now, before any memory is taken."""
import numpy
import pytest

REFUSED = "^Unsupported dtype object$"


@pytest.mark.parametrize("make", [
    lambda cp: cp.zeros(3, dtype=object),
    lambda cp: cp.empty((2, 2), dtype=object),
    lambda cp: cp.ones(3, dtype="O"),
    lambda cp: cp.full(2, None, dtype=object),
    lambda cp: cp.ndarray((3,), dtype=object),
    lambda cp: cp.arange(3).astype(object),
    lambda cp: cp.array(numpy.array([1, "a"], dtype=object)),
    # A list holding a cupy array would meet the implicit-conversion
    # TypeError first, in NumPy's conversion of the list, as on CuPy
    # (tests/python/test_array_from_device_sequences.py).
    lambda cp: cp.asarray([numpy.arange(3), 0], dtype=object),
], ids=["zeros", "empty", "ones", "full", "ndarray", "astype", "array",
        "asarray"])
def test_object_arrays_are_refused(cp, make):
    used = cp.get_default_memory_pool().used_bytes()
    with pytest.raises(ValueError, match=REFUSED):
        make(cp)
    assert cp.get_default_memory_pool().used_bytes() == used


def test_structured_dtype_with_an_object_field_is_refused(cp):
    with pytest.raises(ValueError, match="^Unsupported dtype "):
        cp.zeros(2, dtype=[("x", "f8"), ("o", "O")])


def test_process_survives_and_plain_dtypes_still_work(cp):
    with pytest.raises(ValueError):
        cp.arange(3).astype(object)
    x = cp.arange(3).astype(cp.float32) + 1
    assert x.get().tolist() == [1.0, 2.0, 3.0]
    pair = cp.zeros(2, dtype=[("x", "f4"), ("n", "i4")])
    assert pair.dtype.names == ("x", "n")
