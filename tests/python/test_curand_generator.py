"""cupy.cuda.curand's generator calls (CuPy's thin wrapper of cuRAND's host
API, cupy_backends/cuda/libs/curand.pyx), as user scripts and CuPy's own
RandomState call them: a generator handle, a cupy array's `.data.ptr` and
its size."""
import numpy
import pytest


@pytest.fixture
def curand(cp):
    return cp.cuda.curand


def _draw(cp, curand, method, seed, fill, n, dtype, *args):
    g = curand.createGenerator(method)
    try:
        curand.setPseudoRandomGeneratorSeed(g, seed)
        curand.setGeneratorOffset(g, 0)
        out = cp.empty(n, dtype=dtype)
        fill(g, out.data.ptr, out.size, *args)
        return out.get()
    finally:
        curand.destroyGenerator(g)


def test_generators_fill_the_arrays_behind_data_ptr(cp, curand):
    xorwow = curand.CURAND_RNG_PSEUDO_XORWOW
    u = _draw(cp, curand, xorwow, 42, curand.generateUniform, 4096,
              numpy.float32)
    assert 0.0 < u.min() and u.max() <= 1.0 and abs(u.mean() - 0.5) < 0.03
    again = _draw(cp, curand, xorwow, 42, curand.generateUniform, 4096,
                  numpy.float32)
    assert (u == again).all()
    other = _draw(cp, curand, xorwow, 43, curand.generateUniform, 4096,
                  numpy.float32)
    assert (u != other).any()
    for method in (curand.CURAND_RNG_PSEUDO_DEFAULT,
                   curand.CURAND_RNG_PSEUDO_MRG32K3A,
                   curand.CURAND_RNG_PSEUDO_PHILOX4_32_10,
                   curand.CURAND_RNG_PSEUDO_MT19937):
        d = _draw(cp, curand, method, 7, curand.generateUniformDouble, 2048,
                  numpy.float64)
        assert 0.0 < d.min() and d.max() <= 1.0
        assert abs(d.mean() - 0.5) < 0.03
    z = _draw(cp, curand, xorwow, 1, curand.generateNormal, 4096,
              numpy.float32, 3.0, 2.0)
    assert abs(z.mean() - 3.0) < 0.15 and abs(z.std() - 2.0) < 0.15
    zd = _draw(cp, curand, xorwow, 1, curand.generateNormalDouble, 4096,
               numpy.float64, -1.0, 0.5)
    assert abs(zd.mean() + 1.0) < 0.05 and abs(zd.std() - 0.5) < 0.05
    ln = _draw(cp, curand, xorwow, 2, curand.generateLogNormal, 4096,
               numpy.float32, 0.0, 0.25)
    assert ln.min() > 0.0 and abs(numpy.log(ln).std() - 0.25) < 0.02
    lnd = _draw(cp, curand, xorwow, 2, curand.generateLogNormalDouble, 4096,
                numpy.float64, 1.0, 0.25)
    assert abs(numpy.log(lnd).mean() - 1.0) < 0.02
    p = _draw(cp, curand, xorwow, 3, curand.generatePoisson, 4096,
              numpy.uint32, 4.5)
    assert abs(p.mean() - 4.5) < 0.2 and p.max() > 9
    bits = _draw(cp, curand, xorwow, 3, curand.generate, 4096, numpy.uint32)
    assert bits.max() > 2**31 and len(numpy.unique(bits)) > 4000


def test_the_mean_and_stddev_of_double_normals_are_c_floats(cp, curand):
    # curand.pyx declares `float mean, float stddev` even for the double
    # forms: Cython rounds them to single precision.
    zd = _draw(cp, curand, curand.CURAND_RNG_PSEUDO_XORWOW, 5,
               curand.generateNormalDouble, 4, numpy.float64, 0.1, 0.0)
    assert (zd == float(numpy.float32(0.1))).all() and zd[0] != 0.1


def test_offset_and_stream_order_continue_the_sequence(cp, curand):
    g = curand.createGenerator(curand.CURAND_RNG_PSEUDO_XORWOW)
    curand.setPseudoRandomGeneratorSeed(g, 11)
    first = cp.empty(256, dtype=cp.float32)
    second = cp.empty(256, dtype=cp.float32)
    curand.generateUniform(g, first.data.ptr, first.size)
    curand.generateUniform(g, second.data.ptr, second.size)
    assert (first != second).any()
    curand.setGeneratorOffset(g, 0)
    replay = cp.empty(256, dtype=cp.float32)
    curand.generateUniform(g, replay.data.ptr, replay.size)
    assert bool((replay == first).all())
    curand.setGeneratorOffset(g, 1000)
    curand.generateUniform(g, replay.data.ptr, replay.size)
    assert bool((replay != first).any())
    # A kernel queued before the generation runs first, one after it sees
    # the values (cuRAND writes in the current stream's order).
    scale = cp.ElementwiseKernel("float32 x", "float32 y", "y = x * 2",
                                 "scale_by_two")
    stream = cp.cuda.Stream()
    with stream:
        curand.setStream(g, stream.ptr)
        scale(second, second)
        curand.setGeneratorOffset(g, 0)
        curand.generateUniform(g, second.data.ptr, second.size)
        doubled = scale(second)
    stream.synchronize()
    assert bool((second == first).all())
    assert bool((doubled == 2 * first).all())
    curand.destroyGenerator(g)


def test_cupys_own_odd_size_normal_pattern(cp, curand):
    # CuPy's RandomState._generate_normal draws one more value for an odd
    # size and slices it off.
    g = curand.createGenerator(curand.CURAND_RNG_PSEUDO_DEFAULT)
    out = cp.empty((7 + 1,), dtype=cp.float64)
    curand.generateNormalDouble(g, out.data.ptr, out.size, 0.0, 1.0)
    x = out[:7].reshape((7,))
    assert x.shape == (7,) and bool(cp.isfinite(x).all())
    curand.destroyGenerator(g)


def test_refusals_as_cupy_and_curand_give_them(cp, curand):
    g = curand.createGenerator(curand.CURAND_RNG_PSEUDO_PHILOX4_32_10)
    out = cp.empty(9, dtype=cp.float32)
    for name in ("generateNormal", "generateNormalDouble",
                 "generateLogNormal", "generateLogNormalDouble"):
        with pytest.raises(ValueError, match=f"^curand{name[0].upper()}"
                           f"{name[1:]} can only generate even number of "
                           "random variables simultaneously"):
            getattr(curand, name)(g, out.data.ptr, 9, 0.0, 1.0)
    with pytest.raises(curand.CURANDError,
                       match="CURAND_STATUS_OUT_OF_RANGE") as info:
        curand.generatePoisson(g, out.data.ptr, 8, 0.0)
    assert info.value.status == 104
    assert str(info.value) == "cuRAND Error: CURAND_STATUS_OUT_OF_RANGE"
    with pytest.raises(curand.CURANDError, match="CURAND_STATUS_TYPE_ERROR"):
        curand.generateLongLong(g, out.data.ptr, 4)
    with pytest.raises(curand.CURANDError, match="CURAND_STATUS_TYPE_ERROR"):
        curand.createGenerator(7)
    # Past the array: an illegal address on a GPU; the fake writes nothing.
    small = cp.zeros(4, dtype=cp.float32)
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_ILLEGAL_ADDRESS.*curandGenerateUniform"
                       ".*past the end"):
        curand.generateUniform(g, small.data.ptr, 8)
    assert bool((small == 0).all())
    with pytest.raises(OverflowError):
        curand.generateUniform(g, small.data.ptr, -1)
    curand.destroyGenerator(g)
    with pytest.raises(curand.CURANDError,
                       match="CURAND_STATUS_NOT_INITIALIZED"):
        curand.generateUniform(g, small.data.ptr, 4)
