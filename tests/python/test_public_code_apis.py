"""CuPy APIs that public code with custom kernels uses, found by running such
code unchanged on the fake (docs/python.md, "Public code against the fake");
each test is the fake's behaviour reduced to what CuPy documents or does."""
import numpy
import pytest


def test_numpy_arrays_index_as_cupy_copies_them(cp):
    # CuPy converts a NumPy (or list) index to a device array first.
    x = cp.arange(12, dtype=numpy.float32).reshape(6, 2)
    rows = numpy.array([4, 0, 5])
    got = x[rows]
    assert isinstance(got, cp.ndarray)
    assert (got.get() == numpy.arange(12).reshape(6, 2)[rows]).all()
    assert (x[numpy.array([True, False] * 3)].get()[:, 0] == [0, 4, 8]).all()
    x[numpy.array([1, 2])] = 7
    assert (x.get()[1:3] == 7).all() and x.get()[0, 0] == 0
    with pytest.raises(IndexError):
        x[numpy.array([0.5])]
    # Still no implicit conversion of a NumPy operand.
    with pytest.raises(TypeError, match="Unsupported type"):
        x + numpy.ones((6, 2), numpy.float32)


def test_raw_argument_takes_a_multi_dimensional_index(cp):
    # CuPy's kmeans example: int cent_ind[] = {label, i % dim}; centers[cent_ind].
    k = cp.ElementwiseKernel(
        "S data, T label, int32 dim", "raw U centers, raw U group",
        """
        int cent_ind[] = {label, (int)(i % dim)};
        atomicAdd(&centers[cent_ind], data);
        ptrdiff_t g[] = {label};
        if (centers.ndim == 2 && group.ndim == 1) atomicAdd(&group[g], 1);
        """, "calc_center")
    x = numpy.arange(12, dtype=numpy.float64).reshape(6, 2)
    labels = numpy.array([[0], [1], [0], [2], [1], [0]], dtype=numpy.int64)
    centers = cp.zeros((3, 2), dtype=numpy.float64)
    group = cp.zeros(3, dtype=numpy.float64)
    k(cp.asarray(x), cp.asarray(labels), 2, centers, group)
    expect = numpy.zeros((3, 2))
    numpy.add.at(expect, labels[:, 0], x)
    assert (centers.get() == expect).all()
    assert (group.get() == 2 * numpy.bincount(labels[:, 0])).all()
    # A strided (transposed) raw array is indexed through its strides.
    t = cp.zeros((2, 3), dtype=numpy.float64).T
    cp.ElementwiseKernel("int32 r", "raw float64 t",
                         "ptrdiff_t idx[] = {r, 1}; t[idx] = r + 10;",
                         "fill_column")(cp.arange(3, dtype=numpy.int32), t)
    assert (t.get()[:, 1] == [10, 11, 12]).all() and (t.get()[:, 0] == 0).all()


def test_raw_scalar_parameters_are_plain_scalars(cp):
    # CuPy's `raw` only changes how an array is indexed; a scalar passed for
    # a raw parameter is a scalar (public packbits kernels rely on it).
    k = cp.ElementwiseKernel(
        "raw T x, raw int64 n, raw int64 stride", "T y",
        "y = (i * stride < n) ? x[i * stride] : (T)-1", "strided_copy")
    x = cp.arange(10, dtype=numpy.float32)
    y = cp.zeros(6, dtype=numpy.float32)
    k(x, 10, 2, y)
    assert (y.get() == [0, 2, 4, 6, 8, -1]).all()
    # The declared dtype still decides the C type: a value it cannot hold fails.
    with pytest.raises(OverflowError):
        k(x, 2 ** 70, 2, y)
    # An output must still be an array.
    with pytest.raises(TypeError):
        cp.ElementwiseKernel("T x", "raw T y", "y[i] = x", "o")(x, 3.0)


def test_reduction_kernel_names_its_indexers_and_raw_inputs(cp):
    # _in_ind / _out_ind (the loop over the input and over the output) and
    # _raw_x (the input array) are names CuPy's generated code defines, and
    # public reductions use them: a mean, and a vote against the middle item.
    mean_sq = cp.ReductionKernel(
        "T x", "T y", "x * x", "a + b",
        "y = a / _type_reduce(_in_ind.size() / _out_ind.size())", "0", "mean_sq")
    x = numpy.arange(24, dtype=numpy.float64).reshape(4, 6)
    assert numpy.allclose(mean_sq(cp.asarray(x), axis=1).get(), (x * x).mean(axis=1))
    assert numpy.allclose(mean_sq(cp.asarray(x), axis=0).get(), (x * x).mean(axis=0))
    assert numpy.isclose(float(mean_sq(cp.asarray(x))), (x * x).mean())
    votes = cp.ReductionKernel("X x", "Y y", "_raw_x[_in_ind.size()/2] < x",
                               "a + b", "y = a", "0", "lt", reduce_type="int")
    v = numpy.array([5.0, 1.0, 9.0, 3.0, 4.0, 8.0, 2.0])
    got = votes(cp.asarray(v), cp.empty((), dtype=numpy.int32))
    assert int(got) == int((v[3] < v).sum())


def test_reduced_view_merges_contiguous_dimensions(cp):
    # ndarray.reduced_view(): a view with as few dimensions as the layout
    # allows (chainer-style im2col kernels pass img.reduced_view() as raw).
    a = cp.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    r = a.reduced_view()
    assert r.shape == (24,) and r.strides == (4,) and r.data.ptr == a.data.ptr
    v = cp.arange(5)
    assert v.reduced_view() is v
    s = a[:, :, :2]                     # rows of 2 out of 4
    rs = s.reduced_view()
    assert rs.shape == (6, 2) and rs.strides == (16, 4)
    assert (rs.get() == s.get().reshape(6, 2)).all()
    t = a.transpose(2, 1, 0)            # nothing merges
    assert a.transpose(2, 0, 1).reduced_view().shape == (4, 6)
    assert t.reduced_view() is t
    o = cp.zeros((3, 1, 4), dtype=numpy.float32)[:, :, :2]
    assert o.reduced_view().shape == (3, 2)      # a unit axis goes
    e = a[:, :, ::2]                    # evenly strided: one dimension
    assert e.reduced_view().shape == (12,) and e.reduced_view().strides == (8,)
    with pytest.warns(DeprecationWarning):
        d = a.reduced_view(numpy.int32)
    assert d.shape == (24,) and d.dtype == numpy.int32


def test_memoize_and_compile_with_cache_in_the_old_style(cp, monkeypatch):
    # The pattern of many public kernels (written for CuPy < 10):
    # @cupy.memoize(for_each_device=True) around
    # cupy.cuda.compile_with_cache(code).get_function(name), launched with
    # keywords and a stream given as any object with a .ptr.
    import collections
    import warnings
    calls = []

    @cp.memoize(for_each_device=True)
    def load_kernel(name, code, options=()):
        calls.append(name)
        with pytest.warns(UserWarning, match="compile_with_cache has been deprecated"):
            module = cp.cuda.compile_with_cache(code, options=options)
        return module.get_function(name)

    code = r'''
extern "C" __global__ void scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}'''
    f = load_kernel("scale", code, ("-DUNUSED=1",))
    assert load_kernel("scale", code, ("-DUNUSED=1",)) is f and calls == ["scale"]
    x = cp.arange(300, dtype=numpy.float32)
    y = cp.zeros(300, dtype=numpy.float32)
    Stream = collections.namedtuple("Stream", ["ptr"])
    s = cp.cuda.Stream()
    f(grid=(2, 1, 1), block=(256, 1, 1),
      args=[x.data.ptr, y.data.ptr, numpy.float32(2), numpy.int32(300)],
      stream=Stream(ptr=s.ptr))
    s.synchronize()
    assert (y.get() == 2 * numpy.arange(300)).all()
    f((2,), (256,), (x, y, numpy.float32(3), numpy.int32(300)), stream=Stream(ptr=0))
    assert (y.get() == 3 * numpy.arange(300)).all()
    cp.clear_memo()
    load_kernel("scale", code, ("-DUNUSED=1",))
    assert calls == ["scale", "scale"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(cp.cuda.compiler.CompileException):
            cp.cuda.compile_with_cache("this is not C").get_function("k")


def test_memoize_for_each_device_keys_by_device(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    seen = []

    @cp.memoize(for_each_device=True)
    def per_device(n):
        seen.append(cp.cuda.Device().id)
        return object()

    @cp.memoize()
    def shared(n):
        return object()

    a = per_device(1)
    assert per_device(1) is a and shared(1) is shared(1)
    with cp.cuda.Device(1):
        assert per_device(1) is not a and per_device(1) is per_device(1)
        assert shared(1) is shared(1)
    assert per_device(1) is a and seen == [0, 1]


def test_jit_compares_kernel_built_ins_in_the_kernel(cp):
    # CuPy's jit/reduction_atomic.py example: `if jit.threadIdx.x ==
    # cupy.uint32(0)`; threadIdx and warpsize are kernel values, never
    # compared when the kernel is translated.
    from fake_cupy._cupyx import jit

    @jit.rawkernel()
    def first_lanes(y):
        if jit.threadIdx.x == numpy.uint32(0):
            y[jit.blockIdx.x] = 1
        if jit.warpsize == 32 and jit.threadIdx.x == 1:
            y[jit.blockIdx.x] += 2

    y = cp.zeros(3, dtype=numpy.int32)
    first_lanes[3, 64](y)
    assert y.get().tolist() == [3, 3, 3]


def test_jit_built_ins_imported_by_name(cp):
    from fake_cupy._jit_api import threadIdx, blockIdx, warpsize, rawkernel

    @rawkernel()
    def lanes(y):
        if threadIdx.x == 0 and warpsize == 32:
            y[blockIdx.x] = threadIdx.x + 5

    y = cp.zeros(2, dtype=numpy.int32)
    lanes[2, 32](y)
    assert y.get().tolist() == [5, 5]


def test_alloc_pinned_memory_is_a_buffer(cp):
    # CuPy's stream/cupy_memcpy.py example: numpy.frombuffer over
    # cupy.cuda.alloc_pinned_memory(n) through a PinnedMemoryPool.
    pool = cp.cuda.PinnedMemoryPool()
    cp.cuda.set_pinned_memory_allocator(pool.malloc)
    try:
        src = numpy.arange(1000, dtype=numpy.float32)
        mem = cp.cuda.alloc_pinned_memory(src.nbytes)
        assert isinstance(mem, cp.cuda.PinnedMemoryPointer)
        assert mem.size() >= src.nbytes and int(mem) == mem.ptr != 0
        pinned = numpy.frombuffer(mem, src.dtype, src.size)
        pinned[...] = src
        assert numpy.ndarray((10,), numpy.float32, buffer=mem)[3] == 3
        d = cp.empty(src.shape, src.dtype)
        d.set(pinned)
        back = numpy.frombuffer(cp.cuda.alloc_pinned_memory(src.nbytes),
                                src.dtype, src.size)
        d.get(out=back)
        assert (back == src).all()
        later = mem + 16
        assert isinstance(later, cp.cuda.PinnedMemoryPointer)
        assert later.ptr == mem.ptr + 16 and later.size() == mem.size() - 16
        assert (16 + mem).ptr == later.ptr and (later - 16).ptr == mem.ptr
        assert numpy.frombuffer(later, numpy.float32, 1)[0] == 4
        del pinned, mem, later
        import gc
        gc.collect()
        assert pool.n_free_blocks() >= 1
    finally:
        # Back to the default pool (None would install an unpooled one).
        cp.cuda.set_pinned_memory_allocator(
            cp.get_default_pinned_memory_pool().malloc)
    assert cp.cuda.pinned_memory.alloc_pinned_memory is cp.cuda.alloc_pinned_memory


def test_index_tricks_make_cupy_arrays(cp):
    # cupy.mgrid, ogrid, r_ and c_ give cupy arrays (NumPy's gave NumPy
    # arrays through the fake, which a fused kernel then refused).
    j, k = cp.mgrid[0:3, 0:4]
    assert isinstance(j, cp.ndarray) and j.shape == (3, 4)
    assert (k.get() == numpy.mgrid[0:3, 0:4][1]).all()
    o = cp.ogrid[0:2, 0:3]
    assert all(isinstance(a, cp.ndarray) for a in o) and o[1].shape == (1, 3)
    assert isinstance(cp.mgrid[0:1:5j], cp.ndarray)
    r = cp.r_[cp.arange(3), 7, cp.zeros(2)]
    assert isinstance(r, cp.ndarray) and r.get().tolist() == [0, 1, 2, 7, 0, 0]
    c = cp.c_[cp.arange(2), cp.ones(2)]
    assert isinstance(c, cp.ndarray) and c.shape == (2, 2)
    assert cp.s_[1:3] == slice(1, 3) and cp.index_exp[2] == (2,)
    # As CuPy's: other array-likes are converted, slices are not supported.
    assert cp.r_[numpy.arange(2), [5]].get().tolist() == [0, 1, 5]
    with pytest.raises(NotImplementedError):
        cp.r_[0:3]


def test_fuse_indexes_its_array_arguments(cp):
    # gpu4pyscf's batch_square: a[0]**2 + a[1]**2 + a[2]**2 (CuPy's fusion
    # takes basic indexing of an argument).
    @cp.fuse()
    def batch_square(a):
        return a[0]**2 + a[1]**2 + a[2]**2

    a = numpy.random.RandomState(0).rand(3, 10)
    got = batch_square(cp.asarray(a))
    assert got.shape == (10,)
    assert numpy.allclose(got.get(), (a ** 2).sum(axis=0))

    @cp.fuse()
    def corner_sum(x, y):
        return cp.sum(x[1:, ::2] * y[..., -1])

    x = numpy.arange(20, dtype=numpy.float64).reshape(4, 5)
    y = numpy.arange(3, dtype=numpy.float64).reshape(3, 1) + 1
    assert numpy.isclose(float(corner_sum(cp.asarray(x), cp.asarray(y))),
                         (x[1:, ::2] * y[..., -1]).sum())

    @cp.fuse()
    def uses_both(x):
        return x + x[0]

    assert (uses_both(cp.asarray(x)).get() == x + x[0]).all()

    @cp.fuse()
    def fancy(x):
        return x[cp.arange(2)]

    with pytest.raises(NotImplementedError, match="indexing"):
        fancy(cp.asarray(x))


def test_elementwise_index_of_the_loop(cp):
    # _ind.get()[k] and _ind.ndim: the multi-dimensional index of the
    # element (CuPy's tril/hadamard/quantile kernels, copied into public
    # code, use them with reduce_dims=False).
    tril = cp.ElementwiseKernel(
        "int64 k", "S x", "x = (_ind.get()[1] - _ind.get()[0] <= k) ? x : 0",
        "tril_kernel", reduce_dims=False)
    x = cp.ones((4, 5), dtype=numpy.float32)
    tril(0, x)
    assert (x.get() == numpy.tril(numpy.ones((4, 5)))).all()
    hadamard = cp.ElementwiseKernel(
        "T in", "T out", "out = (__popc(_ind.get()[0] & _ind.get()[1]) & 1) ? -1 : 1;",
        "hadamard", reduce_dims=False)
    h = cp.empty((4, 4), dtype=numpy.float64)
    hadamard(h, h)
    i, j = numpy.indices((4, 4))
    parity = numpy.vectorize(lambda v: bin(v).count("1") % 2)(i & j)
    assert (h.get() == numpy.where(parity, -1, 1)).all()
    ndim = cp.ElementwiseKernel("T x", "int32 y", "y = _ind.ndim", "nd", reduce_dims=False)
    assert (ndim(cp.zeros((2, 3, 4))).get() == 3).all()
    # With reduce_dims (the default) contiguous dimensions merge, as in CuPy.
    nd = cp.ElementwiseKernel("T x", "int32 y", "y = _ind.ndim", "nd_reduced")
    assert (nd(cp.zeros((2, 3, 4))).get() == 1).all()
    assert (nd(cp.zeros((2, 3, 4))[:, :, :2]).get() == 2).all()
    last = cp.ElementwiseKernel("T x", "int64 y", "y = _ind.get()[_ind.ndim - 1]", "last")
    got = last(cp.zeros((2, 3, 4))[:, :, :2]).get()
    assert got.shape == (2, 3, 2) and (got == [0, 1]).all()


def test_runtime_memcpy_and_memset(cp):
    # Public code uploads __constant__ parameter structs with
    # cupy.cuda.runtime.memcpy(int(mod.get_global(name)), host.ctypes.data,
    # nbytes, 1), and stages data with memcpyAsync on a stream's ptr.
    rt = cp.cuda.runtime
    assert (rt.memcpyHostToHost, rt.memcpyHostToDevice, rt.memcpyDeviceToHost,
            rt.memcpyDeviceToDevice, rt.memcpyDefault) == (0, 1, 2, 3, 4)
    mod = cp.RawModule(code=r'''
struct Params { float scale; int offset; };
__constant__ Params c_params;
extern "C" __global__ void apply(const int *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = c_params.scale * (x[i] + c_params.offset);
}''')
    params = numpy.zeros(1, dtype=[("scale", "f4"), ("offset", "i4")])
    params["scale"], params["offset"] = 0.5, 10
    d_ptr = mod.get_global("c_params")
    rt.memcpy(int(d_ptr), params.ctypes.data, params.nbytes, rt.memcpyHostToDevice)
    x = cp.arange(8, dtype=numpy.int32)
    y = cp.empty(8, dtype=numpy.float32)
    mod.get_function("apply")((1,), (8,), (x, y, numpy.int32(8)))
    assert y.get().tolist() == [0.5 * (v + 10) for v in range(8)]
    host = numpy.arange(8, dtype=numpy.int32) * 3
    s = cp.cuda.Stream(non_blocking=True)
    rt.memcpyAsync(x.data.ptr, host.ctypes.data, host.nbytes, rt.memcpyHostToDevice, s.ptr)
    rt.memsetAsync(y.data.ptr, 0, y.nbytes, s.ptr)
    s.synchronize()
    assert (x.get() == host).all() and (y.get() == 0).all()
    back = numpy.empty(8, dtype=numpy.int32)
    rt.memcpy(back.ctypes.data, x.data.ptr, back.nbytes, rt.memcpyDeviceToHost)
    assert (back == host).all()
    z = cp.empty(8, dtype=numpy.int32)
    rt.memcpy(z.data.ptr, x.data.ptr, z.nbytes, rt.memcpyDefault)
    rt.memset(x.data.ptr, 0, x.nbytes)
    assert (z.get() == host).all() and (x.get() == 0).all()
    # CUDA's errors: an unknown direction, and a device pointer that is not
    # (or not wholly) device memory.
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidMemcpyDirection"):
        rt.memcpy(z.data.ptr, x.data.ptr, 4, 7)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidValue"):
        rt.memcpy(back.ctypes.data, host.ctypes.data, 4, rt.memcpyHostToDevice)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidValue"):
        rt.memcpy(z.data.ptr, x.data.ptr, 4096, rt.memcpyDeviceToDevice)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidValue"):
        rt.memset(0, 0, 4)


def test_profiling_annotations_and_benchmark(cp):
    # Benchmark scripts around custom kernels: NVTX ranges, the profiler's
    # start/stop (no-ops without a profiler, as on a GPU without one) and
    # cupyx.profiler.benchmark / time_range.
    from fake_cupy import _cupyx as cupyx
    cp.cuda.nvtx.RangePush("outer", 3)
    cp.cuda.nvtx.Mark("mark")
    cp.cuda.nvtx.RangePushC("inner", 0xFF00FF00)
    cp.cuda.nvtx.MarkC("mark", 0)
    cp.cuda.nvtx.RangePop()
    cp.cuda.nvtx.RangePop()
    cp.cuda.profiler.start()
    cp.cuda.profiler.stop()
    k = cp.ElementwiseKernel("T x", "T y", "y = 2 * x", "double_it")
    x = cp.arange(100, dtype=numpy.float32)
    calls = []

    @cupyx.profiler.time_range()
    def run(a):
        calls.append(1)
        return k(a)

    with cupyx.profiler.time_range("block", color_id=1):
        perf = cupyx.profiler.benchmark(run, (x,), n_repeat=4, n_warmup=2)
    assert len(calls) == 6 and perf.name == "run"
    assert perf.cpu_times.shape == (4,) and perf.gpu_times.shape == (1, 4)
    assert (perf.cpu_times > 0).all() and (perf.gpu_times >= 0).all()
    text = str(perf)
    assert text.startswith("run") and "CPU:" in text and "GPU-0:" in text
    short = cupyx.profiler.benchmark(run, (x,), n_repeat=1000, n_warmup=0,
                                     max_duration=0.0, name="short")
    assert short.name == "short" and short.cpu_times.shape == (1,)
    with pytest.raises(ValueError):
        cupyx.profiler.benchmark(run, [x])          # args must be a tuple


def test_cupyx_scatter_operations(cp):
    # cupyx.scatter_add/max/min: unbuffered in-place updates (numpy.add.at),
    # as histogram-style code uses them.
    from fake_cupy import _cupyx as cupyx
    a = cp.zeros(5, dtype=numpy.float32)
    cupyx.scatter_add(a, cp.asarray(numpy.array([0, 1, 1, 4])), 1.5)
    assert a.get().tolist() == [1.5, 3.0, 0, 0, 1.5]
    m = cp.zeros((2, 3), dtype=numpy.int32)
    cupyx.scatter_max(m, (cp.asarray([0, 0, 1]), cp.asarray([1, 1, 2])),
                      cp.asarray([4, 7, -2], dtype=numpy.int32))
    assert m.get().tolist() == [[0, 7, 0], [0, 0, 0]]
    cupyx.scatter_min(m, (slice(None), 0), -3)
    assert m.get()[:, 0].tolist() == [-3, -3]
    # As in CuPy, a NumPy value is copied in a's dtype, and the atomic
    # kernels of an integer-array index take only some dtypes.
    cupyx.scatter_add(a, [0, 0], numpy.array([0.25, 0.25]))
    assert a.get()[0] == 2.0
    i = cp.zeros(3, dtype=numpy.int32)
    cupyx.scatter_add(i, cp.asarray([2, 2]), 1.75)
    assert i.get().tolist() == [0, 0, 2]
    with pytest.raises(TypeError, match=r"cupy\.add\.at only supports"):
        cupyx.scatter_add(cp.zeros(3, dtype=numpy.int64), cp.asarray([1]), 1)
    with pytest.raises(TypeError, match=r"cupy\.maximum\.at only supports"):
        cupyx.scatter_max(cp.zeros(3, dtype=numpy.float16), [1], 1)
    h = cp.zeros(3, dtype=numpy.int64)
    cupyx.scatter_add(h, slice(1, None), 4)      # no integer array: any dtype
    assert h.get().tolist() == [0, 4, 4]


def test_runtime_events_peers_and_pointer_attributes(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    rt = cp.cuda.runtime
    # Events by handle, as the runtime API has them.
    s = rt.streamCreate()
    e1, e2 = rt.eventCreate(), rt.eventCreateWithFlags(rt.eventDisableTiming)
    rt.eventRecord(e1, s)
    k = cp.ElementwiseKernel("T x", "T y", "y = x + 1", "plus_one")
    with cp.cuda.ExternalStream(s):
        y = k(cp.arange(10))
    rt.eventRecord(e2, s)
    rt.streamWaitEvent(0, e2, 0)
    rt.eventSynchronize(e2)
    assert rt.eventQuery(e2) == 0 and y.get().tolist() == list(range(1, 11))
    e3 = rt.eventCreate()
    rt.eventRecord(e3, s)
    rt.eventSynchronize(e3)
    assert rt.eventElapsedTime(e1, e3) >= 0
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidResourceHandle"):
        rt.eventElapsedTime(e1, e2)      # e2 has timing disabled
    for e in (e1, e2, e3):
        rt.eventDestroy(e)
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidResourceHandle"):
        rt.eventRecord(e1, s)
    rt.streamDestroy(s)
    # Peers: two emulated devices reach each other's memory; a device is
    # not its own peer; an unknown device is cudaErrorInvalidDevice.
    assert rt.deviceCanAccessPeer(0, 1) == 1 and rt.deviceCanAccessPeer(1, 1) == 0
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        rt.deviceCanAccessPeer(0, 5)
    # Pointer attributes: device memory names its device; other memory is
    # unregistered host memory.
    with cp.cuda.Device(1):
        d1 = cp.zeros(4)
    attrs = rt.pointerGetAttributes(d1.data.ptr + 8)
    assert (attrs.type, attrs.device) == (rt.memoryTypeDevice, 1)
    assert attrs.devicePointer == d1.data.ptr + 8
    host = numpy.zeros(4)
    h = rt.pointerGetAttributes(host.ctypes.data)
    assert h.type == rt.memoryTypeUnregistered and h.devicePointer == 0


def test_lib_stride_tricks_views_device_memory(cp):
    # glcm-cupy builds its windows with cupy.lib.stride_tricks.as_strided and
    # hands them to a RawModule kernel; CuPy's as_strided and
    # sliding_window_view are views of the same memory (CuPy's view is
    # writable even with writeable=False, which it takes but ignores).
    import importlib
    was_installed = cp.installed()
    cp.install()
    try:
        stride_tricks = importlib.import_module("cupy.lib.stride_tricks")
    finally:
        if not was_installed:
            cp.uninstall()
    assert cp.lib.stride_tricks is stride_tricks
    x = cp.arange(10, dtype=numpy.int32)
    w = stride_tricks.as_strided(x, shape=(4, 3), strides=(8, 4))
    assert isinstance(w, cp.ndarray) and w.strides == (8, 4)
    assert (w.get() == numpy.arange(10)[numpy.arange(4)[:, None] * 2
                                          + numpy.arange(3)]).all()
    assert w.data.ptr == x.data.ptr
    w[1, 0] = 100
    assert x.get()[2] == 100
    same = stride_tricks.as_strided(x[3:])
    assert same.shape == (7,) and same.data.ptr == x[3:].data.ptr
    v = stride_tricks.sliding_window_view(x, 3)
    assert v.shape == (8, 3) and v.data.ptr == x.data.ptr
    assert (v.get()[:, 0] == x.get()[:8]).all()
    v2 = stride_tricks.sliding_window_view(x.reshape(2, 5), (2, 2))
    assert v2.shape == (1, 4, 2, 2)
    x[0] = 7
    assert v[0, 0] == 7
    # The kernel sees the view's first element where the view starts.
    k = cp.RawKernel(r'''
    extern "C" __global__ void first(const int *a, int *out) { *out = a[0]; }
    ''', "first")
    out = cp.zeros(1, dtype=numpy.int32)
    k((1,), (1,), (stride_tricks.as_strided(x[5:], shape=(2,), strides=(4,)), out))
    assert out.get()[0] == 5


def test_options_with_surrounding_spaces(cp, tmp_path):
    # cupy-knn passes f' -I{folder}': NVRTC trims the spaces around each
    # option (checked with NVRTC 13: ' -I dir', 'dir ' and ' -DX=1' all act).
    (tmp_path / "spaced_value.cuh").write_text("#define BASE 40\n")
    mod = cp.RawModule(code=r'''
    #include "spaced_value.cuh"
    extern "C" __global__ void value(int *out) { *out = BASE + EXTRA; }
    ''', options=(" -I" + str(tmp_path) + " ", "  -DEXTRA=2", "--std=c++17 "))
    out = cp.zeros(1, dtype=numpy.int32)
    mod.get_function("value")((1,), (1,), (out,))
    assert out.get()[0] == 42


def test_device_attributes_name_every_known_attribute(cp):
    # cupy-knn sizes its launches from Device.attributes['MaxBlockDimX'] and
    # 'MaxGridDimX'; CuPy's dict holds every cudaDeviceAttr, named without
    # its cudaDevAttr prefix, each as cudaDeviceGetAttribute gives it.
    runtime = cp.cuda.runtime
    attrs = cp.cuda.Device(0).attributes
    props = runtime.getDeviceProperties(0)
    assert attrs["MaxBlockDimX"] == props["maxThreadsDim"][0] == 1024
    assert attrs["MaxBlockDimZ"] == props["maxThreadsDim"][2] == 64
    assert attrs["MaxGridDimX"] == props["maxGridSize"][0] == 2**31 - 1
    assert attrs["MaxGridDimY"] == props["maxGridSize"][1] == 65535
    assert attrs["MaxThreadsPerBlock"] == props["maxThreadsPerBlock"]
    assert attrs["MultiProcessorCount"] == props["multiProcessorCount"]
    assert attrs["MaxSharedMemoryPerBlock"] == props["sharedMemPerBlock"]
    assert attrs["ComputeCapabilityMajor"] == props["major"]
    for name, value in attrs.items():
        code = getattr(runtime, "cudaDevAttr" + name)
        assert runtime.deviceGetAttribute(code, 0) == value
    assert runtime.cudaDevAttrMaxBlockDimX == 2
    assert runtime.cudaDevAttrMaxGridDimX == 5


def test_array_type_is_named_under_cupys_module(cp):
    # Public code tells device arrays apart by type(x).__module__ == 'cupy'
    # (and repr of the type); CuPy's ndarray is shown as cupy.ndarray.
    import pickle
    x = cp.arange(3, dtype=numpy.float32)
    assert type(x).__module__ == "cupy"
    assert repr(type(x)) == "<class 'cupy.ndarray'>"
    assert type(numpy.zeros(1)).__module__ == "numpy"
    y = pickle.loads(pickle.dumps(x))     # pickled through its own reducer
    assert isinstance(y, cp.ndarray) and (y.get() == [0, 1, 2]).all()


def test_raw_kernel_has_a_name_for_the_profiler(cp):
    # CuPy sets RawKernel.__name__ to the kernel's name "for profiling
    # mechanisms to auto infer a name": benchmark(kernel, (grid, block,
    # args)) (a CuPy course's histogram solution) names its result after it.
    import pickle
    from fake_cupy._cupyx import profiler
    k = cp.RawKernel(r'''extern "C" __global__ void bump(int *x) { atomicAdd(x, 1); }''',
                     "bump")
    assert k.__name__ == "bump"
    x = cp.zeros(1, dtype=numpy.int32)
    result = profiler.benchmark(k, ((2,), (32,), (x,)), n_repeat=3, n_warmup=1)
    assert result.name == "bump" and str(result).startswith("bump")
    assert int(x.get()[0]) == 4 * 64
    assert pickle.loads(pickle.dumps(k)).__name__ == "bump"
    mod = cp.RawModule(code=r'''extern "C" __global__ void other(int *x) { x[0] = 7; }''')
    assert mod.get_function("other").__name__ == "other"


def test_generator_uniform_and_beta_take_cupys_dtype(cp):
    # CuPy's Generator.uniform and Generator.beta take a dtype= that NumPy's
    # Generator lacks; parrot-cpp-extra's max_abs_diff draws its data with
    # cp.random.default_rng(42).uniform(0, 1000, N, dtype=cp.float32).
    rng = cp.random.default_rng(42)
    a = rng.uniform(0, 1000, 64, dtype=cp.float32)
    assert isinstance(a, cp.ndarray) and a.dtype == numpy.float32 and a.shape == (64,)
    h = a.get()
    assert ((h >= 0) & (h <= 1000)).all()
    assert rng.uniform(size=3).dtype == numpy.float64
    b = rng.beta(2.0, 3.0, size=(2, 3), dtype=numpy.float32)
    assert isinstance(b, cp.ndarray) and b.dtype == numpy.float32 and b.shape == (2, 3)
    # Methods whose dtype= NumPy's Generator has already keep it.
    c = rng.standard_normal(4, dtype=numpy.float32)
    assert isinstance(c, cp.ndarray) and c.dtype == numpy.float32
    assert rng.random(2, dtype=numpy.float32).dtype == numpy.float32


def test_cupyx_time_repeat_is_the_deprecated_benchmark(cp):
    # A sparse-solver benchmark times its spsolve with
    # `from cupyx.time import repeat` (CuPy keeps it since v10 as a
    # deprecated alias of cupyx.profiler.benchmark); the fake had no
    # cupyx.time, so the program stopped at its import.
    import fake_cupy
    fake_cupy.install()
    try:
        import cupyx
        from cupyx.time import repeat
        assert cupyx.time.repeat is repeat
        a = cp.arange(4.0)
        with pytest.warns(DeprecationWarning, match="cupyx.profiler.benchmark"):
            result = repeat(cp.sum, (a,), n_repeat=3, n_warmup=1)
        assert result.cpu_times.shape == (3,)
        assert result.gpu_times.shape == (1, 3)
        assert str(result).startswith("sum")
    finally:
        fake_cupy.uninstall()
