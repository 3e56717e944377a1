"""cuemu.compat.cunumpy: cunumpy.kernel_testing's calling forms (seed 004)
over cuemu, with stand-ins shaped like cunumpy's CudaKernel and Kernel."""
import types

import numpy
import pytest

from cuemu.compat import cunumpy as kt

AXPY = r'''
extern "C" __global__ void axpy(double a, const double *x, double *y, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
'''

SCALE = r'''
template <typename T, int N>
__global__ void scale(T* x, T factor, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) x[i] = factor * x[i] * (T)N;
}
'''


def cuda_kernel(source, name, **kw):
    """A stand-in with the properties of cunumpy's CudaKernel."""
    fields = dict(source=source, name=name, options=(), include_dirs=(),
                  source_dir=None, block_size=128, template_args=None,
                  n_threads_from=None)
    fields.update(kw)
    return types.SimpleNamespace(**fields)


def host_axpy(a, x, y, n):
    y[:n] += a * x[:n]


def make_axpy_args(backend, seed):
    assert backend in ("numpy", "cupy")      # the seed's backend names
    rng = numpy.random.default_rng(seed)
    return (2.0, rng.random(1000), numpy.zeros(1000), 1000)


def test_emulate_a_cudakernel_object_with_its_block_size():
    k = cuda_kernel(AXPY, "axpy", block_size=64,
                    n_threads_from="first_array")
    x, y = numpy.arange(100.0), numpy.zeros(100)
    kt.emulate_cuda_kernel(k, 2.0, x, y, 100, n_threads=100)
    assert (y == 2 * x).all()
    # n_threads from the kernel's n_threads_from ("first_array": none is
    # an array first here, so give a callable instead).
    k2 = cuda_kernel(AXPY, "axpy", n_threads_from=lambda args: args[3])
    kt.emulate_cuda_kernel(k2, 1.0, x, y, 100)
    assert (y == 3 * x).all()
    kt.emulate_cuda_kernel(k, 1.0, x, y, 100, n_threads=lambda args: args[3])
    assert (y == 4 * x).all()


def test_template_args():
    k = cuda_kernel(SCALE, "scale", template_args=(numpy.float64, 3))
    x = numpy.ones(10)
    kt.emulate_cuda_kernel(k, x, 2.0, 10, n_threads=10)
    assert (x == 6).all()
    assert kt.expression("scale", (numpy.float32, 2, True)) == \
        "scale<float, 2, true>"


def test_source_strings_still_work():
    x, y = numpy.arange(10.0), numpy.zeros(10)
    kt.emulate_cuda_kernel(AXPY, 1.0, x, y, 10, n_threads=10)
    assert (y == x).all()


def test_failures_name_the_kernel():
    bad = 'extern "C" __global__ void broken(int *x) { x[0] = nope; }'
    with pytest.raises(RuntimeError, match="kernel broken"):
        kt.emulate_cuda_kernel(bad, numpy.zeros(1, numpy.int32), n_threads=1)
    trap = 'extern "C" __global__ void trapping(int *x) { __trap(); }'
    with pytest.raises(RuntimeError, match="kernel trapping"):
        kt.emulate_cuda_kernel(trap, numpy.zeros(1, numpy.int32), n_threads=1)


def test_assert_kernels_agree_with_a_cunumpy_kernel():
    kernel = types.SimpleNamespace(name="axpy", host_kernel=host_axpy,
                                   cuda_kernel=cuda_kernel(AXPY, "axpy"))
    got = kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000)
    assert set(got) == {"argument 1", "argument 2"}
    got = kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000,
                                  outputs=("y",))
    assert set(got) == {"argument 2"}
    got = kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000,
                                  outputs=(-2,))
    assert set(got) == {"argument 2"}
    with pytest.raises(ValueError, match="no parameter named"):
        kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000,
                                outputs=("z",))
    with pytest.raises(ValueError, match="n_calls"):
        kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000,
                                n_calls=0)


def test_disagreement_names_the_kernel():
    def wrong_host(a, x, y, n):
        y[:n] += a * x[:n] + 1

    kernel = types.SimpleNamespace(name="axpy", host_kernel=wrong_host,
                                   cuda_kernel=cuda_kernel(AXPY, "axpy"))
    with pytest.raises(AssertionError, match="kernel axpy"):
        kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000)


def test_host_declared_outputs_and_missing_cuda():
    host = types.SimpleNamespace(outputs=(2,))
    host.__call__ = None

    class Host:
        outputs = (2,)

        def __call__(self, a, x, y, n):
            host_axpy(a, x, y, n)

    kernel = types.SimpleNamespace(name="axpy", host_kernel=Host(),
                                   cuda_kernel=cuda_kernel(AXPY, "axpy"))
    got = kt.assert_kernels_agree(kernel, make_axpy_args, n_threads=1000)
    assert set(got) == {"argument 2"}
    no_cuda = types.SimpleNamespace(name="axpy", host_kernel=host_axpy,
                                    cuda_kernel=None)
    with pytest.raises(ValueError, match="no CUDA version"):
        kt.assert_kernels_agree(no_cuda, make_axpy_args, n_threads=1000)


def test_cunumpy_headers_are_found_without_include_flags(tmp_path, monkeypatch):
    folder = tmp_path / "include" / "cunumpy"
    folder.mkdir(parents=True)
    (folder / "atomic.cuh").write_text(
        "__device__ inline double cunumpy_atomic_add(double *p, double v)"
        " { return atomicAdd(p, v); }\n")
    monkeypatch.setenv("CUNUMPY_INCLUDE_DIR", str(tmp_path / "include"))
    src = r'''
    #include <cunumpy/atomic.cuh>
    extern "C" __global__ void deposit(double *cell, int n) {
      if (threadIdx.x < n) cunumpy_atomic_add(cell, 1.0);
    }'''
    cell = numpy.zeros(1)
    kt.emulate_cuda_kernel(src, cell, 64, n_threads=64)
    assert cell[0] == 64


def test_device_function_kernel_with_block_size():
    header = "__device__ double twice(double v) { return 2 * v; }"
    k = kt.device_function_kernel(header, "double twice(double v)",
                                  block_size=32)
    v, out = numpy.arange(50.0), numpy.zeros(50)
    k(v, out, 50, n_threads=50)
    assert (out == 2 * v).all()
    with pytest.raises(TypeError):
        kt.device_function_kernel(header, "double twice(double v)",
                                  unknown_option=1)


def test_backends_and_ctype_of():
    assert kt.BACKENDS == ["numpy", "cupy"]
    assert kt.ctype_of(numpy.float64) == "double"
    assert kt.ctype_of(numpy.int32) == "int"
