"""cupyx.rsqrt, CuPy's ufunc for 1/sqrt(x) (loops e->e, f->f, d->d, F->F,
D->D), which layer norms, batch norms and eigen-solvers in public CuPy code
call (cupyx.rsqrt(var + eps), with dtype= in Chainer): the fake's cupyx had
no rsqrt (AttributeError)."""
import numpy
import pytest


@pytest.mark.parametrize("dtype, want", [
    (numpy.float16, numpy.float16), (numpy.float32, numpy.float32),
    (numpy.float64, numpy.float64), (numpy.complex64, numpy.complex64),
    (numpy.int8, numpy.float16), (numpy.int16, numpy.float32),
    (numpy.int32, numpy.float64), (numpy.bool_, numpy.float16)])
def test_rsqrt_types_and_values(cp, dtype, want):
    import fake_cupy._cupyx as cupyx
    host = (numpy.arange(1, 7) % 4 + 1).astype(dtype)
    out = cupyx.rsqrt(cp.asarray(host))
    assert isinstance(out, cp.ndarray) and out.dtype == want
    ref = 1 / numpy.sqrt(host.astype(numpy.complex128 if host.dtype.kind == "c"
                                     else numpy.float64))
    numpy.testing.assert_allclose(out.get(), ref, rtol=2e-3 if want == numpy.float16 else 1e-6)


def test_rsqrt_dtype_out_and_refusals(cp):
    import fake_cupy._cupyx as cupyx
    x = cp.asarray([4.0, 16.0], dtype=numpy.float64)
    assert cupyx.rsqrt(x, dtype=numpy.float32).dtype == numpy.float32
    out = cp.empty(2, numpy.float64)
    assert cupyx.rsqrt(x, out=out) is out
    assert out.get().tolist() == [0.5, 0.25]
    assert cupyx.rsqrt.nin == 1 and cupyx.rsqrt.types == ["e->e", "f->f", "d->d", "F->F", "D->D"]
    with pytest.raises(TypeError):
        cupyx.rsqrt(numpy.array([4.0]))      # NumPy arrays are refused, as by CuPy's ufuncs
