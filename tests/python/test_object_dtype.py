"""Device arrays of an object dtype are refused, as CuPy refuses them.

A tutorial's list of CuPy pitfalls ("no strings or objects in CuPy") tried
such arrays. The fake used to make them: NumPy wrote references to Python
objects into the device buffer without their reference counts, so
`cupy.arange(3).astype(object) + 1` ended the interpreter with a
segmentation fault. CuPy's array creation raises `ValueError("Unsupported
dtype object")`; so does the fake now, before any memory is taken."""
import re

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


# A time-series script copies its timestamps to the device with the values
# (`cp.asarray(df.index.values)`). CuPy's array creation from host data takes
# only its numeric and bool types (and structured ones): datetime64 and
# timedelta64 have no C type there, and CuPy raises ValueError("Unsupported
# dtype datetime64[D]"). The fake had made such arrays, so the script ran on
# it and stopped on a GPU.
@pytest.mark.parametrize("host", [
    numpy.array(["2024-01-01", "2024-01-02"], dtype="datetime64[D]"),
    numpy.array([1, 2], dtype="timedelta64[s]"),
    numpy.arange("2024-01-01T00", "2024-01-01T03", dtype="datetime64[h]"),
], ids=["datetime64-days", "timedelta64-seconds", "datetime64-hours"])
def test_datetime_host_data_is_refused(cp, host):
    used = cp.get_default_memory_pool().used_bytes()
    for make in (cp.array, cp.asarray):
        with pytest.raises(ValueError, match=f"^Unsupported dtype {re.escape(str(host.dtype))}$"):
            make(host)
    with pytest.raises(ValueError, match="^Unsupported dtype datetime64"):
        cp.array([numpy.datetime64("2024-01-01")])
    assert cp.get_default_memory_pool().used_bytes() == used
    # The integers behind the timestamps are what a script can copy.
    ticks = cp.asarray(host.astype(numpy.int64))
    assert ticks.dtype == numpy.int64 and ticks.shape == host.shape
