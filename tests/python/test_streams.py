"""cupy.cuda: devices, streams, events, runtime queries."""
import numpy
import pytest

import kernels


def test_null_stream_and_current_stream(cp):
    s = cp.cuda.get_current_stream()
    assert s.ptr == 0
    assert s == cp.cuda.Stream.null
    user = cp.cuda.Stream(non_blocking=True, priority=-1)
    assert user.ptr != 0 and user.priority == -1
    with user as entered:
        assert entered is user
        assert cp.cuda.get_current_stream() is user
    assert cp.cuda.get_current_stream().ptr == 0
    user.use()
    try:
        assert cp.cuda.get_current_stream() is user
    finally:
        cp.cuda.Stream.null.use()
    # cudaStreamPerThread is 2 (cudaStreamLegacy is 1); null=True wins.
    assert cp.cuda.Stream(ptds=True).ptr == 2
    assert cp.cuda.Stream.ptds.ptr == 2
    assert cp.cuda.Stream.ptds is cp.cuda.Stream.ptds
    assert cp.cuda.Stream(null=True, ptds=True) == cp.cuda.Stream.null
    assert cp.cuda.Stream(null=True, ptds=True).ptr == 0
    assert cp.cuda.ExternalStream(1) == cp.cuda.Stream.null


def test_stream_done_and_synchronize_in_deferred_mode(deferred):
    cp = deferred
    k = cp.RawKernel(kernels.AXPY, "axpy")
    s = cp.cuda.Stream()
    x = cp.ones(64, cp.float32)
    y = cp.zeros(64, cp.float32)
    assert s.done
    k((1,), (64,), (numpy.float32(3), x, y, numpy.int32(64)), stream=s)
    assert not s.done                       # queued, not run yet
    s.synchronize()
    assert s.done
    assert (y.get() == 3).all()


def test_events_record_wait_and_time(deferred):
    cp = deferred
    k = cp.RawKernel(kernels.AXPY, "axpy")
    start, end = cp.cuda.Event(), cp.cuda.Event()
    assert start.ptr != end.ptr and start.done
    s = cp.cuda.Stream()
    x = cp.ones(1 << 16, cp.float32)
    y = cp.zeros(1 << 16, cp.float32)
    start.record(s)
    k((256,), (256,), (numpy.float32(1), x, y, numpy.int32(1 << 16)), stream=s)
    s.record(end)
    assert not end.done
    end.synchronize()
    assert end.done
    assert cp.cuda.get_elapsed_time(start, end) > 0.0
    untimed = cp.cuda.Event(disable_timing=True)
    untimed.record()
    untimed.synchronize()
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError,
                       match="cudaErrorInvalidResourceHandle"):
        cp.cuda.get_elapsed_time(start, untimed)
    with pytest.raises(ValueError):
        cp.cuda.Event(interprocess=True)
    assert cp.cuda.Event(block=True, disable_timing=True, interprocess=True).interprocess


def test_devices_and_runtime_queries(cp, monkeypatch):
    assert cp.cuda.runtime.getDeviceCount() == 1
    props = cp.cuda.runtime.getDeviceProperties(0)
    assert props["warpSize"] == 32 and props["maxThreadsPerBlock"] == 1024
    assert (props["major"], props["minor"]) == (9, 0)
    assert props["multiProcessorCount"] > 0
    # As CuPy: a Device naming a missing device is made, and refused when
    # used.
    missing = cp.cuda.Device(1)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorInvalidDevice"):
        missing.use()
    monkeypatch.setenv("CUEMU_DEVICE_COUNT", "3")
    assert cp.cuda.runtime.getDeviceCount() == 3
    d = cp.cuda.Device(2)
    assert d.id == 2 and d.compute_capability == "90"
    with d:
        assert cp.cuda.Device().id == 2
        a = cp.zeros(3)
        assert a.device == d and a.__dlpack_device__() == (2, 2)
        assert cp.cuda.get_current_stream().device_id == 2
    assert cp.cuda.Device().id == 0
    d.use()
    assert cp.cuda.runtime.getDevice() == 2
    cp.cuda.Device(0).use()
    d.synchronize()


def test_device_properties_come_from_libcuemu(tmp_path):
    """CUEMU_DEVICE describes the emulated device, read once per process by
    libcuemu; Python reads the same device, so its limits agree with what
    the launches enforce."""
    import os
    import subprocess
    import sys
    script = tmp_path / "props.py"
    script.write_text(
        "import fake_cupy as cp\n"
        "p = cp.cuda.runtime.getDeviceProperties(0)\n"
        "print(p['major'], p['minor'], p['multiProcessorCount'],\n"
        "      p['maxThreadsPerBlock'], p['maxThreadsDim'][0],\n"
        "      cp.cuda.Device(0).compute_capability)\n"
        "k = cp.RawKernel(r'extern \"C\" __global__ void k(int *p) { *p = 1; }', 'k')\n"
        "print(k.attributes['max_threads_per_block'])\n")
    env = dict(os.environ, CUEMU_DEVICE="sm=80,sms=4,threads=256")
    out = subprocess.run([sys.executable, str(script)], env=env, text=True,
                         capture_output=True, check=True).stdout.split()
    assert out == ["8", "0", "4", "256", "256", "80", "256"]


def test_streams_that_are_gone_leave_no_state_behind(deferred):
    import gc
    from fake_cupy import _runtime
    cp = deferred
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(8, cp.float32)
    ys = [cp.zeros(8, cp.float32) for _ in range(100)]
    for y in ys:
        s = cp.cuda.Stream(non_blocking=True)
        k((1,), (8,), (numpy.float32(1), x, y, numpy.int32(8)), stream=s)
        s.synchronize()
    del s
    gc.collect()
    cp.cuda.Device().synchronize()
    # Only the streams that still exist keep a queue and a clock entry.
    assert len(_runtime._queues) < 10
    assert len(_runtime._host_clock) < 10
    assert all((y.get() == 1).all() for y in ys)


def test_elapsed_time_needs_finished_events(deferred):
    cp = deferred
    k = cp.RawKernel(kernels.AXPY, "axpy")
    s = cp.cuda.Stream()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    x = cp.ones(1 << 16, cp.float32)
    y = cp.zeros(1 << 16, cp.float32)
    start.record(s)
    for _ in range(20):
        k((256,), (256,), (numpy.float32(1), x, y, numpy.int32(1 << 16)), stream=s)
    end.record(s)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match="cudaErrorNotReady"):
        cp.cuda.get_elapsed_time(start, end)     # queued, not run yet
    end.synchronize()
    elapsed = cp.cuda.get_elapsed_time(start, end)
    # Twenty launches of 65536 threads take measurable time, and the
    # reverse order gives the negative of it.
    assert elapsed > 0.0
    assert cp.cuda.get_elapsed_time(end, start) == pytest.approx(-elapsed)
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError,
                       match="cudaErrorInvalidResourceHandle"):
        cp.cuda.get_elapsed_time(start, cp.cuda.Event())  # never recorded


def test_stream_callbacks_get_cupys_arguments(cp):
    # add_callback(callback, arg) calls callback(stream, status, arg) with
    # the int status CUDA gives (0, cudaSuccess), launch_host_func(f, arg)
    # calls f(arg), each after the work queued before it.
    s = cp.cuda.Stream(non_blocking=True)
    seen = []
    with s:
        y = cp.arange(4) * 2
        s.add_callback(lambda stream, status, arg: seen.append(
            (stream is s, status, arg)), "cb")
        s.launch_host_func(seen.append, 42)
    s.synchronize()
    assert seen == [(True, 0, "cb"), 42]
    assert (y.get() == [0, 2, 4, 6]).all()


def test_stream_capture_makes_a_graph_that_runs_again(cp):
    """Stream capture (CuPy's begin_capture/end_capture): the captured
    launches do not run; the graph runs them again on any stream, as often
    as it is launched."""
    k = cp.RawKernel(kernels.AXPY, "axpy")
    x = cp.ones(64, cp.float32)
    y = cp.zeros(64, cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    assert not s.is_capturing()
    with s:
        s.begin_capture()
        assert s.is_capturing()
        k((1,), (64,), (numpy.float32(2), x, y, numpy.int32(64)), stream=s)
        # The current stream, s, captures this one too.
        k((1,), (64,), (numpy.float32(1), x, y, numpy.int32(64)))
        done = s.record()
        g = s.end_capture()
    assert not s.is_capturing()
    assert isinstance(g, cp.cuda.Graph) and isinstance(g, cp.cuda.graph.Graph)
    s.synchronize()
    assert (y.get() == 0).all()                 # captured, not run
    g.upload(s)
    g.launch(stream=s)
    s.synchronize()
    assert (y.get() == 3).all()
    other = cp.cuda.Stream()
    with other:
        g.launch()                              # the current stream
    other.synchronize()
    assert (y.get() == 6).all()
    done.synchronize()
    assert "kernel axpy" in g.debug_dot_str()


def test_what_a_capture_does_not_permit(cp):
    """The legacy null stream does not capture; a second begin_capture and
    an end_capture without one are cudaErrorIllegalState; a synchronous
    transfer while capturing is cudaErrorStreamCaptureUnsupported and
    invalidates the capture, which end_capture then reports."""
    error = cp.cuda.runtime.CUDARuntimeError
    with pytest.raises(RuntimeError, match="cannot capture on the default"):
        cp.cuda.Stream.null.begin_capture()
    y = cp.zeros(4, cp.float32)
    s = cp.cuda.Stream()
    s.begin_capture()
    with pytest.raises(error, match="cudaErrorIllegalState"):
        s.begin_capture()
    with s:
        with pytest.raises(error, match="cudaErrorStreamCaptureUnsupported"):
            y.get()
        with pytest.raises(error, match="cudaErrorStreamCaptureUnsupported"):
            s.synchronize()
    with pytest.raises(error, match="cudaErrorStreamCaptureInvalidated"):
        s.end_capture()
    assert not s.is_capturing()
    with pytest.raises(error, match="cudaErrorIllegalState"):
        s.end_capture()
    assert (y.get() == 0).all()                 # nothing is left captured


def test_capture_through_the_runtime_and_its_modes(cp):
    # cupy.cuda.runtime's capture and graph calls by handle, and the
    # capture-mode constants public code passes to begin_capture(mode=).
    rt = cp.cuda.runtime
    assert (rt.streamCaptureModeGlobal, rt.streamCaptureModeThreadLocal,
            rt.streamCaptureModeRelaxed) == (0, 1, 2)
    inc = cp.RawKernel(r'''
extern "C" __global__ void inc(float *x) { x[threadIdx.x] += 1; }''', "inc")
    x = cp.zeros(4, dtype=cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    s.begin_capture(mode=rt.streamCaptureModeThreadLocal)
    inc((1,), (4,), (x,), stream=s)
    s.end_capture().launch(s)
    rt.streamBeginCapture(s.ptr)
    assert rt.streamIsCapturing(s.ptr) is True
    inc((1,), (4,), (x,), stream=s)
    graph = rt.streamEndCapture(s.ptr)
    assert rt.streamIsCapturing(s.ptr) is False
    exe = rt.graphInstantiate(graph)
    rt.graphUpload(exe, s.ptr)
    rt.graphLaunch(exe, s.ptr)
    rt.graphLaunch(exe, s.ptr)
    s.synchronize()
    assert x.get().tolist() == [3.0] * 4
    rt.graphDestroy(graph)
    rt.graphLaunch(exe, s.ptr)            # the executable outlives it
    s.synchronize()
    assert x.get().tolist() == [4.0] * 4
    rt.graphExecDestroy(exe)
    for bad in (lambda: rt.graphLaunch(exe, s.ptr),
                lambda: rt.graphInstantiate(graph)):
        with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
            bad()
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidValue"):
        s.begin_capture(mode=7)
