"""CuPy's own behaviour where the fake used to differ (issue 18): Python
ints for every integer width, errors that stay with their stream and
thread, per-thread `with Device/Stream` stacks, and the small items CuPy's
documentation and its test suite expect."""
import io
import pickle
import threading

import numpy
import pytest

import kernels

INT_WIDTHS = r'''
extern "C" __global__ void widths(signed char a, unsigned char b, short c,
                                  unsigned short d, int e, unsigned int f,
                                  long long g, unsigned long long h,
                                  long long *out) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = d;
  out[4] = e; out[5] = f; out[6] = g; out[7] = (long long)h;
}
'''


def test_python_ints_fit_every_integer_width(cp):
    k = cp.RawKernel(INT_WIDTHS, "widths")
    out = cp.zeros(8, cp.int64)
    values = (-128, 255, -32768, 65535, -2 ** 31, 2 ** 32 - 1, -2 ** 63,
              2 ** 63 - 1)
    k((1,), (1,), values + (out,))
    assert out.get().tolist() == list(values)
    k((1,), (1,), (1, 2, 3, 4, 5, 6, 7, 8, out))
    assert out.get().tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize("index, value, ctype", [
    (0, 128, "signed char"), (0, -129, "signed char"), (1, 256, "unsigned char"),
    (1, -1, "unsigned char"), (2, 2 ** 15, "short"), (3, 2 ** 16, "unsigned short"),
    (4, 2 ** 31, "int"), (5, -1, "unsigned int"), (5, 2 ** 32, "unsigned int"),
    (7, -1, "unsigned long long"),
])
def test_out_of_range_python_int_names_the_parameter(cp, index, value, ctype):
    k = cp.RawKernel(INT_WIDTHS, "widths")
    args = [0] * 8 + [cp.zeros(8, cp.int64)]
    args[index] = value
    with pytest.raises(OverflowError, match=rf"argument {index} of kernel "
                                            rf"widths \({ctype}\).*{value}"):
        k((1,), (1,), tuple(args))


def test_python_float_for_float_parameter_is_still_refused(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    with pytest.raises(TypeError, match=r"argument 0 of kernel axpy \(float\)"):
        k((1,), (4,), (2.0, x, y, 4))
    k((1,), (4,), (numpy.float32(2.0), x, y, 4))      # 4: a Python int
    assert (y.get() == 2).all()


# ---- errors stay with their stream and thread -------------------------------

FAULTY = r'''
extern "C" __global__ void maybe_trap(int bad, float *y) {
  if (bad) __trap();
  y[threadIdx.x] += 1.0f;
}
'''


@pytest.mark.parametrize("per_thread_default", [False, True])
def test_errors_are_raised_in_the_thread_that_synchronizes(cp, per_thread_default):
    """8 threads, 4 of them launching a faulting kernel 100 times: every
    faulting launch is reported to its own thread at its synchronization,
    and no good thread ever sees another's fault."""
    k = cp.RawKernel(FAULTY, "maybe_trap")
    k.compile()
    n_threads, n_launches = 8, 100
    reported = [0] * n_threads
    wrong = []
    values = [None] * n_threads
    start = threading.Barrier(n_threads)

    def work(t):
        bad = t % 2
        stream = cp.cuda.Stream.ptds if per_thread_default else \
            cp.cuda.Stream(non_blocking=True)
        y = cp.zeros(32, cp.float32)
        start.wait()
        with stream:
            for _ in range(n_launches):
                k((1,), (32,), (bad, y))
                try:
                    stream.synchronize()
                except cp.cuda.driver.CUDADriverError as e:
                    if not bad or "maybe_trap" not in str(e):
                        wrong.append(str(e))
                    reported[t] += 1
            values[t] = y.get()

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
    assert reported == [0, n_launches] * (n_threads // 2)
    for t in range(0, n_threads, 2):
        assert (values[t] == n_launches).all()
    cp.cuda.Device().synchronize()      # nothing left over


def test_errors_of_two_streams_are_both_raised(cp):
    k = cp.RawKernel(FAULTY, "maybe_trap")
    y1, y2 = cp.zeros(32, cp.float32), cp.zeros(32, cp.float32)
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    k((1,), (32,), (1, y1), stream=s1)
    k((1,), (32,), (1, y2), stream=s2)
    k((1,), (32,), (1, y2), stream=s2)
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        s1.synchronize()
    s1.synchronize()                    # s1's only error was raised
    with pytest.raises(cp.cuda.driver.CUDADriverError) as info:
        s2.synchronize()
    assert len(info.value.other_errors) == 1     # none lost
    cp.cuda.Device().synchronize()


def test_device_synchronize_raises_every_stream_of_the_device(cp):
    k = cp.RawKernel(FAULTY, "maybe_trap")
    y = cp.zeros(32, cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    k((1,), (32,), (1, y), stream=s)
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="maybe_trap"):
        cp.cuda.Device().synchronize()


def test_event_synchronize_raises_its_streams_error(cp):
    k = cp.RawKernel(FAULTY, "maybe_trap")
    y = cp.zeros(32, cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    k((1,), (32,), (1, y), stream=s)
    e = s.record()
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="maybe_trap"):
        e.synchronize()


# ---- per-thread `with` stacks -----------------------------------------------

def test_stream_with_restores_as_cupy(cp):
    s1, s2, s3 = cp.cuda.Stream(), cp.cuda.Stream(), cp.cuda.Stream()
    with s1:
        s2.use()
        with s3:
            assert cp.cuda.get_current_stream() is s3
        assert cp.cuda.get_current_stream() is s1
    assert cp.cuda.get_current_stream() == cp.cuda.Stream.null
    # One stream entered twice, nested.
    with s1:
        with s1:
            pass
        assert cp.cuda.get_current_stream() is s1
    assert cp.cuda.get_current_stream() == cp.cuda.Stream.null


def test_with_stream_and_device_are_per_thread(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    s = cp.cuda.Stream()
    inside, outside = threading.Event(), threading.Event()
    seen = {}

    def other():
        inside.wait()
        seen["stream"] = cp.cuda.get_current_stream()
        seen["device"] = cp.cuda.Device().id
        with cp.cuda.Device(1):
            seen["inner"] = cp.cuda.Device().id
        outside.set()

    t = threading.Thread(target=other)
    t.start()
    with cp.cuda.Device(0), s:
        inside.set()
        outside.wait()
        assert cp.cuda.get_current_stream() is s
        assert cp.cuda.Device().id == 0
    t.join()
    assert seen == {"stream": cp.cuda.Stream.null, "device": 0, "inner": 1}


def test_device_with_restores_the_previous_device(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "3")
    d1, d2 = cp.cuda.Device(1), cp.cuda.Device(2)
    with d1:
        with d2:
            assert cp.cuda.Device().id == 2
        assert cp.cuda.Device().id == 1
        with d1:
            assert cp.cuda.Device().id == 1
        assert cp.cuda.Device().id == 1
    assert cp.cuda.Device().id == 0


# ---- defect 5 ---------------------------------------------------------------

def test_raw_module_missing_path_is_a_driver_error(cp):
    m = cp.RawModule(path="/missing.cubin")
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_FILE_NOT_FOUND"):
        m.get_function("k")


def test_raw_module_path_with_latin1_bytes(cp, tmp_path):
    path = tmp_path / "latin1.cu"
    path.write_bytes(b'// caf\xe9 (Latin-1)\nextern "C" __global__ void one(int *x)'
                     b' { x[0] = 1; }\n')
    m = cp.RawModule(path=str(path))
    x = cp.zeros(1, cp.int32)
    m.get_function("one")((1,), (1,), (x,))
    assert int(x.get()[0]) == 1


def test_device_is_refused_at_use_and_use_returns_it(cp):
    d = cp.cuda.Device(5)
    assert d.id == 5
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError,
                       match="cudaErrorInvalidDevice"):
        d.use()
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError):
        with d:
            pass
    d0 = cp.cuda.Device(0)
    assert d0.use() is d0


def test_errors_pickle(cp):
    e = cp.cuda.memory.OutOfMemoryError(1024, 2048, 4096)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is type(e) and str(e2) == str(e)
    d = cp.cuda.driver.CUDADriverError(700)
    assert str(pickle.loads(pickle.dumps(d))) == str(d)
    r = cp.cuda.runtime.CUDARuntimeError(101)
    assert str(pickle.loads(pickle.dumps(r))) == str(r)
    c = cp.cuda.compiler.CompileException("log", "src", "k.cu", ("-DX",))
    c2 = pickle.loads(pickle.dumps(c))
    assert str(c2) == "log" and c2.options == ("-DX",)


def test_kernel_without_extern_c_is_not_found_by_its_plain_name(cp):
    from fake_cupy import _nvrtc
    if not _nvrtc.available():
        pytest.skip("needs NVRTC to tell a kernel's linkage")
    src = "__global__ void cpp_kernel(int *x) { x[0] = 1; }"
    k = cp.RawKernel(src, "cpp_kernel")
    x = cp.zeros(1, cp.int32)
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_NOT_FOUND"):
        k((1,), (1,), (x,))
    m = cp.RawModule(code=src, name_expressions=["cpp_kernel"])
    m.get_function("cpp_kernel")((1,), (1,), (x,))
    assert int(x.get()[0]) == 1


def test_none_for_a_pointer_is_a_type_error(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(4, cp.float32)
    with pytest.raises(TypeError, match="Unsupported type <class 'NoneType'>"):
        k((1,), (4,), (numpy.float32(1), x, None, numpy.int32(4)))


def test_grid_items_convert_as_unsigned_ints(cp):
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    args = (numpy.float32(1), x, y, numpy.int32(4))
    with pytest.raises(OverflowError):
        k((2 ** 32 + 3,), (4,), args)
    with pytest.raises(OverflowError):
        k((-1,), (4,), args)
    with pytest.raises(TypeError):
        k((1.9,), (4,), args)
    with pytest.raises(cp.cuda.driver.CUDADriverError,
                       match="CUDA_ERROR_INVALID_VALUE"):
        k((0,), (4,), args)
        cp.cuda.Device().synchronize()
    k((numpy.int64(1),), (numpy.uint32(4),), args)
    assert (y.get() == 1).all()


@pytest.mark.parametrize("call", ["abort()", "exit(1)"])
def test_host_only_calls_are_compile_errors(cp, call):
    # NVRTC's error when NVRTC is present; the same error without it.
    k = cp.RawKernel('extern "C" __global__ void bad(int *x) { if (x[0]) '
                     + call + '; }', "bad")
    with pytest.raises(cp.cuda.compiler.CompileException,
                       match="is undefined") as info:
        k.compile()
    assert "error" in info.value.log
    out = io.StringIO()
    info.value.dump(out)
    assert "NVRTC compilation error" in out.getvalue()
    assert "1 extern" in out.getvalue()
    # A call in a comment or a string, or a member named exit, is fine.
    ok = cp.RawKernel('extern "C" __global__ void fine(int *x) { /* abort() */'
                      ' x[0] = sizeof("exit(1)"); }', "fine")
    ok.compile()


# ---- defect 6 ---------------------------------------------------------------

def test_memory_pool_uses_its_allocator(cp):
    calls = []

    def allocator(size):
        calls.append(size)
        return cp.cuda.memory._malloc(size)

    pool = cp.cuda.MemoryPool(allocator)
    with cp.cuda.using_allocator(pool.malloc):
        a = cp.arange(1000, dtype=cp.float64)
        assert a.sum().item() == 999 * 1000 / 2
    assert calls[0] == 8192
    assert pool.total_bytes() == sum(calls)
    del a
    pool.free_all_blocks()
    assert pool.total_bytes() == 0


def test_null_stream_on_every_device(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    with cp.cuda.Device(1):
        assert cp.cuda.Stream.null == cp.cuda.get_current_stream()
        assert cp.cuda.get_current_stream().device_id == 1
    assert cp.cuda.Stream.null == cp.cuda.get_current_stream()


def test_stream_of_another_device_is_refused(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    s0 = cp.cuda.Stream()
    with cp.cuda.Device(1):
        with pytest.raises(RuntimeError):
            s0.use()
        with pytest.raises(RuntimeError):
            with s0:
                pass
        s1 = cp.cuda.Stream()
        assert s1.device_id == 1
        with s1:
            assert cp.cuda.get_current_stream() is s1
    with pytest.raises(RuntimeError):
        s1.use()


def test_per_thread_default_stream_is_per_thread(cp, deferred):
    cp = deferred
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x, y = cp.ones(4, cp.float32), cp.zeros(4, cp.float32)
    k((1,), (4,), (numpy.float32(1), x, y, numpy.int32(4)),
      stream=cp.cuda.Stream.ptds)
    keys = {}

    def other():
        keys["other"] = cp.cuda.Stream.ptds.key
        keys["other_done"] = cp.cuda.Stream.ptds.done

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert keys["other"] != cp.cuda.Stream.ptds.key
    assert keys["other_done"]               # the other thread queued nothing
    assert not cp.cuda.Stream.ptds.done
    cp.cuda.Stream.ptds.synchronize()
    assert (y.get() == 1).all()


# ---- defect 4: device launches ---------------------------------------------

def test_kernel_launched_from_a_kernel_runs(cp):
    # With -dc (relocatable device code), as NVRTC needs for a device launch.
    src = r'''
    extern "C" __global__ void child(int *x) { x[threadIdx.x] = 1; }
    extern "C" __global__ void parent(int *x) { child<<<1, 4>>>(x); }
    '''
    m = cp.RawModule(code=src, options=("-dc",))
    x = cp.zeros(4, cp.int32)
    m.get_function("parent")((1,), (1,), (x,))
    assert (x.get() == 1).all()


def test_cuda_nvrtc_module(cp):
    # Programs print or compare cupy.cuda.nvrtc.getVersion() (a version
    # report, a kernel cache's key, a feature check) and catch NVRTCError
    # around it; the fake had no cupy.cuda.nvrtc (AttributeError). It is
    # CuPy's thin wrapper, over libcuemu's NVRTC.
    nvrtc = cp.cuda.nvrtc
    major, minor = nvrtc.getVersion()
    assert isinstance(major, int) and (major, minor) >= (11, 2)
    archs = nvrtc.getSupportedArchs()
    assert isinstance(archs, tuple) and 90 in archs and list(archs) == sorted(archs)
    error = nvrtc.NVRTCError(6)
    assert isinstance(error, RuntimeError) and error.status == 6
    assert str(error) == "NVRTC_ERROR_COMPILATION (6)"
    import fake_cupy
    fake_cupy.install()
    try:
        import cupy.cuda.nvrtc
        assert cupy.cuda.nvrtc is nvrtc
        assert str(pickle.loads(pickle.dumps(error))) == str(error)
    finally:
        fake_cupy.uninstall()
    import fake_cupy._internals as internals
    assert internals.modules()["cupy_backends.cuda.libs.nvrtc"] is nvrtc
    prog = nvrtc.createProgram(
        'template <class T> __global__ void fill(T *x) { x[0] = T(1); }\n',
        "fill.cu", [], [])
    try:
        nvrtc.addNameExpression(prog, "fill<float>")
        nvrtc.compileProgram(prog, ["-arch=sm_90"])
        assert nvrtc.getLoweredName(prog, "fill<float>").startswith("_Z")
        assert nvrtc.getCUBIN(prog)[:4] == b"\x7fELF"
        assert isinstance(nvrtc.getPTX(prog), bytes)
    finally:
        nvrtc.destroyProgram(prog)
    bad = nvrtc.createProgram("int x = ;\n", "bad.cu", [], [])
    with pytest.raises(nvrtc.NVRTCError) as info:
        nvrtc.compileProgram(bad, [])
    assert info.value.status == 6 and "bad.cu" in nvrtc.getProgramLog(bad)
    nvrtc.destroyProgram(bad)


def test_integer_powers_with_negative_exponents_take_cupys_values(cp):
    # CuPy's power kernel (integral_power) answers 1 for a base of 1, +-1
    # for -1 by the exponent's parity and 0 for other bases, where NumPy
    # raises ValueError: `x ** -1` on an int array ran on a GPU and stopped
    # on the fake. The ufunc and the operators agree (cupy.fuse's form:
    # test_sign_and_angle.py).
    a = cp.array([-1, 1, 2, 0, -3], dtype=numpy.int32)
    assert cp.power(a, -1).get().tolist() == [-1, 1, 0, 0, 0]
    assert (a ** -2).dtype == numpy.int32
    assert (a ** -2).get().tolist() == [1, 1, 0, 0, 0]
    assert (2 ** cp.array([-1, 0, 3])).get().tolist() == [0, 1, 8]
    assert (a ** cp.array([-1, -2, -1, 2, 3], dtype=numpy.int8)).get().tolist() == \
        [-1, 1, 0, 0, -27]
    b = a.copy()
    b **= -1
    assert b.get().tolist() == [-1, 1, 0, 0, 0]
    out = cp.empty(5, dtype=numpy.int64)
    assert cp.power(a, -3, out=out) is out and out.get().tolist() == [-1, 1, 0, 0, 0]
    assert (cp.arange(1.0, 3.0) ** -1).get().tolist() == [1.0, 0.5]
