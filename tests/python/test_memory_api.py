"""The memory and interop API of CuPy's documentation: allocators and
memory kinds, MemoryPointer arithmetic, runtime calls, streams from
outside, devices, cupy.exceptions and DLPack 1.0."""
import ctypes
import threading

import numpy
import pytest


def test_memory_kinds(cp):
    m = cp.cuda.malloc_managed(1000)
    assert isinstance(m.mem, cp.cuda.ManagedMemory)
    assert isinstance(m.mem, cp.cuda.memory.BaseMemory)
    a = cp.ndarray((10,), cp.float64, memptr=m)
    a[...] = 3
    assert a.sum().item() == 30
    p = cp.get_default_memory_pool().malloc(100)
    assert isinstance(p.mem, cp.cuda.memory.PooledMemory)
    s = cp.cuda.Stream()
    with s:
        q = cp.cuda.malloc_async(256)
    assert isinstance(q.mem, cp.cuda.memory.MemoryAsync)


def test_memory_free_returns_the_block(cp):
    pool = cp.cuda.MemoryPool()
    p = pool.malloc(1024)
    assert pool.used_bytes() == 1024
    p.mem.free()
    assert pool.used_bytes() == 0 and p.mem.ptr == 0
    p.mem.free()                                # twice is harmless


def test_unowned_memory(cp):
    owner = cp.arange(8, dtype=cp.int32)
    mem = cp.cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner)
    assert mem.device_id == 0 and mem.owner is owner
    view = cp.ndarray((8,), cp.int32, memptr=cp.cuda.MemoryPointer(mem, 0))
    assert view.get().tolist() == list(range(8))


def test_unowned_memory_of_unknown_size(cp):
    # CuPy never checks an array against its memory's size; public code
    # wraps a pointer as UnownedMemory(ptr, 0, owner) and views it with an
    # ndarray. Inside a cupy allocation the view reaches its end.
    owner = cp.arange(12, dtype=cp.float32)
    mem = cp.cuda.UnownedMemory(owner.data.ptr + 8, 0, owner)
    assert mem.size == 0
    view = cp.ndarray((2, 5), cp.float32, memptr=cp.cuda.MemoryPointer(mem, 0))
    assert view.get().ravel().tolist() == list(range(2, 12))
    view[0, 0] = -1
    assert owner.get()[2] == -1
    # Past the allocation, or outside any, is a clear error, not a crash.
    with pytest.raises(ValueError, match="UnownedMemory"):
        cp.ndarray((11,), cp.float32, memptr=cp.cuda.MemoryPointer(mem, 0))


def test_allocator_of_user_memory_over_host_alloc(cp):
    # A pattern of public code: a BaseMemory subclass that sets only size,
    # device_id and ptr (from cudaHostAlloc), handed out by an allocator, so
    # that arrays live in pinned host memory that kernels reach.
    class HostMemory(cp.cuda.memory.BaseMemory):
        def __init__(self, size):
            self.size = size
            self.device_id = cp.cuda.device.get_device_id()
            self.ptr = cp.cuda.runtime.hostAlloc(size, 0) if size else 0

        def __del__(self):
            if self.ptr:
                cp.cuda.runtime.freeHost(self.ptr)

    saved = cp.cuda.get_allocator()
    cp.cuda.set_allocator(lambda n: cp.cuda.MemoryPointer(HostMemory(n), 0))
    try:
        a = cp.arange(10, dtype=cp.float32)
        assert isinstance(a.data.mem, HostMemory)
        twice = cp.RawKernel(r'''
extern "C" __global__ void twice(float *x) { x[threadIdx.x] *= 2; }''', "twice")
        twice((1,), (10,), (a,))
        assert a.get().tolist() == [2.0 * i for i in range(10)]
        assert float((a * 3).sum()) == 270.0
    finally:
        cp.cuda.set_allocator(saved)
    runtime = cp.cuda.runtime
    p = runtime.hostAlloc(64, runtime.hostAllocPortable | runtime.hostAllocMapped)
    ctypes.memset(p, 7, 64)
    runtime.freeHost(p)
    runtime.freeHost(0)
    for bad in (lambda: runtime.freeHost(p), lambda: runtime.hostAlloc(8, 64)):
        with pytest.raises(runtime.CUDARuntimeError, match="cudaErrorInvalidValue"):
            bad()


def test_pinned_memory_of_its_own(cp):
    # cupy.cuda.PinnedMemory(size, flags): public code wraps one in a
    # PinnedMemoryPointer and views it with numpy (mapped host buffers).
    rt = cp.cuda.runtime
    mem = cp.cuda.PinnedMemory(32, rt.hostAllocMapped)
    assert mem.size == 32 and mem.ptr
    host = numpy.ndarray((4,), numpy.float64,
                         buffer=cp.cuda.PinnedMemoryPointer(mem, 0))
    host[:] = [1, 2, 3, 4]
    dev = cp.empty(4)
    dev.set(host)
    assert dev.get().tolist() == [1, 2, 3, 4]
    assert isinstance(cp.cuda.alloc_pinned_memory(8).mem, cp.cuda.PinnedMemory)
    assert cp.cuda.pinned_memory.PinnedMemory is cp.cuda.PinnedMemory
    assert cp.cuda.PinnedMemory(0).ptr == 0
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
        cp.cuda.PinnedMemory(8, 64)


def test_memory_pointer_arithmetic(cp):
    p = cp.cuda.alloc(1024)
    q = p + 16
    assert q.ptr == p.ptr + 16 and (16 + p).ptr == q.ptr
    assert (q - 16).ptr == p.ptr
    r = p
    r += numpy.int64(8)
    assert r.ptr == p.ptr + 8
    r -= 8
    assert r.ptr == p.ptr
    with pytest.raises(TypeError):
        p + 1.5


def test_allocator_rules(cp):
    default = cp.cuda.get_allocator()
    pool = cp.cuda.MemoryPool()
    with cp.cuda.using_allocator(pool.malloc):
        assert cp.cuda.get_allocator() == pool.malloc
        with pytest.raises(ValueError, match="using_allocator"):
            cp.cuda.set_allocator(None)
        seen = {}
        t = threading.Thread(target=lambda: seen.update(
            a=cp.cuda.get_allocator()))
        t.start()
        t.join()
        assert seen["a"] == default              # per thread
        x = cp.zeros(100)
        assert pool.used_bytes() >= x.nbytes
    assert cp.cuda.get_allocator() == default


def test_python_function_allocator(cp):
    freed, buffers = [], {}

    def malloc(size, device_id):
        buf = ctypes.create_string_buffer(size)
        buffers[ctypes.addressof(buf)] = buf
        return ctypes.addressof(buf)

    def free(ptr, device_id):
        freed.append(ptr)
        buffers.pop(ptr)

    allocator = cp.cuda.PythonFunctionAllocator(malloc, free)
    with cp.cuda.using_allocator(allocator.malloc):
        a = cp.arange(10, dtype=cp.float32)
        ptr = a.data.ptr
        assert ptr in buffers
        assert a.sum().item() == 45
    del a
    import gc
    gc.collect()
    assert ptr in freed


def test_memory_async_pool(cp):
    pool = cp.cuda.MemoryAsyncPool()
    p = pool.malloc(4096)
    assert pool.used_bytes() == 4096
    del p
    import gc
    gc.collect()
    assert pool.used_bytes() == 0
    pool.set_limit(size=100)
    with pytest.raises(cp.cuda.memory.OutOfMemoryError):
        pool.malloc(1000)


def test_runtime_calls(cp):
    rt = cp.cuda.runtime
    assert rt.deviceGetAttribute(rt.cudaDevAttrWarpSize, 0) == 32
    assert rt.deviceGetAttribute(rt.cudaDevAttrComputeCapabilityMajor, 0) == 9
    with pytest.raises(rt.CUDARuntimeError):
        rt.deviceGetAttribute(10, 7)
    s = rt.streamCreate()
    assert s not in (0, 1, 2)
    rt.streamSynchronize(s)
    rt.streamDestroy(s)
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidResourceHandle"):
        rt.streamDestroy(s)
    assert cp.cuda.get_local_runtime_version() == rt.runtimeGetVersion()


def test_memcpy_2d(cp):
    # cudaMemcpy2D(Async) as public code calls it: rows of `width` bytes,
    # `dpitch`/`spitch` bytes apart (a block of columns between a host
    # array and a device array of other widths).
    rt = cp.cuda.runtime
    host = numpy.arange(6 * 10, dtype=numpy.float64).reshape(6, 10)
    dev = cp.zeros((4, 5), dtype=cp.float64)
    rt.memcpy2D(dev.data.ptr, 5 * 8, host[1:, 2:].ctypes.data, 10 * 8,
                3 * 8, 4, rt.memcpyHostToDevice)
    expect = numpy.zeros((4, 5))
    expect[:, :3] = host[1:5, 2:5]
    assert (dev.get() == expect).all()
    back = numpy.zeros((4, 2))
    s = cp.cuda.Stream()
    rt.memcpy2DAsync(back.ctypes.data, 2 * 8, dev[:, 1:].data.ptr, 5 * 8,
                     2 * 8, 4, rt.memcpyDeviceToHost, s.ptr)
    s.synchronize()
    assert (back == expect[:, 1:3]).all()
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidPitchValue"):
        rt.memcpy2D(dev.data.ptr, 8, host.ctypes.data, 80, 16, 2,
                    rt.memcpyHostToDevice)
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
        # The last row would end past the device array.
        rt.memcpy2D(dev.data.ptr, 5 * 8, host.ctypes.data, 10 * 8, 5 * 8, 5,
                    rt.memcpyHostToDevice)


def test_runtime_allocation_and_registration_calls(cp):
    # The rest of cupy.cuda.runtime's documented memory calls that public
    # code makes: managed and stream-ordered allocations, prefetch and
    # advice on managed memory, peer copies, host registration, profiler.
    rt = cp.cuda.runtime
    p = rt.mallocManaged(64)
    ctypes.memset(p, 1, 64)
    rt.memPrefetchAsync(p, 64, 0, 0)
    rt.memPrefetchAsync(p, 64, -1, 0)            # cudaCpuDeviceId
    rt.memAdvise(p, 64, rt.cudaMemAdviseSetReadMostly, 0)
    a = cp.zeros(16, dtype=cp.uint8)
    for bad in (lambda: rt.memPrefetchAsync(a.data.ptr, 16, 0, 0),
                lambda: rt.memAdvise(p, 128, 1, 0),
                lambda: rt.mallocManaged(8, rt.cudaMemAttachSingle)):
        with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
            bad()
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        rt.memPrefetchAsync(p, 64, 5, 0)
    rt.memcpyPeer(a.data.ptr, 0, p, 0, 16)
    assert a.get().tolist() == [1] * 16
    s = cp.cuda.Stream()
    q = rt.mallocAsync(32, s.ptr)
    rt.memcpyPeerAsync(q, 0, p, 0, 32, s.ptr)
    rt.freeAsync(q, s.ptr)
    s.synchronize()
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
        rt.freeAsync(q, s.ptr)
    rt.free(p)
    host = numpy.zeros(32)
    rt.hostRegister(host.ctypes.data, host.nbytes, 0)
    with pytest.raises(rt.CUDARuntimeError,
                       match="cudaErrorHostMemoryAlreadyRegistered"):
        rt.hostRegister(host.ctypes.data, host.nbytes, 0)
    rt.hostUnregister(host.ctypes.data)
    with pytest.raises(rt.CUDARuntimeError,
                       match="cudaErrorHostMemoryNotRegistered"):
        rt.hostUnregister(host.ctypes.data)
    rt.profilerStart()
    rt.profilerStop()


def test_runtime_limits_and_host_callbacks(cp):
    rt = cp.cuda.runtime
    heap = rt.deviceGetLimit(rt.cudaLimitMallocHeapSize)
    assert heap == 8 << 20                      # CUDA's default
    rt.deviceSetLimit(rt.cudaLimitMallocHeapSize, 16 << 20)
    try:
        assert rt.deviceGetLimit(rt.cudaLimitMallocHeapSize) == 16 << 20
    finally:
        rt.deviceSetLimit(rt.cudaLimitMallocHeapSize, heap)
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorUnsupportedLimit"):
        rt.deviceGetLimit(99)
    s = cp.cuda.Stream()
    x = cp.zeros(4)
    with s:
        x += 1
    seen = []
    rt.streamAddCallback(s.ptr, lambda st, status, arg: seen.append(
        (st, status, arg, float(x.sum()))), 7)
    rt.launchHostFunc(s.ptr, lambda arg: seen.append(arg), 8)
    assert seen == [(s.ptr, 0, 7, 4.0), 8]
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
        rt.streamAddCallback(s.ptr, lambda *a: None, 0, 1)
    with pytest.raises(TypeError):          # arg is an intptr_t in CuPy
        rt.launchHostFunc(s.ptr, lambda arg: None, "not an address")


def test_streams_from_outside(cp):
    s = cp.cuda.Stream(non_blocking=True)
    assert s.is_non_blocking and not cp.cuda.Stream().is_non_blocking
    assert s.__cuda_stream__() == (0, s.ptr)
    e = cp.cuda.Stream.from_external(s)
    assert e == s and e.ptr == s.ptr

    class Foreign:
        def __cuda_stream__(self):
            return (0, s.ptr)
    assert cp.cuda.Stream.from_external(Foreign()) == s


def test_devices(cp, monkeypatch):
    from fake_cupy.cuda import device  # noqa: F401  (the module exists)
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    d0, d1 = cp.cuda.Device(0), cp.cuda.Device(1)
    assert d0 < d1 and d1 > d0 and sorted([d1, d0]) == [d0, d1]
    assert d0.pci_bus_id != d1.pci_bus_id
    with d1:
        a = cp.zeros(3)
    assert cp.cuda.device.from_pointer(a.data.ptr) == d1
    assert cp.cuda.device.from_pointer(cp.zeros(1).data.ptr) == d0


def test_exceptions_module(cp):
    import fake_cupy.exceptions  # noqa: F401
    assert issubclass(cp.exceptions.AxisError, IndexError)
    assert issubclass(cp.exceptions.ComplexWarning, RuntimeWarning)


class _Producer:
    """A CPU DLPack producer around a capsule (NumPy consumes it)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_versions_and_copies(cp):
    x = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    cap = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    y = cp.from_dlpack(cap)
    assert y.data.ptr == x.data.ptr and (y.get() == x.get()).all()
    old = x.toDlpack()
    assert '"dltensor"' in repr(old)
    with pytest.warns(cp.VisibleDeprecationWarning):    # CuPy's category
        z = cp.fromDlpack(old)
    assert z.data.ptr == x.data.ptr
    # CuPy 13: copy=True only for a copy to the CPU; device= not yet.
    with pytest.raises(BufferError):
        cp.from_dlpack(x, copy=True)
    with pytest.raises(NotImplementedError):
        cp.from_dlpack(x, device=(2, 0))
    host = numpy.from_dlpack(_Producer(x.__dlpack__(dl_device=(1, 0))))
    assert (host == x.get()).all()

    class OldProducer:                 # no max_version keyword
        def __dlpack__(self, stream=None):
            return x.__dlpack__()

        def __dlpack_device__(self):
            return x.__dlpack_device__()
    assert cp.from_dlpack(OldProducer()).data.ptr == x.data.ptr


def test_a_consumer_refusing_a_capsule_keeps_its_error(cp):
    # numpy.from_dlpack of a cupy array gets a kDLCUDA tensor and raises
    # (as with CuPy); the capsule it drops must not swallow that error (a
    # destructor run through ctypes did: SystemError "returned NULL without
    # setting an exception"). A dropped, unconsumed capsule's array is
    # released at the next garbage collection (or capsule).
    import gc
    import sys
    import weakref
    x = cp.arange(4, dtype=cp.float32)
    with pytest.raises((RuntimeError, BufferError)) as info:
        numpy.from_dlpack(x)
    assert not isinstance(info.value, SystemError)
    y = cp.arange(3, dtype=cp.float32)
    ref = weakref.ref(y)
    y.__dlpack__()
    del y
    gc.collect()
    assert ref() is None
    assert sys.getrefcount(x) >= 2


def test_ufuncs_take_cuda_array_interface_objects(cp):
    x = cp.arange(4, dtype=cp.float64)

    class Wrapper:
        @property
        def __cuda_array_interface__(self):
            return x.__cuda_array_interface__

    assert cp.add(Wrapper(), 1).get().tolist() == [1, 2, 3, 4]
    assert cp.sum(Wrapper()).item() == 6


class _Recorder:
    """A memory hook (made a cupy.cuda.MemoryHook subclass by recorder())
    that records every call with its keyword arguments."""

    points = ("alloc_preprocess", "alloc_postprocess", "malloc_preprocess",
              "malloc_postprocess", "free_preprocess", "free_postprocess")


def recorder(cp):
    class Recorder(cp.cuda.MemoryHook):
        name = "Recorder"

        def __init__(self):
            self.calls = []

    for point in _Recorder.points:
        setattr(Recorder, point,
                lambda self, _point=point, **kw: self.calls.append((_point, kw)))
    return Recorder()


def test_memory_hooks_see_the_pool_as_cupys_do(cp):
    """cupy.cuda.MemoryHook: malloc around every allocation from a pool,
    alloc around the pool taking new memory (not when a free chunk fits),
    free around a block's return, with CuPy's keyword arguments."""
    pool = cp.cuda.MemoryPool()
    hook = recorder(cp)
    with hook:
        mem = pool.malloc(1)
        first = (mem.ptr, id(mem.mem))
        del mem
        mem = pool.malloc(100)
        second = (mem.ptr, id(mem.mem))
        del mem
    points = [p for p, _ in hook.calls]
    assert points == ["malloc_preprocess", "alloc_preprocess",
                      "alloc_postprocess", "malloc_postprocess",
                      "free_preprocess", "free_postprocess",
                      "malloc_preprocess", "malloc_postprocess",
                      "free_preprocess", "free_postprocess"]
    kw = [k for _, k in hook.calls]
    assert kw[0] == {"device_id": 0, "size": 1, "mem_size": 512}
    assert kw[1] == {"device_id": 0, "mem_size": 512}
    assert kw[2] == {"device_id": 0, "mem_size": 512, "mem_ptr": first[0]}
    assert kw[3] == {"device_id": 0, "size": 1, "mem_size": 512,
                     "mem_ptr": first[0], "pmem_id": first[1]}
    assert kw[4] == kw[5] == {"device_id": 0, "mem_size": 512,
                              "mem_ptr": first[0], "pmem_id": first[1]}
    assert kw[7] == {"device_id": 0, "size": 100, "mem_size": 512,
                     "mem_ptr": second[0], "pmem_id": second[1]}
    # Not entered: nothing more is recorded; a name is entered once.
    pool.malloc(8)
    assert len(hook.calls) == 10
    with hook:
        with pytest.raises(KeyError):
            with recorder(cp):
                pass


def test_memory_hooks_are_per_thread(cp):
    import threading
    hook = recorder(cp)
    pool = cp.cuda.MemoryPool()
    with hook:
        worker = threading.Thread(target=lambda: pool.malloc(1024))
        worker.start()
        worker.join()
    assert hook.calls == []


def test_debug_print_and_line_profile_hooks(cp):
    """cupy.cuda.memory_hooks: DebugPrintHook's JSON lines and
    LineProfileHook's report, in CuPy's formats."""
    import io
    import json
    memory_hooks = cp.cuda.memory_hooks
    out = io.StringIO()
    pool = cp.cuda.MemoryPool()
    with memory_hooks.DebugPrintHook(file=out):
        mem = pool.malloc(24)
        ptr, pmem = mem.ptr, id(mem.mem)
        del mem
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [
        {"hook": "alloc", "device_id": 0, "mem_size": 512, "mem_ptr": ptr},
        {"hook": "malloc", "device_id": 0, "size": 24, "mem_size": 512,
         "mem_ptr": ptr, "pmem_id": hex(pmem)},
        {"hook": "free", "device_id": 0, "mem_size": 512, "mem_ptr": ptr,
         "pmem_id": hex(pmem)}]

    hook = memory_hooks.LineProfileHook()

    def allocate():
        return cp.zeros(256, cp.float64)        # 2 KiB from the pool

    with cp.cuda.using_allocator(cp.cuda.MemoryPool().malloc):
        with hook:
            keep = [allocate(), allocate()]
    report = io.StringIO()
    hook.print_report(file=report)
    text = report.getvalue()
    assert text.startswith("_root (4.00KB, 4.00KB)\n"), text
    assert f"test_memory_api.py:" in text and ":allocate (4.00KB, 4.00KB)" in text
    assert "fake_cupy" not in text              # CuPy's own code is not shown
    del keep


def test_default_pools_by_their_private_names(cp):
    """`cp._default_memory_pool.free_all_blocks()` (a tomography pipeline,
    10+ files in the repository index) raised AttributeError: CuPy's
    cupy/__init__.py keeps the default pools in `_default_memory_pool` and
    `_default_pinned_memory_pool`, the objects get_default_*() return."""
    assert cp._default_memory_pool is cp.get_default_memory_pool()
    assert cp._default_pinned_memory_pool is cp.get_default_pinned_memory_pool()
    x = cp.arange(1000)
    del x
    cp._default_memory_pool.free_all_blocks()
    cp._default_pinned_memory_pool.free_all_blocks()
    assert cp._default_memory_pool.free_bytes() == 0
