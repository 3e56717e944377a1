"""RawKernel and RawModule as CuPy documents them: translate_cucomplex,
compile(log_stream=), pickling, jitify=, backend='nvcc', cooperative
groups, attributes, CuPy's headers and cupy.cuda.compiler's errors."""
import io
import json
import multiprocessing
import pickle
import warnings

import numpy
import pytest

import kernels
from fake_cupy import _nvrtc

needs_nvrtc = pytest.mark.skipif(not _nvrtc.available(), reason="needs NVRTC")

CUCOMPLEX = r'''
#include <cuComplex.h>
extern "C" __global__ void scale(cuDoubleComplex *z, cuDoubleComplex f, int n) {
  int i = threadIdx.x;
  if (i < n) z[i] = cuCmul(z[i], f);
}
'''


@pytest.mark.parametrize("translate", [False, True])
def test_translate_cucomplex(cp, translate):
    k = cp.RawKernel(CUCOMPLEX, "scale", translate_cucomplex=translate)
    z = cp.asarray(numpy.array([1 + 1j, 2, 1j]))
    k((1,), (3,), (z, 2j, 3))
    numpy.testing.assert_allclose(z.get(), numpy.array([1 + 1j, 2, 1j]) * 2j)


def test_translated_code_uses_cupys_complex_type(cp):
    # With the bridge, cuDoubleComplex is complex<double>: its operators work.
    src = CUCOMPLEX.replace("cuCmul(z[i], f)", "z[i] * f + complex<double>(1, 0)")
    k = cp.RawKernel(src, "scale", translate_cucomplex=True)
    z = cp.asarray(numpy.array([1 + 1j]))
    k((1,), (1,), (z, 2.0 + 0j, 1))
    assert z.get()[0] == (1 + 1j) * 2 + 1


def test_cupy_complex_header(cp):
    src = r'''
    #include <cupy/complex.cuh>
    extern "C" __global__ void f(const complex<float> *x, complex<float> *y,
                                 float *r, int n) {
      int i = threadIdx.x;
      if (i >= n) return;
      y[i] = exp(x[i]) * conj(x[i]) / complex<float>(2.0f, 0.0f) + sqrt(x[i]);
      r[i] = abs(x[i]) + arg(x[i]) + norm(x[i]) + x[i].real() - x[i].imag();
    }'''
    k = cp.RawKernel(src, "f")
    xs = numpy.array([1 + 2j, -0.5 + 0.25j, 3 - 1j, -2 - 2j], numpy.complex64)
    x = cp.asarray(xs)
    y = cp.zeros(4, cp.complex64)
    r = cp.zeros(4, cp.float32)
    k((1,), (4,), (x, y, r, 4))
    expect = numpy.exp(xs) * numpy.conj(xs) / 2 + numpy.sqrt(xs)
    numpy.testing.assert_allclose(y.get(), expect, rtol=1e-5)
    expect_r = numpy.abs(xs) + numpy.angle(xs) + numpy.abs(xs) ** 2 + xs.real - xs.imag
    numpy.testing.assert_allclose(r.get(), expect_r, rtol=1e-5)


def test_compile_writes_the_log_to_log_stream(cp):
    src = r'''
    extern "C" __global__ void warn(int *x) { int unused; x[0] = 1; }'''
    k = cp.RawKernel(src, "warn", options=("-DSOMETHING=1",))
    log = io.StringIO()
    k.compile(log_stream=log)
    if _nvrtc.available():
        assert "unused" in log.getvalue()     # NVRTC's warning
    x = cp.zeros(1, cp.int32)
    k((1,), (1,), (x,))
    assert int(x.get()[0]) == 1
    m = cp.RawModule(code=src)
    log = io.StringIO()
    m.compile(log_stream=log)
    m.compile()                               # once only


def test_kernels_and_modules_pickle(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    k.compile()
    k2 = pickle.loads(pickle.dumps(k))
    assert (k2.code, k2.name, k2.options) == (k.code, k.name, k.options)
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    k2((1,), (4,), (numpy.float32(3), x, y, 4))
    assert (y.get() == 3).all()
    m = cp.RawModule(code=kernels.AXPY)
    f = m.get_function("axpy")
    f2 = pickle.loads(pickle.dumps(f))
    m2 = pickle.loads(pickle.dumps(m))
    f2((1,), (4,), (numpy.float32(1), x, y, 4))
    m2.get_function("axpy")((1,), (4,), (numpy.float32(1), x, y, 4))
    assert (y.get() == 5).all()


def test_pickled_kernel_runs_in_another_process(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    blob = pickle.dumps(k)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        assert pool.apply(kernels.run_pickled_axpy, (blob,)) == [2.0] * 8


def test_jitify_is_deprecated(cp):
    with pytest.warns(DeprecationWarning, match="jitify=True is deprecated"):
        k = cp.RawKernel(kernels.AXPY, "axpy", jitify=True)
    with pytest.warns(DeprecationWarning,
                      match="The jitify argument is deprecated"):
        cp.RawKernel(kernels.AXPY, "axpy", jitify=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cp.RawKernel(kernels.AXPY, "axpy")
    assert issubclass(cp.cuda.compiler.JitifyException, Exception)
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    k((1,), (4,), (numpy.float32(1), x, y, 4))
    assert (y.get() == 1).all()
    with pytest.warns(DeprecationWarning):
        with pytest.raises(ValueError):
            cp.RawModule(code=kernels.AXPY, backend="nvcc", jitify=True)


def test_backend_rules(cp):
    with pytest.raises(ValueError):
        cp.RawKernel(kernels.AXPY, "axpy", backend="clang")
    with pytest.raises(ValueError, match="nvrtc"):
        cp.RawModule(code=kernels.AXPY, backend="nvcc",
                     name_expressions=["axpy"])
    # nvcc takes nvcc's options; the kernel runs the same.
    k = cp.RawKernel(kernels.AXPY, "axpy", backend="nvcc",
                     options=("-O3", "--use_fast_math"))
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    k((1,), (4,), (numpy.float32(1), x, y, 4))
    assert (y.get() == 1).all()


@needs_nvrtc
def test_nvrtc_refuses_unknown_options_as_cupy(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy", options=("--no-such-option",))
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        k.compile()
    assert "--no-such-option" in str(info.value)


def test_template_not_instantiated_is_not_found(cp):
    src = r'''
    template <typename T>
    __global__ void my_sqrt(T *x, int n) {
      int i = threadIdx.x;
      if (i < n) x[i] = x[i] * x[i];
    }'''
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="named symbol not found"):
        cp.RawModule(code=src).get_function("my_sqrt<int>")
    m = cp.RawModule(code=src, name_expressions=["my_sqrt<int>"])
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="named symbol not found"):
        m.get_function("my_sqrt<double>")
    x = cp.arange(4, dtype=cp.int32)
    m.get_function("my_sqrt<int>")((1,), (4,), (x, 4))
    assert x.get().tolist() == [0, 1, 4, 9]


@needs_nvrtc
def test_launching_a_kernel_needs_separate_compilation(cp):
    src = r'''
    extern "C" __global__ void child(float *x) { x[threadIdx.x] = 1; }
    extern "C" __global__ void parent(float *x) { child<<<1, 4>>>(x); }'''
    with pytest.raises(cp.cuda.compiler.CompileException):
        cp.RawKernel(src, "parent").compile()


@needs_nvrtc
def test_nvrtcs_verdict_outlives_the_process(monkeypatch, tmp_path):
    """A program NVRTC compiled is not compiled again by the next process
    (as CuPy loads it from its kernel cache): its Result is kept in the
    cache folder. A refusal is not kept."""
    monkeypatch.setenv("CUEMU_CACHE_DIR", str(tmp_path))
    code = 'extern "C" __global__ void kept(int *x) { x[0] = 1; }'
    monkeypatch.setattr(_nvrtc, "_cache", {})
    first = _nvrtc.compile(code, ["-arch=sm_90"])
    assert "kept" in first.entries
    [path] = (tmp_path / "fake_cupy" / "nvrtc").glob("*.json")
    kept = json.loads(path.read_text())
    kept["log"] = "from the kept file"
    path.write_text(json.dumps(kept))
    monkeypatch.setattr(_nvrtc, "_cache", {})      # as a new process
    again = _nvrtc.compile(code, ["-arch=sm_90"])
    assert again.log == "from the kept file" and again.entries == first.entries
    with pytest.raises(_nvrtc.Failure):
        _nvrtc.compile("this is not C++", ["-arch=sm_90"])
    assert len(list(path.parent.glob("*.json"))) == 1


@needs_nvrtc
def test_compile_exception_carries_nvrtcs_log(cp):
    src = 'extern "C" __global__ void bad(int *x) { x[0] = undefined_name; }'
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        cp.RawModule(code=src).get_function("bad")
    e = info.value
    assert 'identifier "undefined_name" is undefined' in e.log
    assert str(e) == e.get_message()
    assert e.source == src and e.backend == "nvrtc"


@needs_nvrtc
def test_a_compile_error_names_the_line_of_the_users_file(cp):
    # NVRTC's log named "kernel.cu(N)", N the line within the code string, so
    # a program holding many kernels in one Python file (a quantum
    # simulator's gate kernels, each an r'''...''' string) left the user
    # to count lines; it names the Python file and line that hold the error
    # now, as libcuemu's compile and the checkers' reports already did.
    src = r'''
    extern "C" __global__ void scale(double *v, int n) {
        int i = threadIdx.x;
        double t = v[i]
        if (i < n) v[i] = t * 2.0;   // the missing ";" is reported here
    }'''
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        cp.RawKernel(src, "scale").compile()
    here = __file__
    with open(here) as f:
        line = next(n for n, text in enumerate(f, 1)
                    if "the missing" in text and "reported here" in text)
    assert f"{here}({line})" in str(info.value), str(info.value)
    assert info.value.source == src


def test_user_options_reach_both_compilers(cp):
    src = r'''
    extern "C" __global__ void k(int *x) { x[0] = VALUE; }'''
    k = cp.RawKernel(src, "k", options=("-DVALUE=42", "--std=c++17"))
    x = cp.zeros(1, cp.int32)
    k((1,), (1,), (x,))
    assert int(x.get()[0]) == 42
    with pytest.raises(cp.cuda.compiler.CompileException):
        cp.RawKernel(src, "k").compile()      # VALUE undefined


def test_enable_cooperative_groups(cp):
    src = r'''
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void grid_sum(int *x, int *total) {
      cg::grid_group g = cg::this_grid();
      atomicAdd(total, x[g.thread_rank()]);
      g.sync();
      x[g.thread_rank()] = *total;
    }'''
    k = cp.RawKernel(src, "grid_sum", enable_cooperative_groups=True)
    x = cp.ones(64, cp.int32)
    total = cp.zeros(1, cp.int32)
    k((2,), (32,), (x, total))
    assert (x.get() == 64).all()


def test_attributes_come_from_the_device_model(cp):
    src = r'''
    extern "C" __global__ void tile(float *x) {
      __shared__ float t[256];
      t[threadIdx.x] = x[threadIdx.x];
      __syncthreads();
      x[threadIdx.x] = t[255 - threadIdx.x];
    }'''
    k = cp.RawKernel(src, "tile")
    x = cp.arange(256, dtype=cp.float32)
    k((1,), (256,), (x,))
    assert (x.get() == numpy.arange(256)[::-1]).all()
    attrs = k.attributes
    assert attrs["max_threads_per_block"] == k.max_threads_per_block == 1024
    assert k.shared_size_bytes == 1024
    assert 0 < k.num_regs <= 255
    assert k.ptx_version >= 50 and k.binary_version >= 50
    for name in ("const_size_bytes", "local_size_bytes", "cache_mode_ca",
                 "max_dynamic_shared_size_bytes",
                 "preferred_shared_memory_carveout"):
        assert isinstance(getattr(k, name), int)


def test_compiler_module(cp):
    assert cp.cuda.compiler.CompileException.__module__ == "cupy.cuda.compiler"
    if _nvrtc.available():
        ptx = cp.cuda.compiler.compile_using_nvrtc(kernels.AXPY)
        assert ".entry axpy" in ptx
        with pytest.raises(cp.cuda.compiler.CompileException):
            cp.cuda.compiler.compile_using_nvrtc("this is not C++")


def test_a_refused_compile_keeps_no_caller_alive(cp):
    # The compile error of a program (NVRTC's, remembered for the next
    # compile of the same code) must not hold its first caller's frames,
    # and with them that caller's arrays.
    import gc
    import weakref

    class Local:
        pass

    def attempt():
        local = Local()
        with pytest.raises(cp.cuda.compiler.CompileException):
            cp.RawModule(code="this is not C").compile()
        return weakref.ref(local)

    refs = [attempt(), attempt()]
    gc.collect()
    assert [r() for r in refs] == [None, None]


def test_texture_objects_over_cuda_arrays_and_linear_memory(cp):
    # cupy.cuda.texture over libcuemu's texture objects: a 2-D float array
    # sampled with linear filtering and clamping (texel centres give the
    # value, halfway gives the mean), and linear memory fetched by index.
    runtime, texture = cp.cuda.runtime, cp.cuda.texture
    w, h = 8, 4
    img = numpy.arange(w * h, dtype=numpy.float32).reshape(h, w)
    ch = texture.ChannelFormatDescriptor(
        32, 0, 0, 0, runtime.cudaChannelFormatKindFloat)
    arr = texture.CUDAarray(ch, w, h)
    arr.copy_from(img)
    back = numpy.zeros_like(img)
    arr.copy_to(back)
    assert (back == img).all()
    tex = texture.TextureObject(
        texture.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr),
        texture.TextureDescriptor((runtime.cudaAddressModeClamp,) * 2,
                                  runtime.cudaFilterModeLinear,
                                  runtime.cudaReadModeElementType))
    lin = cp.arange(16, dtype=cp.float32) * 2
    ltex = texture.TextureObject(
        texture.ResourceDescriptor(runtime.cudaResourceTypeLinear, arr=lin,
                                   chDesc=ch, sizeInBytes=lin.nbytes),
        texture.TextureDescriptor())
    mod = cp.RawModule(code=r'''
extern "C" __global__ void sample(cudaTextureObject_t t, float *out, int w,
                                  int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h)
    out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) +
                     tex2D<float>(t, x + 1.0f, y + 0.5f);
}
extern "C" __global__ void fetch(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, 15 - threadIdx.x);
}''')
    out = cp.zeros((h, w), cp.float32)
    mod.get_function("sample")((1, h), (w,), (tex, out, cp.int32(w),
                                              cp.int32(h)))
    right = numpy.concatenate([img[:, 1:], img[:, -1:]], axis=1)
    assert numpy.allclose(out.get(), img + (img + right) / 2, rtol=1e-2)
    o = cp.zeros(16, cp.float32)
    mod.get_function("fetch")((1,), (16,), (ltex, o))
    assert (o.get() == numpy.arange(16)[::-1] * 2).all()


def test_an_array_for_the_args_tuple(cp):
    # kernel(grid, block, args=(d)) passes d itself, not a tuple: CuPy
    # iterates it, so the arguments are d[0], d[1], ... (views, whose
    # pointers are d's elements) and the kernel's one parameter gets d's
    # address (a public program launched its kernels so). Strict mode warns
    # of the extra arguments.
    fill = cp.RawKernel(r'''
extern "C" __global__ void fill(float *d) { d[threadIdx.x] = threadIdx.x + 0.5f; }
''', "fill")
    for shape in ((8,), (4, 2)):
        d = cp.zeros(shape, dtype=cp.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            fill((1,), (8,), (d))
        assert d.get().ravel().tolist() == [i + 0.5 for i in range(8)]
