"""A test module written for the real CuPy (nothing here knows about cuemu).
tests/python.sh runs it unchanged with CUEMU_FAKE_CUPY=1 and the plugin."""
import cupy
import numpy
import pytest

SAXPY = cupy.RawKernel(r'''
extern "C" __global__
void saxpy(float a, const float* x, const float* y, float* out, unsigned int n) {
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) out[tid] = a * x[tid] + y[tid];
}
''', "saxpy")


def test_saxpy():
    n = 10000
    x = cupy.random.rand(n, dtype=cupy.float32)
    y = cupy.random.rand(n, dtype=cupy.float32)
    out = cupy.zeros(n, dtype=cupy.float32)
    SAXPY(((n + 255) // 256,), (256,), (cupy.float32(2.0), x, y, out, cupy.uint32(n)))
    cupy.testing.assert_allclose(out, 2.0 * x + y, rtol=1e-6)


def test_reduction_matches_numpy():
    host = numpy.random.default_rng(3).standard_normal(1000)
    dev = cupy.asarray(host)
    assert float(dev.sum()) == pytest.approx(host.sum())
    assert cupy.asnumpy(cupy.cumsum(dev))[-1] == pytest.approx(host.sum())


def test_stream_and_event():
    stream = cupy.cuda.Stream(non_blocking=True)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    with stream:
        start.record()
        a = cupy.arange(100) ** 2
        end.record()
    end.synchronize()
    assert cupy.cuda.get_elapsed_time(start, end) >= 0
    assert int(a[-1]) == 99 ** 2


def test_device_memory_is_not_numpy():
    with pytest.raises(TypeError):
        numpy.asarray(cupy.zeros(3))


def test_module_global():
    mod = cupy.RawModule(code=r'''
    __device__ float bias = 0.5f;
    extern "C" __global__ void add_bias(float* x) { x[threadIdx.x] += bias; }
    ''')
    x = cupy.zeros(32, dtype=cupy.float32)
    mod.get_function("add_bias")((1,), (32,), (x,))
    assert (x == 0.5).all()
