"""cupy.ediff1d takes cupy arrays only, as CuPy's (cupy/_math/sumprod.py).

Time-series scripts write `cp.ediff1d(t, to_begin=0)` to keep a difference
series as long as its input. The fake delegated to NumPy's ediff1d, which
takes a list for the input and a Python number for `to_begin`/`to_end`;
CuPy's raises TypeError for each ("`arr` should be of type cupy.ndarray",
"`to_begin` should be of type cupy.ndarray"), checks that their dtypes cast
to the input's under 'same_kind', and gives the input's dtype."""
import numpy
import pytest


def test_values_and_dtype_match_numpy(cp):
    host = numpy.array([[1, 4], [9, 16]], dtype=numpy.int32)
    x = cp.asarray(host)
    got = cp.ediff1d(x, to_begin=cp.asarray(numpy.array([0], numpy.int64)),
                     to_end=cp.asarray(numpy.array([[7, 8]], numpy.int8)))
    want = numpy.ediff1d(host, to_begin=[0], to_end=[7, 8])
    assert got.dtype == numpy.int32
    assert cp.asnumpy(got).tolist() == want.tolist()
    assert cp.asnumpy(cp.ediff1d(x)).tolist() == [3, 5, 7]


@pytest.mark.parametrize("kwargs, message", [
    ({"to_begin": 0}, "^`to_begin` should be of type cupy.ndarray$"),
    ({"to_end": [1.0]}, "^`to_end` should be of type cupy.ndarray$"),
    ({"to_end": numpy.array([1.0])}, "^`to_end` should be of type cupy.ndarray$"),
], ids=["python-number", "list", "numpy-array"])
def test_to_begin_and_to_end_must_be_cupy_arrays(cp, kwargs, message):
    x = cp.asarray(numpy.array([1.0, 3.0, 6.0]))
    with pytest.raises(TypeError, match=message):
        cp.ediff1d(x, **kwargs)


def test_refusals_are_cupys(cp):
    with pytest.raises(TypeError, match="^`arr` should be of type cupy.ndarray$"):
        cp.ediff1d([1, 2, 4])
    ints = cp.asarray(numpy.array([1, 2, 4]))
    with pytest.raises(TypeError, match="^dtype of `to_begin` must be compatible with input "
                                        "`arr` under the `same_kind` rule.$"):
        cp.ediff1d(ints, to_begin=cp.asarray(numpy.array([0.5])))
