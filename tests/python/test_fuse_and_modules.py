"""cupy.fuse as CuPy documents it (one kernel per traced signature),
RawModule(path=...) on cuemu-nvcc's -cubin/-fatbin/-ptx outputs, and the
private modules CuPy's own test files import."""
import os
import shutil
import subprocess

import numpy
import pytest

import fake_cupy


def _count_launches(cp, monkeypatch):
    from fake_cupy import _elementwise
    launches = []
    real = _elementwise._launch

    def counting(kernel, *args):
        launches.append(kernel)
        return real(kernel, *args)
    monkeypatch.setattr(_elementwise, "_launch", counting)
    return launches


def test_fuse_is_one_kernel(cp, monkeypatch):
    launches = _count_launches(cp, monkeypatch)

    @cp.fuse(kernel_name="fused_poly")
    def poly(x, y, s):
        return cp.sin(x) * s + cp.where(x > y, x, y) // 2, x % 3

    xn = numpy.arange(10, dtype=numpy.float32)
    x = cp.asarray(xn)
    y = x[::-1]
    a, b = poly(x, y, 2)
    assert len(launches) == 1                      # one fused kernel
    assert launches[0].name == "fused_poly"        # kernel_name=
    assert a.dtype == numpy.float32                # 2 is a weak scalar
    expect = numpy.sin(xn) * 2 + numpy.where(xn > xn[::-1], xn,
                                             xn[::-1]) // 2
    assert numpy.allclose(a.get(), expect)
    assert (b.get() == xn % 3).all()
    poly(x, y, 3)
    assert len(launches) == 2 and launches[1] is launches[0]  # cached


def test_fuse_broadcast_promotion_reduction_and_in_place(cp, monkeypatch):
    launches = _count_launches(cp, monkeypatch)

    @cp.fuse()
    def scaled_sum(x, w):
        return cp.sum(x * w, axis=-1) * 2 + 1

    mn = numpy.arange(12, dtype=numpy.int16).reshape(3, 4)
    wn = numpy.arange(4, dtype=numpy.int8)
    r = scaled_sum(cp.asarray(mn), cp.asarray(wn))    # broadcasting
    assert len(launches) == 1
    assert r.dtype == numpy.int64                    # NumPy's sum of int16
    assert (r.get() == (mn * wn).sum(axis=-1) * 2 + 1).all()

    @cp.fuse()
    def accumulate(x, y):
        x += y * 2
    acc = cp.arange(4, dtype=numpy.int32)
    assert accumulate(acc, 5) is None
    assert (acc.get() == numpy.arange(4) + 10).all()

    @cp.fuse()
    def branchy(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(TypeError, match="truth value"):
        branchy(acc)


def test_fuse_calls_the_function_without_cupy_arrays(cp):
    @cp.fuse()
    def squared_diff(x, y):
        return (x - y) * (x - y)
    # CuPy: no cupy.ndarray among the arguments, the function runs itself.
    r = squared_diff(numpy.arange(3), numpy.ones(3))
    assert isinstance(r, numpy.ndarray) and (r == [1, 0, 1]).all()
    assert squared_diff(3, 1) == 4
    with pytest.raises(TypeError, match="Invalid argument type"):
        squared_diff(cp.arange(3), [1, 2, 3])


def test_fuse_traces_rsqrt_real_imag_and_more_ufuncs(cp, monkeypatch):
    # CuPy's fusion takes any of its ufuncs: cupyx.rsqrt, and cupy.real and
    # cupy.imag through their ufunc forms (F->f, D->d; a real input gives
    # itself and zeros of its own dtype). The fake refused all three.
    import fake_cupy._cupyx as cupyx
    scipy = pytest.importorskip("scipy")
    import scipy.special
    launches = _count_launches(cp, monkeypatch)

    @cp.fuse()
    def parts(z, x, i):
        out = (cupyx.rsqrt(x) + cp.real(z) * cp.imag(z), cp.imag(x),
               cp.real(x), cupyx.rsqrt(z), cupyx.rsqrt(i))
        i[...] = i * 3                  # CuPy's copy into an argument
        return out

    zn = (numpy.arange(1, 5) + 1j * numpy.arange(2, 6)).astype(numpy.complex64)
    xn = numpy.arange(1, 5, dtype=numpy.float32)
    i_n = numpy.array([1, 4, 16, 64], dtype=numpy.int16)
    ia = cp.asarray(i_n)
    a, b, c, d, e = parts(cp.asarray(zn), cp.asarray(xn), ia)
    assert len(launches) == 1
    assert (a.dtype, b.dtype, c.dtype, d.dtype, e.dtype) == (
        numpy.float32, numpy.float32, numpy.float32, numpy.complex64,
        numpy.float32)                 # int16 -> the f->f loop, as unfused
    numpy.testing.assert_allclose(a.get(), 1 / numpy.sqrt(xn) + zn.real * zn.imag,
                                  rtol=1e-6)
    assert (b.get() == 0).all() and (c.get() == xn).all()
    numpy.testing.assert_allclose(d.get(), 1 / numpy.sqrt(zn), rtol=1e-6)
    assert e.get().tolist() == [1, 0.5, 0.25, 0.125]
    assert (ia.get() == i_n * 3).all()

    @cp.fuse()
    def part_of(x):
        x[1:] = 0
    with pytest.raises(ValueError, match=r"supports `\[...\]` or `\[:\]`"):
        part_of(cp.asarray(xn))

    # ... ufuncs with two outputs (divmod, modf, frexp), refused before, and
    # cupyx.scipy.special's ufuncs.
    fake_cupy.install()
    try:
        import cupyx.scipy.special as sp
    finally:
        fake_cupy.uninstall()

    @cp.fuse()
    def others(x, y, n, m):
        return (cp.logaddexp(x, y) + cp.logaddexp2(x, y), cp.signbit(x - 2),
                cp.heaviside(x - 2, y), cp.gcd(n, m), cp.lcm(n, m),
                cp.float_power(x, 2), *cp.divmod(n - 5, m), *cp.modf(y - x),
                *cp.frexp(x), sp.erf(y) + sp.erfinv(y - 0.25) + sp.expit(x),
                sp.gammaln(x) + sp.j0(x) + sp.y1(x))

    yn = numpy.full(4, 0.5, numpy.float32)
    nn, mn = numpy.array([4, 6, 9, 0]), numpy.array([6, 4, 6, 5])
    got = others(cp.asarray(xn), cp.asarray(yn), cp.asarray(nn), cp.asarray(mn))
    want = (numpy.logaddexp(xn, yn) + numpy.logaddexp2(xn, yn),
            numpy.signbit(xn - 2), numpy.heaviside(xn - 2, yn),
            numpy.gcd(nn, mn), numpy.lcm(nn, mn), numpy.float_power(xn, 2),
            *numpy.divmod(nn - 5, mn), *numpy.modf(yn - xn), *numpy.frexp(xn),
            (scipy.special.erf(yn) + scipy.special.erfinv(yn - numpy.float32(0.25))
             + scipy.special.expit(xn)),
            scipy.special.gammaln(xn) + scipy.special.j0(xn) + scipy.special.y1(xn))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        numpy.testing.assert_allclose(g.get(), w, rtol=1e-6, atol=1e-6)


    @cp.fuse()
    def complex_erf(z):
        return sp.erf(z)
    with pytest.raises(NotImplementedError, match="erf.*complex"):
        complex_erf(cp.asarray(zn))


def _cuemu_nvcc():
    build = os.environ.get("CUEMU_BUILDDIR") or os.environ.get("CUEMU_SRCDIR")
    if build and os.path.isfile(os.path.join(build, "cuemu-nvcc")):
        return os.path.join(build, "cuemu-nvcc")
    return shutil.which("cuemu-nvcc")


_MODULE_SOURCE = r"""
__device__ int offset = 7;
extern "C" __global__ void ramp(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = offset + 2 * i;
}
"""


def test_raw_module_loads_cuemu_nvcc_outputs(cp, tmp_path):
    nvcc = _cuemu_nvcc()
    if nvcc is None:
        pytest.skip("cuemu-nvcc is not built")
    src = tmp_path / "ramp.cu"
    src.write_text(_MODULE_SOURCE)
    # One build: -cubin, -fatbin and -ptx write the same cuemu module.
    cubin = tmp_path / "ramp.cubin"
    subprocess.run([nvcc, "-cubin", str(src), "-o", str(cubin)], check=True)
    shutil.copy(cubin, tmp_path / "ramp.ptx")
    for name, offset in (("ramp.cubin", 7), ("ramp.ptx", 40)):
        module = cp.RawModule(path=str(tmp_path / name))
        cp.ndarray((1,), numpy.int32, module.get_global("offset"))[...] = \
            offset
        out = cp.zeros(5, dtype=numpy.int32)
        module.get_function("ramp")((1,), (32,), (out, 5))
        assert (out.get() == offset + 2 * numpy.arange(5)).all()
    # An NVIDIA fatbinary (its magic number) has no code for a CPU.
    fake = tmp_path / "nvcc.cubin"
    fake.write_bytes(b"\x50\xed\x55\xba\x01\x00\x10\x00" + bytes(64))
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_INVALID_IMAGE"):
        cp.RawModule(path=str(fake)).get_function("ramp")
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_FILE_NOT_FOUND"):
        cp.RawModule(path=str(tmp_path / "missing.cubin")).get_function("x")


def test_private_modules_of_cupys_tests(cp):
    import sys
    was_installed = cp.installed()
    cp.install()
    try:
        from cupy import _core, _util                       # noqa: F401
        from cupy._creation import from_data
        from cupy_backends.cuda.api import driver
        from cupy_backends.cuda import stream as stream_module
        assert _core.ElementwiseKernel is cp.ElementwiseKernel
        assert driver is cp.cuda.driver
        assert stream_module.get_default_stream_ptr() == 1  # cudaStreamLegacy
        assert (from_data.array([1, 2]).get() == [1, 2]).all()
        dst = cp.zeros(3, dtype=numpy.int32)
        _core.elementwise_copy(cp.asarray([1.5, 2.5, 3.5]), dst)
        assert (dst.get() == [1, 2, 3]).all()
        assert cp.VisibleDeprecationWarning is \
            numpy.exceptions.VisibleDeprecationWarning
        # Textures are libcuemu's (test_raw_kernels.py); the removed
        # texture references are refused.
        assert sys.modules["cupy.cuda.texture"].TextureObject is \
            cp.cuda.texture.TextureObject
        with pytest.raises(NotImplementedError, match="texture references"):
            sys.modules["cupy.cuda.texture"].TextureReference()
    finally:
        if not was_installed:
            cp.uninstall()


def test_jit_rawkernel(cp):
    from fake_cupy._cupyx import jit

    @jit.rawkernel(device=True)
    def halve_square(v):
        return v * v / 2

    limit = 5

    @jit.rawkernel()
    def tile(a, out, counts, w):
        i, j = jit.grid(2)
        n, m = a.shape
        stage = jit.shared_memory(numpy.int32, 16)
        t = jit.threadIdx.y * jit.blockDim.x + jit.threadIdx.x
        stage[t] = t
        jit.syncthreads()
        if i < n and j < m:
            out[i, j] = halve_square(a[i, j]) + w // 3 + max(i, j, limit)
            jit.atomic_add(counts, 0, 1)
        total = stage[15 - t]
        for k in jit.range(3, unroll=True):
            total += k
        lane = jit.laneid()
        mate = jit.shfl_xor_sync(0xffffffff, lane, 1)
        if t == 0:
            counts[1] = total
            counts[2] = mate
        elif t == 1:
            counts[3] = -7 // 2 + -7 % 3        # Python's rounding: -4 + 2

    an = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a = cp.asarray(an)
    out = cp.zeros_like(a)
    counts = cp.zeros(4, dtype=numpy.int32)
    tile[(1, 1), (4, 4)](a, out, counts, 7)          # Numba-style launch
    ii, jj = numpy.indices((3, 4))
    expect = an * an / 2 + 2 + numpy.maximum(numpy.maximum(ii, jj), limit)
    assert numpy.allclose(out.get(), expect)
    assert counts.get().tolist() == [12, 15 + 3, 1, -2]
    assert "#pragma unroll\n" in tile.cached_code
    tile((1, 1), (4, 4), (a, out, counts, 7))        # CuPy's call form
    assert len(tile.cached_codes) == 1               # the same signature

    @jit.rawkernel()
    def unbound(x):
        x[0] = missing_name                          # noqa: F821
    with pytest.raises(TypeError, match="atomicAdd does not support int64"):
        tile((1, 1), (4, 4), (a, out, counts.astype(numpy.int64), 7))
    with pytest.raises(NameError, match="Unbound name: missing_name"):
        unbound((1,), (1,), (counts,))

    @jit.rawkernel()
    def listy(x):
        x[0] = [1, 2]
    with pytest.raises(NotImplementedError,
                       match=r"test_fuse_and_modules.py:\d+: the expression "
                             "List is not supported"):
        listy((1,), (1,), (counts,))


def test_with_stream_forgets_a_stream_made_current_by_use(cp):
    # CuPy's stack starts at the default stream; use() does not push.
    s0, s1 = cp.cuda.Stream(), cp.cuda.Stream()
    s0.use()
    try:
        assert cp.cuda.get_current_stream() == s0
        with s1:
            assert cp.cuda.get_current_stream() == s1
        assert cp.cuda.get_current_stream() == cp.cuda.Stream.null
    finally:
        cp.cuda.Stream.null.use()


def test_device_from_pci_bus_id(cp):
    d = cp.cuda.Device(0)
    assert cp.cuda.Device.from_pci_bus_id(d.pci_bus_id) == d
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError,
                       match="cudaErrorInvalidValue"):
        cp.cuda.Device.from_pci_bus_id("fake:id")
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError,
                       match="cudaErrorInvalidDevice"):
        cp.cuda.Device.from_pci_bus_id("FFFF:FF:FF.F")


def test_single_device_memory_pool(cp):
    pool = cp.cuda.memory.SingleDeviceMemoryPool()
    unit = cp.cuda.memory._allocation_unit_size
    p = pool.malloc(unit * 4)
    ptr = p.ptr
    del p
    head, tail = pool.malloc(unit * 2), pool.malloc(unit * 2)   # split
    assert (head.ptr, tail.ptr) == (ptr, ptr + unit * 2)
    assert pool.used_bytes() == unit * 4 and pool.total_bytes() == unit * 4
    del head, tail
    with pytest.warns(DeprecationWarning):
        pool.free_all_free()
    assert pool.total_bytes() == 0


def test_subprocesses_of_a_fake_cupy_run_import_the_fake(cp, monkeypatch):
    import sys
    from cuemu import pytest_plugin
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    was_installed = cp.installed()
    pytest_plugin._install_fake()
    try:
        out = subprocess.run(
            [sys.executable, "-c", "import cupy, cupyx.jit; "
             "print(cupy.__name__, cupyx.jit.__name__)"], cwd="/",
            check=True, capture_output=True, text=True).stdout
        assert out.split() == ["cupy", "fake_cupy._jit_api"]
    finally:
        if not was_installed:
            cp.uninstall()


def test_runtime_malloc_and_the_memory_limit_variable(cp, monkeypatch):
    ptr = cp.cuda.runtime.malloc(256)
    assert ptr != 0
    cp.cuda.runtime.free(ptr)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError):
        cp.cuda.runtime.free(ptr)                  # freed already
    parse = cp.cuda.memory._parse_limit_string
    assert parse("70.5%") == {"size": None, "fraction": 0.705}
    assert parse("1073741824") == {"size": 1073741824, "fraction": None}
    monkeypatch.setenv("CUPY_GPU_MEMORY_LIMIT", "1024")
    pool = cp.cuda.MemoryPool()
    assert pool.get_limit() == 1024
    with pytest.raises(cp.cuda.memory.OutOfMemoryError):
        pool.malloc(4096)


def test_a_second_process_finds_the_compiled_kernel_in_the_cache(
        tmp_path, monkeypatch):
    # As CuPy's kernel cache outlives a process, a kernel compiled by one
    # process is not compiled again by the next: its source is written at
    # the same path in the cache folder, so the cache's entry is found and
    # the second run adds no entry.
    import sys
    monkeypatch.setenv("CUEMU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    program = (
        "import fake_cupy as cp\n"
        "k = cp.RawKernel(r'''extern \"C\" __global__ void twice(int *x) {\n"
        "  x[threadIdx.x] *= 2; }''', 'twice')\n"
        "x = cp.arange(4, dtype=cp.int32)\n"
        "k((1,), (4,), (x,))\n"
        "print(x.get().tolist())\n")

    def run():
        out = subprocess.run([sys.executable, "-c", program], check=True,
                             capture_output=True, text=True).stdout
        assert out.split("\n")[0] == "[0, 2, 4, 6]"
        return sorted(p.name for p in (tmp_path / "cache").iterdir()
                      if p.name.endswith(".entry"))

    # The kernel's entry, the mark of its prelude's first compile
    # (cuemu_pch.c: a prelude compiled often enough is precompiled) and its
    # prelude preprocessed (cuemu_pp_prelude.c).
    first = run()
    assert 1 <= len(first) <= 3
    assert run() == first


def test_jit_atomic_value_casts_as_cupys_same_kind(cp):
    # cupyx.jit's atomics convert the value with _astype_scalar(value,
    # element type, 'same_kind'): a Python constant takes the element type,
    # a value of another kind (a float64 argument into an int32 array, an
    # int64 one into uint64) is a TypeError naming the casting rule.
    from fake_cupy._cupyx import jit

    @jit.rawkernel()
    def add_value(a, v):
        jit.atomic_add(a, 0, v)

    @jit.rawkernel()
    def add_constant(a):
        jit.atomic_add(a, 0, 2)
        jit.atomic_add(a, 1, 1.5)

    a = cp.zeros(2, dtype=numpy.int32)
    add_constant[1, 4](a)
    assert a.get().tolist() == [8, 4]
    add_value[1, 2](a, numpy.int64(3))          # int64 -> int32: same kind
    assert a.get().tolist() == [14, 4]
    with pytest.raises(TypeError, match="Cannot cast from 'float64' to int32"):
        add_value[1, 1](a, numpy.float64(0.5))
    # A Python float argument is float32 in CuPy's default mode 'cuda', a
    # Python int int32.
    with pytest.raises(TypeError, match="Cannot cast from 'float32' to int32"):
        add_value[1, 1](a, 0.5)
    with pytest.raises(TypeError, match="Cannot cast from 'int32' to uint64"):
        add_value[1, 1](cp.zeros(1, dtype=numpy.uint64), 1)
    f = cp.zeros(1, dtype=numpy.float32)
    add_value[1, 2](f, numpy.float64(0.25))     # float64 -> float32: same kind
    assert f.get().tolist() == [0.5]


def test_fuse_all_any_and_cupys_keepdims_refusal(cp):
    # CuPy's cupy.all and cupy.any are reductions a fused function may end
    # in (the fake refused them), and CuPy's module reductions called in a
    # fusion refuse keepdims=True: NotImplementedError "cupy.sum does not
    # support `keepdims` in fusion yet." (the fake computed it).
    @cp.fuse()
    def all_finite(x):
        return cp.all(cp.isfinite(x))

    @cp.fuse()
    def any_negative(x):
        return cp.any(x < 0, axis=1)

    @cp.fuse()
    def any_nonzero(z):
        return cp.any(z)

    x = cp.asarray(numpy.array([[1.0, -2.0], [3.0, numpy.inf]]))
    r = all_finite(x)
    assert r.dtype == numpy.bool_ and r.shape == () and not bool(r)
    assert bool(all_finite(cp.ones((2, 3))))
    r = any_negative(x)
    assert r.dtype == numpy.bool_ and r.get().tolist() == [True, False]
    assert not bool(any_nonzero(cp.zeros(3, dtype=numpy.complex64)))
    assert bool(any_nonzero(cp.asarray(numpy.array([0, 1j]))))

    for reduce, name in ((cp.sum, "sum"), (cp.max, "amax"), (cp.amin, "amin"),
                         (cp.prod, "prod"), (cp.all, "all")):
        @cp.fuse()
        def kept(v):
            return reduce(v * 2, axis=1, keepdims=True)
        with pytest.raises(NotImplementedError,
                           match=f"cupy.{name} does not support `keepdims`"):
            kept(x)


def test_jit_refuses_host_data_with_cupys_message(cp):
    # CuPy's _JitRawKernel: an argument that is neither a cupy.ndarray nor
    # a scalar raises TypeError("<class 'numpy.ndarray'> is not supported
    # for RawKernel"), the message users search for.
    from fake_cupy._cupyx import jit

    @jit.rawkernel()
    def fill(x):
        i = jit.grid(1)
        if i < x.size:
            x[i] = i

    with pytest.raises(TypeError, match="<class 'numpy.ndarray'> is not "
                                        "supported for RawKernel"):
        fill[1, 4](numpy.zeros(4))
    with pytest.raises(TypeError, match="<class 'list'> is not supported"):
        fill[1, 4]([0.0, 0.0])


def test_jit_python_scalar_arguments_take_cupys_cuda_mode_types(cp):
    # CuPy's get_ctype_from_scalar: in rawkernel's default mode 'cuda' a
    # Python float argument is float32, an int int32 (int64 past its range)
    # and a complex complex64; in mode 'numpy' float64, int64, complex128.
    # The fake passed double and long long in both, so a float64 array
    # scaled by 0.1 differed from CuPy's in the 9th digit.
    from fake_cupy._cupyx import jit

    def scale_kernel(mode):
        @jit.rawkernel(mode=mode)
        def scale(x, s, n):
            i = jit.grid(1)
            if i < n:
                x[i] = x[i] * s
        return scale

    x = cp.ones(4)
    scale = scale_kernel("cuda")
    scale[1, 4](x, 0.1, 4)
    assert (x.get() == numpy.float64(numpy.float32(0.1))).all()
    assert "float s" in scale.cached_code and "int n" in scale.cached_code
    scale[1, 4](x, 1.0, 1 << 40)
    assert "long long n" in scale.cached_codes[list(scale.cached_codes)[1]]
    x = cp.ones(4)
    scale = scale_kernel("numpy")
    scale[1, 4](x, 0.1, 4)
    assert (x.get() == 0.1).all()
    assert "double s" in scale.cached_code and "long long n" in scale.cached_code


def test_jit_arithmetic_promotes_as_cupys_modes(cp):
    # CuPy's _call_ufunc types a constant as an argument (mode 'cuda':
    # int32/float32) and picks the first loop both operands cast to; in
    # mode 'cuda' a type casts to every later one in ?bBhHiIlLqQefdFD, so
    # uint8 + 1 is int32 (no wrap at 255), int64 * 1.5 and float16 * 0.1 are
    # float32. In mode 'numpy' constants are float64 and casts are NumPy's
    # safe ones: float32 * 3.0 is float64. The fake followed NumPy's weak
    # promotion in both.
    from fake_cupy._cupyx import jit

    def kernel(mode):
        @jit.rawkernel(mode=mode)
        def ops(u8, i64, h, f, out_i, out_f):
            out_i[0] = u8[0] + 1
            out_f[0] = i64[0] * 1.5
            out_f[1] = h[0] * 0.1
            out_f[2] = f[0] * 3.0
        return ops

    args = (cp.asarray(numpy.array([255], numpy.uint8)),
            cp.asarray(numpy.array([2 ** 24 + 1], numpy.int64)),
            cp.ones(1, dtype=numpy.float16),
            cp.asarray(numpy.array([1 / 3], numpy.float32)))
    out_i, out_f = cp.zeros(1, numpy.int32), cp.zeros(3)
    kernel("cuda")[1, 1](*args, out_i, out_f)
    third = numpy.float32(1 / 3)
    assert out_i.get()[0] == 256
    assert out_f.get().tolist() == [float(numpy.float32(2 ** 24) * 1.5),
                                    float(numpy.float32(0.1)),
                                    float(third * numpy.float32(3))]
    kernel("numpy")[1, 1](*args, out_i, out_f)
    assert out_i.get()[0] == 256
    assert out_f.get().tolist() == [(2 ** 24 + 1) * 1.5, 0.1,
                                    float(third) * 3.0]


def test_jit_bool_arithmetic_uses_cupys_bool_loops(cp):
    # CuPy's add, subtract and multiply have a '??->?' loop (in0 | in1,
    # in0 ^ in1, in0 & in1), which a jit kernel's + - * of two bool values
    # selects: the result is a bool. The fake computed in int64, so a
    # count of true conditions stored 2 where CuPy stores 1.
    from fake_cupy._cupyx import jit

    @jit.rawkernel()
    def both(a, b, out):
        t = jit.threadIdx.x
        out[t, 0] = (a[t] > 0) + (b[t] > 0)
        out[t, 1] = (a[t] > 0) - (b[t] > 0)
        out[t, 2] = (a[t] > 0) * (b[t] > 0)

    a = cp.asarray(numpy.array([1, 1, 0, 0], numpy.int32))
    b = cp.asarray(numpy.array([1, 0, 1, 0], numpy.int32))
    out = cp.full((4, 3), 7, dtype=numpy.int32)
    both[1, 4](a, b, out)
    assert out.get().tolist() == [[1, 0, 1], [1, 1, 0], [1, 1, 0], [0, 0, 0]]


def test_jit_math_functions_take_cupys_cuda_mode_loops(cp):
    # CuPy's _call_ufunc picks the first loop of the ufunc that each input
    # casts to, and in mode 'cuda' a type casts to every later one in
    # ?bBhHiIlLqQefdFD: the math functions' first loop is e->e, so an
    # integer or bool value gives float16 (exp(3) is 20.09375, not
    # 20.0855...), float32 stays float32 and float64 float64; cupy.floor
    # has only float loops and arctan2(int32, float32) takes ff->f. In mode
    # 'numpy' NumPy's casts pick d->d for int32. The fake resolved NumPy's
    # loops in both modes.
    import math
    from fake_cupy._cupyx import jit

    def kernel(mode):
        @jit.rawkernel(mode=mode)
        def maths(i32, i64, b, f32, f64, out):
            out[0] = cp.exp(i32[0])
            out[1] = cp.sqrt(i64[0])
            out[2] = math.sin(i32[0])
            out[3] = cp.exp(b[0])
            out[4] = cp.exp(f32[0])
            out[5] = cp.sqrt(f64[0])
            out[6] = cp.arctan2(i32[0], f32[0])
            out[7] = cp.floor(i32[0]) / 2
        return maths

    args = (cp.asarray(numpy.array([3], numpy.int32)),
            cp.asarray(numpy.array([2], numpy.int64)),
            cp.asarray(numpy.array([True])),
            cp.asarray(numpy.array([1.0], numpy.float32)),
            cp.asarray(numpy.array([2.0])))
    out = cp.zeros(8)
    kernel("cuda")[1, 1](*args, out)
    half, single = numpy.float16, numpy.float32
    got = out.get().tolist()
    assert got[:6] + got[7:] == [
        float(half(math.exp(3))), float(half(math.sqrt(2))),
        float(half(math.sin(3))), float(half(math.e)),
        float(single(math.e)), math.sqrt(2.0), 1.5]
    assert float(single(got[6])) == got[6]
    assert abs(got[6] - math.atan2(3, 1)) < 1e-6
    kernel("numpy")[1, 1](*args, out)
    assert out.get().tolist()[:3] == [math.exp(3), math.sqrt(2),
                                      math.sin(3)]


def test_fuse_reduction_methods_refuse_keepdims_as_cupys_fusion(cp):
    # CuPy's fusion traces x.sum(...) (and prod, max, min, all, any) by
    # calling cupy.sum(x, ...), which refuses keepdims=True in a fusion
    # with NotImplementedError, as the module form does; max and min are
    # named amax and amin. The fake's methods computed keepdims, and
    # x.all() and x.any() were missing. Without keepdims they reduce.
    x = cp.asarray(numpy.array([[1.0, -2.0], [3.0, 4.0]]))
    for method, name in (("sum", "sum"), ("max", "amax"), ("min", "amin"),
                         ("prod", "prod"), ("all", "all"), ("any", "any")):
        @cp.fuse()
        def kept(v):
            return getattr(v * 2, method)(axis=0, keepdims=True)
        with pytest.raises(NotImplementedError,
                           match=f"cupy.{name} does not support `keepdims`"):
            kept(x)

    @cp.fuse()
    def positive_rows(v):
        return (v > 0).all(axis=1)

    @cp.fuse()
    def column_max(v):
        return v.max(axis=0)

    assert positive_rows(x).get().tolist() == [False, True]
    assert column_max(x).get().tolist() == [3.0, 4.0]
