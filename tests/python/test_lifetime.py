"""The lifetime checker (deferred mode): the contract of seed 000 -- queued
work must not outlive its operands, streams must be ordered explicitly, and
one launch must not mix devices."""
import gc

import numpy
import pytest

import kernels

N = 256


@pytest.fixture
def pull(deferred):
    return deferred.RawKernel(kernels.PULL, "pull")


def build_grid(cp, coords):
    return cp.asarray(coords) * 2


def launch(cp, pull, out, inp, grid, stream):
    pull(((N + 127) // 128,), (128,), (out, inp, grid, numpy.int32(N)),
         stream=stream)


def test_wrong_operand_freed_before_the_kernel_ran(deferred, pull):
    cp = deferred
    stream = cp.cuda.Stream()
    inp = cp.ones(N, cp.float32)
    coords = numpy.arange(N, dtype=numpy.float32)

    def sample(inp, coords, stream):
        grid = build_grid(cp, coords)            # allocates from the pool
        out = cp.empty(N, cp.float32)
        launch(cp, pull, out, inp, grid, stream)
        return out                               # `grid` freed here
    out = sample(inp, coords, stream)
    gc.collect()
    with pytest.raises(cp.cuda.LifetimeError) as info:
        stream.synchronize()
    message = str(info.value)
    assert message.startswith(f"array of shape ({N},) passed to kernel pull on "
                              f"stream {stream.ptr:#x} was freed before the "
                              "kernel ran")
    assert "test_lifetime.py:" in message          # the launch's call site
    # The kernel still ran into memory that was kept for it.
    assert (out.get() == 2 * numpy.arange(N)).all()


def test_right_synchronize_before_letting_operands_go(deferred, pull):
    cp = deferred
    stream = cp.cuda.Stream()
    inp = cp.ones(N, cp.float32)

    def sample(inp, coords, stream):
        grid = build_grid(cp, coords)
        out = cp.empty(N, cp.float32)
        launch(cp, pull, out, inp, grid, stream)
        stream.synchronize()
        return out
    out = sample(inp, numpy.arange(N, dtype=numpy.float32), stream)
    stream.synchronize()
    assert (out.get() == 2 * numpy.arange(N)).all()


def test_right_keep_operands_alive_until_synchronized(deferred, pull):
    cp = deferred
    stream = cp.cuda.Stream()
    inp = cp.ones(N, cp.float32)

    def sample(inp, coords, stream):
        grid = build_grid(cp, coords)
        out = cp.empty(N, cp.float32)
        launch(cp, pull, out, inp, grid, stream)
        return out, grid
    out, grid = sample(inp, numpy.arange(N, dtype=numpy.float32), stream)
    stream.synchronize()
    del grid
    assert (out.get() == 2 * numpy.arange(N)).all()


def test_deferred_mode_from_the_environment(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_ASYNC", "deferred")
    assert cp.cuda.async_mode() == "deferred"
    k = cp.RawKernel(kernels.PULL, "pull")
    s = cp.cuda.Stream()
    out, inp = cp.zeros(N, cp.float32), cp.ones(N, cp.float32)
    grid = cp.ones(N, cp.float32)
    launch(cp, k, out, inp, grid, s)
    assert not s.done
    del grid
    with pytest.raises(cp.cuda.LifetimeError, match="was freed before the kernel ran"):
        cp.cuda.Device().synchronize()


def test_read_on_another_stream_without_ordering(deferred, pull):
    cp = deferred
    s1 = cp.cuda.Stream(non_blocking=True)
    s2 = cp.cuda.Stream(non_blocking=True)
    a, b = cp.zeros(N, cp.float32), cp.zeros(N, cp.float32)
    ones = cp.ones(N, cp.float32)
    launch(cp, pull, a, ones, ones, s1)              # writes a on s1
    with pytest.raises(cp.cuda.LifetimeError) as info:
        launch(cp, pull, b, a, ones, s2)             # reads a on s2
    message = str(info.value)
    assert f"written by kernel pull on stream {s1.ptr:#x}" in message
    assert f"on stream {s2.ptr:#x} (argument 1) without an event or stream wait" in message
    s1.synchronize()


def test_reads_ordered_by_event_or_synchronization_are_accepted(deferred, pull):
    cp = deferred
    s1 = cp.cuda.Stream(non_blocking=True)
    s2 = cp.cuda.Stream(non_blocking=True)
    a, b = cp.zeros(N, cp.float32), cp.zeros(N, cp.float32)
    ones = cp.ones(N, cp.float32)
    launch(cp, pull, a, ones, ones, s1)
    s2.wait_event(s1.record())
    launch(cp, pull, b, a, ones, s2)                 # ordered by the event
    s1.wait_event(s2.record())
    launch(cp, pull, a, b, ones, s1)                 # s1 reads b after the event
    s1.synchronize()
    launch(cp, pull, b, a, ones, s2)                 # ordered by the host
    cp.cuda.Device().synchronize()
    assert (b.get() == 1).all()
    # Without the event, s1 reading what s2 wrote is reported too.
    launch(cp, pull, b, ones, ones, s2)
    with pytest.raises(cp.cuda.LifetimeError, match="argument 1"):
        launch(cp, pull, a, b, ones, s1)
    cp.cuda.Device().synchronize()


def test_null_stream_orders_blocking_streams(deferred, pull):
    cp = deferred
    s1 = cp.cuda.Stream()                            # blocking
    a, b = cp.zeros(N, cp.float32), cp.zeros(N, cp.float32)
    ones = cp.ones(N, cp.float32)
    launch(cp, pull, a, ones, ones, s1)
    launch(cp, pull, b, a, ones, cp.cuda.Stream.null)
    launch(cp, pull, a, b, ones, s1)
    cp.cuda.Device().synchronize()
    assert (a.get() == 1).all()
