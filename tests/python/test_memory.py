"""The memory pools, against CuPy's documented example (docs: "Memory
Management", Memory Pool Operations)."""
import gc

import numpy
import pytest


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
