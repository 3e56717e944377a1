"""The cuemu package's helpers: emulate_cuda_kernel, assert_kernels_agree,
device_function_kernel, BACKENDS, the backend fixture and parity cases."""
import sys

import numpy
import pytest

import cuemu
import kernels

SCALE = r'''
extern "C" __global__ void scale(double *x, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
'''

# Deliberately wrong for i == 7: the parity check must catch it.
SCALE_BUGGY = SCALE.replace("x[i] *= a;", "x[i] *= (i == 7 ? a + 1 : a);")


def scale_host(x, a, n):
    x[:n] *= a


def make_scale_args(backend, seed):
    x = numpy.random.default_rng(seed).random(1000)
    return (x, 2.5, x.size)


def test_emulate_cuda_kernel_writes_pointer_arguments_back():
    x = numpy.random.default_rng(0).random(1000).astype(numpy.float32)
    y = numpy.zeros(1000, dtype=numpy.float32)
    before = x.copy()
    # 2.0 and 1000 are cast to the float and int parameters.
    cuemu.emulate_cuda_kernel(kernels.AXPY, 2.0, x, y, 1000, n_threads=1000)
    numpy.testing.assert_allclose(y, 2.0 * x, rtol=1e-6)
    assert (x == before).all()          # const float * is not written back


def test_emulate_cuda_kernel_with_grid_block_and_shared_memory():
    x = numpy.arange(512, dtype=numpy.float64)
    partial = numpy.zeros(4)
    cuemu.emulate_cuda_kernel(kernels.BLOCK_SUM, x, partial, 512, grid=4,
                              block=128, shared_mem=128 * 8)
    assert partial.tolist() == [x[i * 128:(i + 1) * 128].sum() for i in range(4)]


def test_emulate_cuda_kernel_reports_faults():
    import fake_cupy
    with pytest.raises(fake_cupy.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_ILLEGAL_INSTRUCTION"):
        cuemu.emulate_cuda_kernel((kernels.FAULTS, "trap_at"), 0, n_threads=32)


def test_assert_kernels_agree_passes_and_names_the_differing_argument():
    results = cuemu.assert_kernels_agree((scale_host, SCALE), make_scale_args,
                                         n_threads=1000)
    assert set(results) == {"argument 0"}
    with pytest.raises(AssertionError, match="argument 0 differs between the host "
                                             "and the emulated kernel"):
        cuemu.assert_kernels_agree(cuemu.KernelPair(scale_host, SCALE_BUGGY),
                                   make_scale_args, n_threads=1000)
    with pytest.raises(ValueError, match="no CUDA version"):
        cuemu.assert_kernels_agree(cuemu.KernelPair(scale_host, None),
                                   make_scale_args, n_threads=1000)


AXPY_FLOAT = r'''
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
'''


def axpy_host(a, x, y, n):
    y[:n] += a * x[:n]


def test_assert_kernels_agree_takes_device_arrays_from_make_args():
    import fake_cupy

    def make_args(backend, seed):
        x = numpy.random.default_rng(seed).random(10).astype(numpy.float32)
        y = numpy.zeros(10, numpy.float32)
        if backend != "numpy":
            x, y = fake_cupy.asarray(x), fake_cupy.asarray(y)
        return (2.0, x, y, 10)
    results = cuemu.assert_kernels_agree((axpy_host, AXPY_FLOAT), make_args,
                                         n_threads=10, rtol=1e-6)
    assert set(results) == {"argument 1", "argument 2"}


def test_gpu_leg_casts_scalars_with_the_parameter_descriptor(monkeypatch):
    # The GPU leg, run here against the fake CuPy in place of the real one:
    # a Python float for a float parameter must arrive as 4 bytes (strict
    # mode would refuse a double).
    import sys
    import fake_cupy
    from cuemu import testing
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy)
    x = numpy.ones(10, numpy.float32)
    got = testing._run_gpu(cuemu.KernelPair(axpy_host, AXPY_FLOAT),
                           (2.0, x, numpy.zeros(10, numpy.float32), 10),
                           10, None, None, 0, 1, None, False)
    assert (got[2] == 2).all()


BSPLINE = r'''
__device__ int find_span(const double *t, int p, double eta) {
  int span = p;
  while (t[span + 1] <= eta) ++span;
  return span;
}
'''


def test_device_function_kernel():
    find_span = cuemu.device_function_kernel(
        BSPLINE, "int find_span(const double* t, int p, double eta)")
    assert find_span.name == "find_span_kernel"
    assert ("const double* t, const int* p, const double* eta, int* out, int n"
            in find_span.source)
    t = numpy.array([0, 0, 0, 0.25, 0.5, 0.75, 1, 1, 1])
    eta = numpy.array([0.1, 0.3, 0.6, 0.9])
    p = numpy.full(4, 2, dtype=numpy.int32)
    spans = numpy.zeros(4, dtype=numpy.int32)
    find_span(t, p, eta, spans, eta.size, n_threads=eta.size)
    assert spans.tolist() == [2, 3, 4, 5]
    # References and specifiers, as device functions in headers are written.
    refs = cuemu.device_function_kernel(
        "static inline __device__ double twice_into(const double& x, double& y)"
        " { y = 2 * x; return y + 1; }",
        "static inline __device__ double twice_into(const double& x, double& y)")
    assert "const double* x, double* y, double* out, int n" in refs.source
    x = numpy.arange(4.0)
    y = numpy.zeros(4)
    out = numpy.zeros(4)
    refs(x, y, out, 4, n_threads=4)
    assert y.tolist() == [0, 2, 4, 6] and out.tolist() == [1, 3, 5, 7]
    with pytest.raises(ValueError, match="pointer or reference return type"):
        cuemu.device_function_kernel(BSPLINE, "double* f(int a)")
    with pytest.raises(ValueError, match="clashes"):
        cuemu.device_function_kernel(BSPLINE, "int g(int out)")


def test_backends_list():
    names = [b if isinstance(b, str) else b.values[0] for b in cuemu.BACKENDS]
    assert names == ["numpy", "emulated", "cupy"]
    # Without the real CuPy there is no GPU leg (with it, either may hold).
    import importlib.util
    if importlib.util.find_spec("cupy") is None:
        assert not cuemu.gpu_available()


def test_gpu_available_refuses_cuemus_driver(monkeypatch):
    # A CuPy whose runtime found cuemu's libcuda.so.1 (LD_LIBRARY_PATH naming
    # cuemu-toolkit/compat) sees cuemu's device: that is no GPU leg.
    import types
    seen = {"name": b"cuemu emulated device (sm_90)"}
    runtime = types.SimpleNamespace(getDeviceCount=lambda: 1,
                                    getDeviceProperties=lambda d: dict(seen))
    cupy = types.ModuleType("cupy")
    cupy.IS_FAKE = False
    cupy.cuda = types.SimpleNamespace(runtime=runtime)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    assert not cuemu.gpu_available()
    seen["name"] = b"NVIDIA H200"
    assert cuemu.gpu_available()


def test_backend_fixture(backend):
    xp = cuemu.array_module(backend)
    a = xp.ones(4)
    assert float((a * 2).sum()) == 8.0


CASES = {
    "scale": cuemu.ParityCase(cuemu.KernelPair(scale_host, SCALE), make_scale_args,
                              {"n_threads": 1000}),
    "missing": cuemu.ParityCase(cuemu.KernelPair(scale_host, SCALE), None),
}


@pytest.mark.parametrize("case", cuemu.parity_cases(CASES))
def test_parity_cases(case):
    cuemu.check_parity(case)


def test_debug_and_check_options_keep_results():
    x = numpy.arange(300, dtype=numpy.float64)
    partial = numpy.zeros(3)
    # -g -O0 and the checkers (a correct kernel: no report) change nothing.
    cuemu.emulate_cuda_kernel(kernels.BLOCK_SUM, x, partial, 300, grid=3,
                              block=128, shared_mem=128 * 8, debug=True,
                              check="all")
    assert partial.tolist() == [x[:128].sum(), x[128:256].sum(), x[256:].sum()]
    cuemu.assert_kernels_agree((scale_host, SCALE), make_scale_args,
                               n_threads=1000, debug=True, check="race,mem")


def test_checkers_see_fake_arrays_as_device_allocations():
    import fake_cupy
    from cuemu import _binding
    if not hasattr(_binding.library(), "cuemu_alloc_register"):
        pytest.skip("this libcuemu has no checkers (cuemu_alloc_register)")
    source = r'''
    extern "C" __global__ void shifted(const float *x, float *y, int shift) {
      y[threadIdx.x] = x[threadIdx.x + shift];
    }'''
    x = numpy.ones(100, dtype=numpy.float32)
    y = numpy.zeros(32, dtype=numpy.float32)
    cuemu.emulate_cuda_kernel(source, x, y, 60, grid=1, block=32, check="mem")
    with pytest.raises(fake_cupy.cuda.driver.CUDADriverError) as info:
        cuemu.emulate_cuda_kernel(source, x, y, 90, grid=1, block=32, check="mem")
    message = str(info.value)
    assert "CHECK_REPORT" in message and "out-of-bounds" in message
    assert "cupy allocation" in message and "kernel shifted" in message
