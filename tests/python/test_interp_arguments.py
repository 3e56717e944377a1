"""cupy.interp checks and casts its arguments as CuPy's (cupy/_math/misc.py).

Resampling scripts call `cp.interp(t, xp, fp)`. The fake delegated to NumPy's
interp, which takes a Python number or a list for x (answering a 0-d or 1-D
array), a strided x, and a `left`/`right` of any type. CuPy's reads
`xp.ndim`, `fp.ndim` and then `x.flags.c_contiguous` (a number or a list is
AttributeError there), refuses a non-C-contiguous x (NotImplementedError),
and casts `left` and `right` to fp's dtype before its kernel uses them, so an
integer fp with `left=0.5` gives 0.0 where NumPy gives 0.5."""
import numpy
import pytest


@pytest.fixture
def table(cp):
    xp = cp.asarray(numpy.array([0.0, 1.0, 2.0, 4.0]))
    fp = cp.asarray(numpy.array([0.0, 10.0, 20.0, 0.0]))
    return xp, fp


def test_values_dtype_and_shape_match_numpy(cp, table):
    xp, fp = table
    x = cp.asarray(numpy.array([[-1.0, 0.5], [3.0, numpy.nan]]))
    got = cp.interp(x, xp, fp)
    want = numpy.interp(cp.asnumpy(x), cp.asnumpy(xp), cp.asnumpy(fp))
    assert got.dtype == numpy.float64 and got.shape == (2, 2)
    numpy.testing.assert_array_equal(cp.asnumpy(got), want)
    f32 = cp.interp(x.astype(cp.float32), xp, fp.astype(cp.float32))
    assert f32.dtype == numpy.float64
    periodic = cp.interp(cp.asarray(numpy.array([5.0, -1.0])), xp, fp, period=4)
    numpy.testing.assert_array_equal(cp.asnumpy(periodic), numpy.interp(
        [5.0, -1.0], cp.asnumpy(xp), cp.asnumpy(fp), period=4))


def test_left_and_right_take_fps_dtype(cp):
    xp = cp.asarray(numpy.array([0.0, 1.0]))
    fp = cp.asarray(numpy.array([3, 4]))
    got = cp.interp(cp.asarray(numpy.array([-1.0, 0.5, 2.0])), xp, fp, left=0.5, right=7.9)
    assert cp.asnumpy(got).tolist() == [0.0, 3.5, 7.0]
    complex_fp = cp.interp(cp.asarray(numpy.array([-1.0])), xp, fp.astype(cp.complex64), left=1j)
    assert complex_fp.dtype == numpy.complex128 and complex(complex_fp[0]) == 1j


@pytest.mark.parametrize("x", [2.5, [0.5, 1.5]], ids=["python-number", "list"])
def test_x_must_be_a_cupy_array(cp, table, x):
    xp, fp = table
    with pytest.raises(AttributeError):
        cp.interp(x, xp, fp)


def test_refusals_are_cupys(cp, table):
    xp, fp = table
    x = cp.asarray(numpy.linspace(0, 4, 8))
    with pytest.raises(NotImplementedError, match="^Non-C-contiguous x is currently not supported$"):
        cp.interp(x[::2], xp, fp)
    with pytest.raises(ValueError, match="^xp and fp must be 1D arrays$"):
        cp.interp(x, xp.reshape(2, 2), fp)
    with pytest.raises(ValueError, match="^fp and xp are not of the same length$"):
        cp.interp(x, xp, fp[:3])
    with pytest.raises(ValueError, match="^array of sample points is empty$"):
        cp.interp(x, xp[:0], fp[:0])
    with pytest.raises(ValueError, match="^period must be a non-zero value$"):
        cp.interp(x, xp, fp, period=0)
    with pytest.raises(TypeError, match="^Cannot cast array data from .*complex128.* to "
                                        ".*float64.* according to the rule 'safe'$"):
        cp.interp(x.astype(cp.complex128), xp, fp)
    with pytest.raises(AttributeError):
        cp.interp(x, [0.0, 1.0], [0.0, 1.0])
