"""The memory pools, against CuPy's documented example (docs: "Memory
Management", Memory Pool Operations)."""
import gc
import os

import numpy
import pytest

_HERE = os.path.abspath(__file__)


def _line_of(text):
    """The line of this file that holds `text` (reports name it)."""
    with open(_HERE) as f:
        return f.read().split(text)[0].count("\n") + 1


@pytest.fixture
def pools(cp):
    mempool = cp.get_default_memory_pool()
    pinned_mempool = cp.get_default_pinned_memory_pool()
    gc.collect()
    mempool.free_all_blocks()
    pinned_mempool.free_all_blocks()
    assert mempool.used_bytes() == 0, "an earlier test leaked device arrays"
    yield mempool, pinned_mempool
    mempool.set_limit(size=0)


def test_cupy_documented_example(cp, pools):
    mempool, pinned_mempool = pools
    assert mempool is cp.get_default_memory_pool()
    a_cpu = numpy.ndarray(100, dtype=numpy.float32)
    assert a_cpu.nbytes == 400
    assert mempool.used_bytes() == 0
    assert mempool.total_bytes() == 0
    assert pinned_mempool.n_free_blocks() == 0

    a = cp.array(a_cpu)
    assert a.nbytes == 400
    assert mempool.used_bytes() == 512
    assert mempool.total_bytes() == 512
    assert pinned_mempool.n_free_blocks() == 1

    a = None
    assert mempool.used_bytes() == 0
    assert mempool.total_bytes() == 512
    assert pinned_mempool.n_free_blocks() == 1

    mempool.free_all_blocks()
    pinned_mempool.free_all_blocks()
    assert mempool.used_bytes() == 0
    assert mempool.total_bytes() == 0
    assert pinned_mempool.n_free_blocks() == 0


def test_blocks_are_reused_and_counted(cp, pools):
    mempool, _ = pools
    a = cp.zeros(1000, dtype=cp.float64)        # 8000 -> 8192 bytes
    ptr = a.data.ptr
    assert mempool.used_bytes() == 8192
    del a
    assert mempool.n_free_blocks() == 1
    assert mempool.free_bytes() == 8192
    b = cp.empty(1024, dtype=cp.float64)         # same rounded size: reused
    assert b.data.ptr == ptr
    assert mempool.n_free_blocks() == 0
    assert mempool.total_bytes() == 8192
    empty = cp.empty(0)
    assert empty.data.ptr == 0 and mempool.used_bytes() == 8192


def test_limit(cp, pools):
    mempool, _ = pools
    assert mempool.get_limit() == 0
    mempool.set_limit(size=1024)
    assert mempool.get_limit() == 1024
    keep = cp.zeros(100)                         # 800 -> 1024 bytes
    with pytest.raises(cp.cuda.memory.OutOfMemoryError,
                       match=r"Out of memory allocating 512 bytes \(allocated so "
                             r"far: 1,024 bytes, limit set to: 1,024 bytes\)\."):
        cp.zeros(10)
    del keep
    cp.zeros(10)                                 # frees the cached block first
    with pytest.raises(ValueError):
        mempool.set_limit(fraction=2)


def test_mem_get_info(cp, pools):
    mempool, _ = pools
    free, total = cp.cuda.runtime.memGetInfo()
    assert 0 < free <= total
    keep = cp.zeros(1 << 20)
    free2, total2 = cp.cuda.runtime.memGetInfo()
    assert total2 == total and free2 == free - (8 << 20)
    del keep


def test_pinned_arrays(cp, pools):
    _, pinned_mempool = pools
    from fake_cupy import _cupyx as cupyx
    p = cupyx.zeros_pinned((4, 2), dtype=numpy.float32)
    assert isinstance(p, numpy.ndarray) and p.shape == (4, 2) and not p.any()
    assert pinned_mempool.n_free_blocks() == 0     # held by the array
    del p
    assert pinned_mempool.n_free_blocks() == 1


def test_best_fit_reuse_splits_a_larger_free_block(cp, pools):
    mempool, _ = pools
    a = cp.zeros(128, cp.float64)                # 1024 bytes
    ptr = a.data.ptr
    del a
    b = cp.zeros(10, cp.float64)                 # 80 -> 512, split from 1024
    assert b.data.ptr == ptr
    assert (mempool.used_bytes(), mempool.total_bytes()) == (512, 1024)
    assert mempool.n_free_blocks() == 1          # the other half
    c = cp.zeros(10, cp.float64)                 # takes the other half
    assert c.data.ptr == ptr + 512
    assert mempool.total_bytes() == 1024 and mempool.n_free_blocks() == 0
    del b, c                                     # the halves merge again
    assert mempool.n_free_blocks() == 1
    d = cp.zeros(128, cp.float64)
    assert d.data.ptr == ptr and mempool.total_bytes() == 1024


def test_best_fit_takes_the_smallest_free_chunk_that_fits(cp, pools):
    # Free chunks of 1536, 512 and 1024 bytes (live arrays between them
    # keep them apart): 600 bytes (-> 1024) take the 1024-byte chunk whole,
    # 100 (-> 512) the 512-byte one, and 1100 (-> 1536) the largest.
    mempool, _ = pools
    x = [cp.empty(n, cp.uint8) for n in (1536, 1, 512, 1, 1024, 1)]
    ptrs = [a.data.ptr for a in x]
    del x[4], x[2], x[0]
    assert mempool.n_free_blocks() == 3          # each is its own block
    total = mempool.total_bytes()
    assert cp.empty(600, cp.uint8).data.ptr == ptrs[4]
    # That array is gone again: its chunk is free once more.
    keep = [cp.empty(600, cp.uint8), cp.empty(100, cp.uint8),
            cp.empty(1100, cp.uint8)]
    assert [a.data.ptr for a in keep] == [ptrs[4], ptrs[2], ptrs[0]]
    assert mempool.total_bytes() == total and mempool.n_free_blocks() == 0


def test_under_memcheck_a_write_past_an_array_is_reported_not_made(
        cp, pools, monkeypatch):
    # Without the checker, a freed 1024-byte chunk is split between a and
    # b, so b begins where a ends, and the checker would take a[128] for
    # b[0]. Under it each array has an allocation of its own: the write is
    # reported (kernel, block, thread, line) and b keeps its bytes.
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "mem")
    mempool, _ = pools
    big = cp.zeros(256, cp.int32)
    del big
    a = cp.zeros(128, cp.int32)
    b = cp.zeros(128, cp.int32)
    k = cp.RawKernel(r'''
extern "C" __global__ void write_past(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 7;
}''', "write_past")
    k((5,), (32,), (a, cp.int32(128)))
    with pytest.raises(cp.cuda.driver.CUDADriverError) as e:
        cp.cuda.Device().synchronize()
    msg = str(e.value)
    assert "kernel write_past: memcheck: out-of-bounds write of 4 bytes" \
        in msg, msg
    assert "by block (4,0,0) thread (0,0,0)" in msg, msg
    # The line of this file that holds the kernel's access.
    assert f"{_HERE}:{_line_of('if (i <= n) a[i] = 7;')})" in msg, msg
    assert (b.get() == 0).all()


@pytest.mark.parametrize("past", [400, 1000, 6000])
def test_under_memcheck_a_read_far_past_an_array_is_reported(
        cp, pools, monkeypatch, past):
    # The array's mapping holds nothing else: the rest of its pages and the
    # guards around them are out of its bounds however far from its bytes
    # (compute-sanitizer reports every access to no allocation). Past the
    # 256 bytes next to the array memcheck took them for host memory it
    # does not know and said nothing (a read there finds zeros), and a
    # thread of a later block wrote into the guard: a plain fault with no
    # report (a public mean-shift script given a count too large).
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "mem")
    a = cp.zeros(30, cp.float32)                 # 120 bytes
    out = cp.zeros(1, cp.float32)
    k = cp.RawKernel(r'''
extern "C" __global__ void read_far(const float *a, float *out, int at) {
  out[0] = a[at];
}''', "read_far")
    k((1,), (1,), (a, out, cp.int32(past // 4)))
    with pytest.raises(cp.cuda.driver.CUDADriverError) as e:
        cp.cuda.Device().synchronize()
    msg = str(e.value)
    assert "kernel read_far: memcheck: out-of-bounds read of 4 bytes" \
        in msg, msg
    assert f"{_HERE}:{_line_of('  out[0] = a[at];')})" in msg, msg


def test_pool_arenas_are_per_stream_and_per_device(cp, pools, monkeypatch):
    mempool, _ = pools
    s = cp.cuda.Stream()
    with s:
        a = cp.zeros(64)
    ptr = a.data.ptr
    del a
    b = cp.zeros(64)                             # another stream: new block
    assert b.data.ptr != ptr
    with s:
        c = cp.zeros(64)                         # the stream's own block
    assert c.data.ptr == ptr
    del c
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "2")
    with cp.cuda.Device(1):                      # device 1's pool
        mempool.free_all_blocks()
        e = cp.zeros(64)
        del e
        assert mempool.n_free_blocks() == 1
        mempool.free_all_blocks()
        assert mempool.n_free_blocks() == 0
    assert mempool.n_free_blocks() == 1          # device 0's is untouched
    mempool.free_all_blocks(stream=cp.cuda.Stream.null)
    assert mempool.n_free_blocks() == 1          # s's arena only
    mempool.free_all_blocks(stream=s)
    assert mempool.n_free_blocks() == 0


def test_memory_pointer_copies_run_after_queued_kernels(cp, pools):
    cp.cuda.set_async_mode("deferred")
    k = cp.RawKernel(r'''extern "C" __global__ void seven(float *x) {
      x[threadIdx.x] = 7; }''', "seven")
    x = cp.zeros(4, cp.float32)
    k((1,), (4,), (x,))
    buf = numpy.zeros(4, numpy.float32)
    x.data.copy_to_host(buf.ctypes.data, 16)
    assert (buf == 7).all()
    k((1,), (4,), (x,))
    x.data.memset(0, 16)                         # after the kernel, as on a GPU
    assert (x.get() == 0).all()
    y = cp.zeros(4, cp.float32)
    k((1,), (4,), (x,))
    y.data.copy_from(x.data, 16)
    assert (y.get() == 7).all()
    # The *_async forms are queued in order with the stream's kernels.
    s = cp.cuda.Stream()
    k((1,), (4,), (y,), stream=s)
    y.data.memset_async(0, 16, stream=s)
    (y.data + 8).copy_from_device_async(x.data, 8, stream=s)
    out = numpy.zeros(4, numpy.float32)
    y.data.copy_to_host_async(out.ctypes.data, 16, stream=s)
    assert (out == 0).all()                      # not run yet
    s.synchronize()
    assert out.tolist() == [0, 0, 7, 7]
    z = cp.zeros(4, cp.float32)
    z.data.copy_from_host(numpy.full(4, 5, numpy.float32).ctypes.data, 16)
    z.data.copy_from_async(y.data, 4)
    assert z.get().tolist() == [0, 5, 5, 5]
    cp.cuda.set_async_mode(None)
