"""RawKernel and RawModule: argument conversion, strict mode, real kernels
(block reduction, warp shuffle, struct argument), faults."""
import warnings

import numpy
import pytest

import kernels


@pytest.fixture
def scalars(cp):
    return cp.RawKernel(kernels.SCALARS, "scalars")


def _outs(cp):
    return (cp.zeros(1, cp.int64), cp.zeros(1, cp.float64), cp.zeros(1, cp.bool_),
            cp.zeros(2, cp.float64), cp.zeros(1, cp.float32), cp.zeros(1, cp.int32),
            cp.zeros(1, cp.uint64))


def test_python_and_numpy_scalars_are_converted_as_cupy_does(cp, scalars):
    outs = _outs(cp)
    # int -> long long, float -> double, bool -> bool, complex -> complex
    # double; NumPy scalars and size-one NumPy arrays by value as their dtype.
    scalars((1,), (1,), (-(2 ** 40), 2.5, True, 3 - 4j, numpy.float32(1.25),
                         numpy.array([7], dtype=numpy.int32), 2 ** 63 + 5) + outs)
    i, d, b, c, f, k, u = (o.get() for o in outs)
    assert i[0] == -(2 ** 40)
    assert d[0] == 2.5
    assert b[0]
    assert list(c) == [3.0, -4.0]
    assert f[0] == numpy.float32(1.25)
    assert k[0] == 7
    assert u[0] == 2 ** 63 + 5   # from 2**63 on, int is unsigned long long


def test_numpy_scalar_types_keep_their_dtype(cp, scalars):
    outs = _outs(cp)
    scalars((1,), (1,), (numpy.int64(5), numpy.float64(0.5), numpy.bool_(False),
                         numpy.complex128(1j), numpy.array(2.0, numpy.float32),
                         numpy.int32(-3), numpy.uint64(9)) + outs)
    i, d, b, c, f, k, u = (o.get() for o in outs)
    assert (i[0], d[0], bool(b[0]), list(c), f[0], k[0], u[0]) == \
        (5, 0.5, False, [0.0, 1.0], 2.0, -3, 9)


def test_larger_numpy_array_raises_cupys_type_error(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    y = cp.zeros(4, cp.float32)
    # CuPy's text (cupy/cuda/function.pyx, _pointer).
    expected = ("You are trying to pass a numpy.ndarray of shape (4,) as a "
                "kernel parameter. Only numpy.ndarrays of size one can be "
                "passed by value. If you meant to pass a pointer to "
                "__global__ memory, you need to pass a cupy.ndarray instead.")
    with pytest.raises(TypeError) as info:
        k((1,), (4,), (numpy.float32(1), numpy.ones(4, numpy.float32), y,
                       numpy.int32(4)))
    assert str(info.value) == expected


def test_unsupported_object_raises_type_error(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    with pytest.raises(TypeError, match="Unsupported type <class 'str'>"):
        k((1,), (4,), ("2", None, None, 4))


def test_strict_mode_names_the_parameter(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(8, cp.float32)
    y = cp.zeros(8, cp.float32)
    n = numpy.int32(8)
    with pytest.raises(TypeError, match=r"takes 4 arguments but 3 were given"):
        k((1,), (8,), (numpy.float32(2), x, y))
    # An 8-byte double for a 4-byte float parameter.
    with pytest.raises(TypeError, match=r"argument 0 of kernel axpy \(float\) is "
                                        r"4 bytes but got 8-byte float64"):
        k((1,), (8,), (2.0, x, y, n))
    # A Python int for an int parameter is accepted (see
    # test_python_ints_fit_every_integer_width); a Python float for a float
    # parameter is not.
    # A pointer for a scalar, and a scalar for a pointer.
    with pytest.raises(TypeError, match=r"argument 0 of kernel axpy \(float\) is a "
                                        r"4-byte value but got a float32 array"):
        k((1,), (8,), (x, x, y, n))
    with pytest.raises(TypeError, match=r"argument 1 of kernel axpy \(const float \*\) "
                                        r"takes an array"):
        k((1,), (8,), (numpy.float32(2), numpy.float32(1), y, n))
    # An array of another dtype than the pointed-to type.
    with pytest.raises(TypeError, match=r"argument 2 of kernel axpy \(float \*\) "
                                        r"points to float but got a float64 array"):
        k((1,), (8,), (numpy.float32(2), x, cp.zeros(8), n))
    # A 4-byte int for a 4-byte float: same size, wrong kind.
    with pytest.raises(TypeError, match=r"argument 0 of kernel axpy \(float\) is a "
                                        r"floating-point value"):
        k((1,), (8,), (numpy.int32(2), x, y, n))
    k((1,), (8,), (numpy.float32(2), x, y, n))
    assert (y.get() == 2).all()
    # An address as a Python int is a valid pointer argument, as on a GPU.
    k((1,), (8,), (numpy.float32(1), x.data.ptr, y, n))
    assert (y.get() == 3).all()


def test_extra_arguments_are_ignored_as_by_cuda(cp):
    # CuPy packs every argument and cuLaunchKernel reads only as many as the
    # kernel has, so extra ones do nothing (glcm-cupy 0.2.1 passes a fifth
    # argument to four-parameter kernels). The fake runs such a launch;
    # strict mode warns. Too few arguments stay an error (test above).
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(8, cp.float32)
    y = cp.zeros(8, cp.float32)
    n = numpy.int32(8)
    with pytest.warns(RuntimeWarning, match=r"kernel axpy takes 4 arguments "
                                            r"but 6 were given"):
        k((1,), (8,), (numpy.float32(2), x, y, n, True, cp.zeros(3)))
    assert (y.get() == 2).all()
    old = cp.set_strict(False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            k((1,), (8,), (numpy.float32(1), x, y, n, 7))
    finally:
        cp.set_strict(old)
    assert (y.get() == 3).all()
    # Extra arguments are still converted, as CuPy packs them all.
    with pytest.raises(TypeError, match="Unsupported type"):
        k((1,), (8,), (numpy.float32(1), x, y, n, "x"))


def test_strict_mode_can_be_turned_off(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(8, cp.float32)
    y = cp.zeros(8, cp.float32)
    old = cp.set_strict(False)
    try:
        # As on a GPU, the int32 bits are read as a float: garbage, no error.
        k((1,), (8,), (numpy.int32(0), x, y, numpy.int32(8)))
    finally:
        cp.set_strict(old)
    assert (y.get() == 0).all()


def test_grid_and_block_must_be_tuples(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    with pytest.raises(TypeError, match="Argument 'grid' has incorrect type"):
        k(1, (8,), ())


def test_block_reduction_through_rawkernel(cp):
    k = cp.RawKernel(kernels.BLOCK_SUM, "block_sum")
    host = numpy.random.default_rng(1).random(1000)
    x = cp.asarray(host)
    partial = cp.zeros(8)
    k((8,), (128,), (x, partial, numpy.int32(x.size)), shared_mem=128 * 8)
    expected = host.reshape(-1)
    sums = [expected[i * 128:(i + 1) * 128].sum() for i in range(8)]
    numpy.testing.assert_allclose(partial.get(), sums, rtol=1e-12)


def test_shuffle_reduction_through_rawkernel(cp):
    k = cp.RawKernel(kernels.WARP_SUM, "warp_sum")
    x = cp.arange(1000, dtype=cp.float32)
    out = cp.zeros(1, cp.float32)
    k((4,), (256,), (x, out, numpy.int32(1000)))
    assert out.get()[0] == pytest.approx(999 * 1000 / 2)


def test_struct_argument_through_rawkernel(cp):
    k = cp.RawKernel(kernels.STRUCT, "weigh")
    particle = numpy.dtype([("mass", "f8"), ("x", "f4"), ("y", "f4"), ("id", "i4")],
                           align=True)
    p = numpy.array((2.0, 0.25, 0.5, 3), dtype=particle)[()]
    out = cp.zeros(4)
    k((1,), (4,), (p, 10.0, out))
    numpy.testing.assert_allclose(out.get(), [(20.75) * (3 + t) for t in range(4)])
    # A struct of the wrong size is refused in strict mode.
    packed = numpy.dtype([("mass", "f8"), ("x", "f4"), ("y", "f4"), ("id", "i4")])
    with pytest.raises(TypeError, match=r"argument 0 of kernel weigh \(Particle\) is "
                                        r"24 bytes but got a 20-byte structured"):
        k((1,), (4,), (numpy.array((2.0, 0.25, 0.5, 3), dtype=packed)[()], 10.0, out))


def test_complex_argument(cp):
    src = r'''
    #include <cuComplex.h>
    extern "C" __global__ void cmul(cuDoubleComplex a, cuDoubleComplex *x) {
      x[threadIdx.x] = cuCmul(a, x[threadIdx.x]);
    }'''
    k = cp.RawKernel(src, "cmul")
    x = cp.asarray(numpy.array([1 + 1j, 2, 1j]))
    k((1,), (3,), (2j, x))
    numpy.testing.assert_allclose(x.get(), numpy.array([1 + 1j, 2, 1j]) * 2j)


@pytest.mark.parametrize("kernel, args, error", [
    ("trap_at", (numpy.int32(3),), "CUDA_ERROR_ILLEGAL_INSTRUCTION"),
    ("write_to", (0,), "CUDA_ERROR_ILLEGAL_ADDRESS"),
])
def test_fault_raises_at_next_sync_and_interpreter_survives(cp, kernel, args, error):
    k = cp.RawKernel(kernels.FAULTS, kernel)
    k((1,), (8,), args)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match=error) as info:
        cp.cuda.Device().synchronize()
    assert f"kernel {kernel}" in str(info.value)
    assert "thread (" in str(info.value)
    # The interpreter and the emulated device are still usable.
    a = cp.arange(4)
    assert a.sum().item() == 6
    cp.cuda.Device().synchronize()


def test_emulator_error_raises_cuda_driver_error(cp):
    # Threads of one block waiting at two different barriers: a GPU hangs or
    # misbehaves; the emulator stops the launch and says where.
    src = r'''
    extern "C" __global__ void split_barrier(int *x) {
      if (threadIdx.x < 16) {
        __syncthreads();
      } else {
        __syncthreads();
      }
      x[threadIdx.x] = 1;
    }'''
    k = cp.RawKernel(src, "split_barrier")
    x = cp.zeros(32, cp.int32)
    k((1,), (32,), (x,))
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_LAUNCH_FAILED") as info:
        cp.cuda.Stream.null.synchronize()
    assert "DIVERGENT_BARRIER" in str(info.value)
    assert "kernel split_barrier" in str(info.value)


def test_device_assert_names_the_source_line(cp):
    k = cp.RawKernel(kernels.FAULTS, "assert_positive")
    x = cp.asarray(numpy.array([1, 2, -3, 4], dtype=numpy.int32))
    k((1,), (4,), (x, numpy.int32(4)))
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_ASSERT: device-side assert triggered") as info:
        x.get()
    message = str(info.value)
    assert "kernel assert_positive" in message
    assert "thread (2,0,0)" in message
    assert "x[i] > 0" in message


@pytest.mark.parametrize("mode", ["immediate", "deferred"])
def test_bad_launch_configuration_raises_at_the_launch(cp, mode):
    cp.cuda.set_async_mode(mode)
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(8, cp.float32)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_INVALID_VALUE"):
        k((1,), (2048,), (numpy.float32(1), x, x, numpy.int32(8)))
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_INVALID_VALUE"):
        k((1,), (8,), (numpy.float32(1), x, x, numpy.int32(8)), shared_mem=64 * 1024)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_INVALID_VALUE"):
        k((1, 70000), (8,), (numpy.float32(1), x, x, numpy.int32(8)))
    # Nothing bad was left queued for the next synchronization.
    cp.cuda.Device().synchronize()


def test_compiles_from_many_threads_at_once(cp):
    # Each round is a source no thread has compiled yet, so that all of
    # them compile it at the same moment.
    import threading
    import uuid
    for _ in range(3):
        src = kernels.AXPY + f"// {uuid.uuid4()}\n"
        errors, results = [], []

        def work():
            try:
                y = cp.zeros(16, cp.float32)
                cp.RawKernel(src, "axpy")((1,), (16,), (
                    numpy.float32(2), cp.ones(16, cp.float32), y,
                    numpy.int32(16)))
                results.append(y.get().tolist())
            except Exception as e:  # collected and reported below
                errors.append(repr(e))
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert results == [[2.0] * 16] * 8
        # And later single-threaded use of the same source still works.
        y = cp.zeros(4, cp.float32)
        cp.RawKernel(src, "axpy")((1,), (4,), (numpy.float32(1),
                                               cp.ones(4, cp.float32), y,
                                               numpy.int32(4)))
        assert (y.get() == 1).all()


def test_memory_pointer_is_passed_as_its_address(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x, y = cp.ones(8, cp.float32), cp.zeros(8, cp.float32)
    k((1,), (8,), (numpy.float32(3), x.data, y.data + 0, numpy.int32(8)))
    assert (y.get() == 3).all()
    # An offset pointer reaches the middle of the allocation.
    z = cp.zeros(8, cp.float32)
    k((1,), (4,), (numpy.float32(1), x, z.data + 16, numpy.int32(4)))
    assert z.get().tolist() == [0] * 4 + [1] * 4


def test_attributes_and_dynamic_shared_limit(cp):
    k = cp.RawKernel(kernels.BLOCK_SUM, "block_sum")
    assert k.max_threads_per_block == 1024
    assert k.num_regs > 0
    assert k.shared_size_bytes >= 0
    assert k.attributes["max_dynamic_shared_size_bytes"] == 48 * 1024
    x = cp.ones(128)
    out = cp.zeros(1)
    k.max_dynamic_shared_size_bytes = 100 * 1024
    assert k.max_dynamic_shared_size_bytes == 100 * 1024
    k((1,), (128,), (x, out, numpy.int32(128)), shared_mem=80 * 1024)
    assert out.get()[0] == 128.0


def test_compile_error_is_cupys_compile_exception(cp):
    k = cp.RawKernel('extern "C" __global__ void broken() { undeclared(); }', "broken")
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        k.compile()
    # The compiler's log names the undeclared function, as NVRTC's does.
    assert "undeclared" in info.value.log
    assert "undeclared" in str(info.value)


def test_raw_module_functions_globals_and_name_expressions(cp):
    mod = cp.RawModule(code=kernels.MODULE, name_expressions=["scale<float, 3>"])
    counter = cp.ndarray((1,), cp.int32, mod.get_global("counter"))
    assert counter.get()[0] == 41
    out = cp.zeros(5, cp.int32)
    mod.get_function("bump")((1,), (5,), (out,))
    assert counter.get()[0] == 46
    factors = cp.ndarray((4,), cp.float32, mod.get_global("factors"))
    assert list(factors.get()) == [1, 2, 3, 4]
    x = cp.ones(8, cp.float32)
    mod.get_function("apply")((1,), (8,), (x,))
    assert list(x.get()) == [1, 2, 3, 4] * 2
    y = cp.ones(4, cp.float32)
    mod.get_function("scale<float, 3>")((1,), (4,), (y,))
    assert list(y.get()) == [3] * 4
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="CUDA_ERROR_NOT_FOUND"):
        mod.get_function("missing")


def test_raw_module_wants_exactly_one_of_code_and_path(cp, tmp_path):
    message = "Exactly one of `code` and `path` keyword arguments must be given."
    with pytest.raises(TypeError, match=message):
        cp.RawModule()
    with pytest.raises(TypeError, match=message):
        cp.RawModule(code=kernels.AXPY, path="x.cu")
    path = tmp_path / "axpy.cu"
    path.write_text(kernels.AXPY)
    k = cp.RawModule(path=str(path)).get_function("axpy")
    y = cp.zeros(4, cp.float32)
    k((1,), (4,), (numpy.float32(1), cp.ones(4, cp.float32), y, numpy.int32(4)))
    assert (y.get() == 1).all()


def test_raw_module_path_keeps_relative_includes(cp, tmp_path):
    (tmp_path / "twice.cuh").write_text(
        "__device__ float twice(float v) { return 2 * v; }\n")
    path = tmp_path / "uses_header.cu"
    path.write_text('#include "twice.cuh"\n'
                    'extern "C" __global__ void dbl(float *x) '
                    '{ x[threadIdx.x] = twice(x[threadIdx.x]); }\n')
    x = cp.ones(4, cp.float32)
    cp.RawModule(path=str(path)).get_function("dbl")((1,), (4,), (x,))
    assert (x.get() == 2).all()


def test_mixed_device_arguments_raise_value_error_naming_the_argument(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(4, cp.float32)
    with cp.cuda.Device(1):
        y = cp.zeros(4, cp.float32)
        assert y.device.id == 1
    with pytest.raises(ValueError, match=r"argument 2 is on \(device_type=2, "
                                         r"device_id=1\) but argument 1 is on "
                                         r"\(device_type=2, device_id=0\)"):
        k((1,), (4,), (numpy.float32(1), x, y, numpy.int32(4)))


def test_strict_mode_checks_struct_vector_and_enum_parameters(cp):
    src = r'''
    struct P { float a; int b; };
    enum Mode { A, B };
    extern "C" __global__ void agg(float2 v, P p, Mode m, float *out) {
      out[0] = v.x + v.y + p.a + p.b + (m == B ? 100.0f : 0.0f);
    }'''
    k = cp.RawKernel(src, "agg")
    out = cp.zeros(1, cp.float32)
    pair = numpy.dtype([("x", numpy.float32), ("y", numpy.float32)])
    p = numpy.zeros(1, numpy.dtype([("a", numpy.float32), ("b", numpy.int32)]))[0]
    p["a"], p["b"] = 2.0, 3
    v = numpy.array((1.0, 0.5), dtype=pair)[()]
    k((1,), (1,), (v, p, numpy.int32(1), out))
    assert out.get()[0] == 106.5
    k((1,), (1,), (numpy.complex64(1 + 0.5j), p, numpy.int32(0), out))
    assert out.get()[0] == 6.5                    # complex64 for a float2
    with pytest.raises(TypeError, match=r"argument 0 of kernel agg \(float2\) "
                                        "is a struct, vector or enum"):
        k((1,), (1,), (1.0, p, numpy.int32(0), out))   # an 8-byte double
    with pytest.raises(TypeError, match=r"argument 2 of kernel agg \(Mode\)"):
        k((1,), (1,), (v, p, numpy.float32(1), out))
    with pytest.raises(TypeError, match=r"argument 1 of kernel agg \(P\)"):
        k((1,), (1,), (v, 1.5, numpy.int32(0), out))


COOPERATIVE = r'''
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void two_phase(int *x, int *out, int n) {
  cg::grid_group g = cg::this_grid();
  for (int i = g.thread_rank(); i < n; i += g.size()) x[i] = i;
  g.sync();
  for (int i = g.thread_rank(); i < n; i += g.size()) out[i] = x[(i + 1) % n];
}'''


def test_cooperative_grid_too_large_shrinks_as_cupy_does(cp):
    k = cp.RawKernel(COOPERATIVE, "two_phase", enable_cooperative_groups=True)
    x, out = cp.zeros(512, cp.int32), cp.zeros(512, cp.int32)
    with pytest.warns(UserWarning, match="The grid size will be reduced from "
                                         "100000 to"):
        k((100000,), (128,), (x, out, numpy.int32(512)))
    assert (out.get() == (numpy.arange(512) + 1) % 512).all()
    with pytest.raises(ValueError, match=r"The specified grid size \(50000 \* 2 "
                                         r"\* 1\) exceeds the limit"):
        k((50000, 2), (128,), (x, out, numpy.int32(512)))
