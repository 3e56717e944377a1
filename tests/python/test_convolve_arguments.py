"""cupy.convolve and cupy.correlate check their arguments as CuPy's do
(cupy/_math/misc.py, cupy/_statistics/correlation.py).

Smoothing scripts write `cp.convolve(x, cp.ones(w) / w, mode='same')`. The
fake delegated to NumPy, which refuses a 2-D first operand ("object too deep
for desired array") and takes lists. CuPy's convolve reads `a.size` and
`v.size` (a list is AttributeError), refuses only a multidimensional `v`
("v cannot be multidimensional array"), and flattens `a`, so a 2-D signal is
convolved as its flattened samples; its correlate refuses empty operands
with "Array arguments cannot be empty" and anything but 1-D operands. The
values are NumPy's (checked here in every mode, either operand longer)."""
import numpy
import pytest


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("na, nv", [(7, 3), (3, 7), (4, 6), (5, 5)])
def test_values_match_numpy(cp, mode, na, nv):
    rng = numpy.random.default_rng(na * 10 + nv)
    a, v = rng.standard_normal(na), rng.standard_normal(nv)
    got = cp.convolve(cp.asarray(a), cp.asarray(v), mode=mode)
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.convolve(a, v, mode), atol=1e-12)
    got = cp.correlate(cp.asarray(a), cp.asarray(v), mode=mode)
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.correlate(a, v, mode), atol=1e-12)
    assert got.dtype == numpy.float64


def test_integer_dtype_is_kept(cp):
    a = cp.asarray(numpy.array([1, 2, 3], dtype=numpy.int32))
    got = cp.convolve(a, cp.asarray(numpy.array([1, 1], dtype=numpy.int32)))
    assert got.dtype == numpy.int32 and cp.asnumpy(got).tolist() == [1, 3, 5, 3]


def test_convolve_flattens_a_multidimensional_signal(cp):
    host = numpy.arange(10.0).reshape(2, 5)
    got = cp.convolve(cp.asarray(host), cp.asarray(numpy.ones(3)), mode="valid")
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.convolve(host.ravel(), numpy.ones(3), "valid"))


def test_refusals_are_cupys(cp):
    x = cp.asarray(numpy.arange(6.0))
    with pytest.raises(ValueError, match="^v cannot be multidimensional array$"):
        cp.convolve(x, cp.ones((2, 2)))
    with pytest.raises(ValueError, match="^a cannot be empty$"):
        cp.convolve(cp.zeros(0), x)
    with pytest.raises(ValueError, match="^v cannot be empty$"):
        cp.convolve(x, cp.zeros(0))
    with pytest.raises(ValueError, match="^Array arguments cannot be empty$"):
        cp.correlate(x, cp.zeros(0))
    with pytest.raises(ValueError, match="^object too deep for desired array$"):
        cp.correlate(x.reshape(2, 3), x)
    with pytest.raises(AttributeError):
        cp.convolve([1.0, 2.0], x)
    with pytest.raises(AttributeError):
        cp.correlate(x, [1.0, 2.0])
