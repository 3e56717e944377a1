"""Written for the real CuPy (nothing here knows about cuemu): CuPy's
kernel APIs, streams, pools and DLPack as a user's test suite uses them.
tests/python.sh runs it unchanged with CUEMU_FAKE_CUPY=1 and the plugin."""
import pickle

import cupy
import numpy
import pytest

TEMPLATES = r'''
#include <cupy/complex.cuh>
template <typename T>
__global__ void scale(T *x, T factor, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] *= factor;
}
'''


def test_elementwise_kernel_broadcasts():
    squared_diff = cupy.ElementwiseKernel(
        "T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    x = cupy.arange(10, dtype=cupy.float32).reshape(2, 5)
    y = cupy.arange(5, dtype=cupy.float32)
    z = squared_diff(x, y)
    cupy.testing.assert_array_equal(z, (x - y) ** 2)


def test_reduction_kernel():
    l2norm = cupy.ReductionKernel("T x", "T y", "x * x", "a + b",
                                  "y = sqrt(a)", "0", "l2norm")
    x = cupy.arange(10, dtype=cupy.float64).reshape(2, 5)
    cupy.testing.assert_allclose(l2norm(x, axis=1),
                                 cupy.sqrt((x * x).sum(axis=1)))


def test_raw_module_with_templates():
    names = ["scale<float>", "scale<double>", "scale<complex<double>>"]
    module = cupy.RawModule(code=TEMPLATES, options=("-std=c++17",),
                            name_expressions=names)
    for name, dtype, factor in [("scale<float>", cupy.float32, cupy.float32(2)),
                                ("scale<double>", cupy.float64, 2.0),
                                ("scale<complex<double>>", cupy.complex128, 2j)]:
        x = cupy.ones(100, dtype=dtype)
        module.get_function(name)((1,), (128,), (x, factor, 100))
        cupy.testing.assert_allclose(x, cupy.full(100, factor, dtype=dtype))


def test_fuse():
    @cupy.fuse()
    def squared_diff(x, y):
        return (x - y) * (x - y)

    x = cupy.arange(10, dtype=cupy.float32)
    cupy.testing.assert_array_equal(squared_diff(x, 2), (x - 2) ** 2)


def test_streams_events_and_pool():
    pool = cupy.get_default_memory_pool()
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        a = cupy.arange(1 << 16, dtype=cupy.float32)
        b = a * 2
        done = stream.record()
    done.synchronize()
    assert cupy.cuda.get_current_stream() == cupy.cuda.Stream.null
    assert float(b.sum()) == float(numpy.arange(1 << 16, dtype=numpy.float32).sum() * 2)
    assert pool.used_bytes() >= a.nbytes + b.nbytes
    del a, b
    pool.free_all_blocks()


def test_dlpack_round_trip():
    x = cupy.arange(12, dtype=cupy.float64).reshape(3, 4)
    y = cupy.from_dlpack(x)
    cupy.testing.assert_array_equal(x, y)
    host = numpy.from_dlpack(x.get())
    assert (host == numpy.arange(12).reshape(3, 4)).all()


def test_kernels_pickle():
    k = cupy.RawKernel(r'''
    extern "C" __global__ void fill(int *x, int v) { x[threadIdx.x] = v; }''',
                       "fill")
    k2 = pickle.loads(pickle.dumps(k))
    x = cupy.zeros(8, dtype=cupy.int32)
    k2((1,), (8,), (x, 7))
    assert (x.get() == 7).all()


def test_compile_error_is_compile_exception():
    k = cupy.RawKernel('extern "C" __global__ void bad() { nope; }', "bad")
    with pytest.raises(cupy.cuda.compiler.CompileException):
        k.compile()
