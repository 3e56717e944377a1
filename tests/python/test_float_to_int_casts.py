"""Float-to-integer casts of device arrays give the GPU's values, as CuPy
documents ("Differences between CuPy and NumPy": a negative float cast to
an unsigned type is 0, an infinity cast to int32 is 2147483647): the value
truncated and saturated to 32 or 64 bits, NaN 0, a char or short keeping
the low bits of the 32-bit result. NumPy's casts on x86 wrap instead, so
`(ndvi * 255).astype(cupy.uint8)` of a negative vegetation index was 255
minus something on the fake and 0 on a GPU."""
import numpy
import pytest

VALUES = [-1.0, 300.0, numpy.nan, numpy.inf, -numpy.inf, 2.7, -2.7, -200.0]


@pytest.mark.parametrize("dtype, expected", [
    ("uint8", [0, 44, 0, 255, 0, 2, 0, 0]),
    ("int8", [-1, 44, 0, -1, 0, 2, -2, 56]),
    ("uint16", [0, 300, 0, 65535, 0, 2, 0, 0]),
    ("int16", [-1, 300, 0, -1, 0, 2, -2, -200]),
    ("uint32", [0, 300, 0, 2**32 - 1, 0, 2, 0, 0]),
    ("int32", [-1, 300, 0, 2**31 - 1, -2**31, 2, -2, -200]),
    ("uint64", [0, 300, 0, 2**64 - 1, 0, 2, 0, 0]),
    ("int64", [-1, 300, 0, 2**63 - 1, -2**63, 2, -2, -200]),
])
@pytest.mark.parametrize("source", ["float16", "float32", "float64"])
def test_astype_converts_as_the_gpu(cp, source, dtype, expected):
    x = cp.array(VALUES, dtype=source)
    got = x.astype(dtype)
    assert got.dtype == numpy.dtype(dtype)
    assert got.get().tolist() == expected
    # cupy.array(x, dtype) is x.astype(dtype).
    assert cp.array(x, dtype=dtype).get().tolist() == expected


def test_assignment_and_copyto_convert_as_the_gpu(cp):
    x = cp.array(VALUES, dtype=numpy.float32)
    lut = cp.zeros(8, dtype=numpy.uint8)
    lut[...] = x
    assert lut.get().tolist() == [0, 44, 0, 255, 0, 2, 0, 0]
    lut[cp.arange(2)] = x[:2]
    assert lut.get()[:2].tolist() == [0, 44]
    out = cp.zeros(8, dtype=numpy.int32)
    cp.copyto(out, x, casting="unsafe")
    assert out.get().tolist() == [-1, 300, 0, 2**31 - 1, -2**31, 2, -2, -200]


def test_layout_and_host_data(cp):
    f = cp.asfortranarray(cp.arange(6.0).reshape(2, 3) - 3)
    got = f.astype(numpy.uint8)
    assert got.flags.f_contiguous and got.get().tolist() == [[0, 0, 0], [0, 1, 2]]
    # Host data is converted on the host by NumPy, as CuPy does.
    host = numpy.array([-1.0, 2.0])
    assert cp.asarray(host.astype(numpy.uint8)).get().tolist() == [255, 2]
    # Other casts are unchanged.
    assert cp.array([1.5, -1.5]).astype(bool).get().tolist() == [True, True]
    assert cp.array([-1, 256]).astype(numpy.uint8).get().tolist() == [255, 0]
