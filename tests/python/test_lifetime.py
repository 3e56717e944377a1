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


def test_temporary_freed_on_its_own_stream_is_not_reported(deferred, pull):
    # CuPy's pool hands a freed block out again only to allocations on the
    # stream it was allocated on, whose later work runs after the queued
    # launch: freeing a same-stream temporary early is safe.
    cp = deferred
    stream = cp.cuda.Stream()
    out = cp.zeros(N, cp.float32)
    with stream:
        inp = cp.ones(N, cp.float32)
        grid = cp.asarray(numpy.arange(N, dtype=numpy.float32))
        launch(cp, pull, out, inp, grid, stream)
        del grid
        gc.collect()
        again = cp.zeros(N, cp.float32)       # may reuse grid's block
    stream.synchronize()
    assert (out.get() == numpy.arange(N)).all()
    assert (again.get() == 0).all()


def test_example_rms_norm_pattern_in_deferred_mode(deferred):
    # examples/python/rms_norm.py: a float32 input becomes a float64
    # temporary (ascontiguousarray) that dies when the function returns,
    # while the launch that reads it is still queued on the same stream.
    import os
    cp = deferred
    srcdir = os.environ.get("CUEMU_SRCDIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))
    with open(os.path.join(srcdir, "examples", "python", "rms_norm.cu"),
              encoding="utf-8") as f:
        kernel = cp.RawKernel(f.read(), "rms_norm")

    def rms_norm(x, eps=1e-6):
        rows, cols = x.shape
        x = cp.ascontiguousarray(x, dtype=cp.float64)
        out = cp.empty_like(x)
        kernel((rows,), (128,), (x, out, numpy.int32(cols), numpy.float64(eps)),
               shared_mem=128 * 8)
        return out
    x = numpy.random.default_rng(0).standard_normal((4, 300)).astype(numpy.float32)
    y = rms_norm(cp.asarray(x))
    gc.collect()
    x64 = x.astype(numpy.float64)
    expected = x64 / numpy.sqrt((x64 * x64).mean(axis=1, keepdims=True) + 1e-6)
    numpy.testing.assert_allclose(y.get(), expected, rtol=1e-12)


def _streams_and_arrays(cp, *kinds):
    streams = [cp.cuda.Stream(non_blocking=k == "non-blocking") for k in kinds]
    arrays = [cp.zeros(N, cp.float32) for _ in range(4)]
    return streams, arrays, cp.ones(N, cp.float32)


def test_null_stream_does_not_order_non_blocking_streams(deferred, pull):
    cp = deferred
    (s1,), (a, b, _c, _d), ones = _streams_and_arrays(cp, "non-blocking")
    launch(cp, pull, a, ones, ones, s1)              # non-blocking s1 writes a
    with pytest.raises(cp.cuda.LifetimeError, match="argument 1"):
        launch(cp, pull, b, a, ones, cp.cuda.Stream.null)
    cp.cuda.Device().synchronize()
    launch(cp, pull, a, ones, ones, cp.cuda.Stream.null)
    with pytest.raises(cp.cuda.LifetimeError, match="argument 1"):
        launch(cp, pull, b, a, ones, s1)             # null writes, s1 reads
    cp.cuda.Device().synchronize()


def test_null_stream_orders_blocking_streams_transitively(deferred, pull):
    cp = deferred
    (s1, s2), (a, b, c, d), ones = _streams_and_arrays(cp, "blocking",
                                                       "blocking")
    launch(cp, pull, a, ones, ones, s1)              # s1 writes a
    launch(cp, pull, c, d, ones, cp.cuda.Stream.null)  # waits for s1
    launch(cp, pull, b, a, ones, s2)                 # waits for the null stream
    cp.cuda.Device().synchronize()
    assert (b.get() == 1).all()


def test_synchronizing_a_stream_or_event_orders_what_it_waited_for(deferred, pull):
    cp = deferred
    (s1, s2, s3), (a, b, c, _d), ones = _streams_and_arrays(
        cp, "non-blocking", "non-blocking", "non-blocking")
    launch(cp, pull, a, ones, ones, s1)              # s1 writes a
    s2.wait_event(s1.record())
    launch(cp, pull, c, ones, ones, s2)
    s2.synchronize()                                 # so the host waited for s1
    launch(cp, pull, b, a, ones, s3)
    cp.cuda.Device().synchronize()
    launch(cp, pull, a, ones, ones, s1)
    s2.wait_event(s1.record())
    s2.record().synchronize()                        # likewise through an event
    launch(cp, pull, b, a, ones, s3)
    cp.cuda.Device().synchronize()
    # An event recorded before the write orders nothing.
    before = s1.record()
    launch(cp, pull, a, ones, ones, s1)
    s2.wait_event(before)
    with pytest.raises(cp.cuda.LifetimeError, match="argument 1"):
        launch(cp, pull, b, a, ones, s2)
    cp.cuda.Device().synchronize()


def test_write_after_a_read_on_another_stream_is_reported(deferred, pull):
    cp = deferred
    (s1, s2), (a, b, c, _d), ones = _streams_and_arrays(cp, "non-blocking",
                                                       "non-blocking")
    launch(cp, pull, b, a, ones, s1)                 # s1 reads a
    with pytest.raises(cp.cuda.LifetimeError) as info:
        launch(cp, pull, a, c, ones, s2)             # s2 writes a
    assert (f"read by kernel pull on stream {s1.ptr:#x} is written by kernel "
            f"pull on stream {s2.ptr:#x} (argument 0)") in str(info.value)
    s2.wait_event(s1.record())
    launch(cp, pull, a, c, ones, s2)                 # ordered by the event
    cp.cuda.Device().synchronize()
