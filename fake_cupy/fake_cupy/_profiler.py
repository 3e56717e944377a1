"""Profiling names of CuPy: cupy.cuda.nvtx (markers and ranges), cupy.cuda.
profiler (start/stop) and cupyx.profiler (benchmark, time_range, profile).
No profiler watches the emulator, so markers, ranges and start/stop do
nothing, as on a GPU without a profiler attached; benchmark measures as
CuPy's does: the CPU time of each call and, with an event pair around it on
the current stream, its device time (the emulated kernels' time here)."""
import contextlib
import functools
import math
import time

import numpy


def Mark(message, id_color=-1):
    """cupy.cuda.nvtx.Mark: an instantaneous marker."""


def MarkC(message, color=0):
    """cupy.cuda.nvtx.MarkC: a marker of an ARGB color."""


def RangePush(message, id_color=-1):
    """cupy.cuda.nvtx.RangePush: opens a nested range."""


def RangePushC(message, color=0):
    """cupy.cuda.nvtx.RangePushC: opens a nested range of an ARGB color."""


def RangePop():
    """cupy.cuda.nvtx.RangePop: closes the innermost range."""


def start():
    """cupy.cuda.profiler.start (cudaProfilerStart)."""


def stop():
    """cupy.cuda.profiler.stop (cudaProfilerStop)."""


@contextlib.contextmanager
def profile():
    """cupyx.profiler.profile: start() ... stop() around a block."""
    start()
    try:
        yield
    finally:
        stop()


class time_range:
    """cupyx.profiler.time_range(message=None, color_id=None,
    argb_color=None, sync=False): an NVTX range around a block (a context
    manager) or around each call of a function (a decorator, named after
    it); `sync` synchronizes the device at both ends, as CuPy's."""

    def __init__(self, message=None, color_id=None, argb_color=None,
                 sync=False):
        self.message, self.color_id = message, color_id
        self.argb_color, self.sync = argb_color, sync

    def __enter__(self):
        self._sync()
        if self.argb_color is not None:
            RangePushC(self.message, self.argb_color)
        else:
            RangePush(self.message, -1 if self.color_id is None
                      else self.color_id)
        return self

    def __exit__(self, *exc):
        self._sync()
        RangePop()

    def _sync(self):
        if self.sync:
            from fake_cupy import _runtime
            _runtime.synchronize_all()

    def __call__(self, func):
        if self.message is None:
            self.message = func.__name__

        @functools.wraps(func)
        def inner(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return inner


class _PerfCaseResult:
    """What benchmark returns: `cpu_times` (seconds, one per repeat) and
    `gpu_times` (seconds, one row per device), printed as CuPy prints it."""

    def __init__(self, name, ts, devices):
        self.name = name
        self._ts = ts
        self._devices = devices

    @property
    def cpu_times(self):
        return self._ts[0]

    @property
    def gpu_times(self):
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name, t):
        t_us = t * 1e6
        s = "    {}:{:9.03f} us".format(device_name, t_us.mean())
        if t.size > 1:
            s += "   +/-{:6.03f} (min:{:9.03f} / max:{:9.03f}) us".format(
                t_us.std(), t_us.min(), t_us.max())
        return s

    def to_str(self, show_gpu=False):
        results = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            for i, d in enumerate(self._devices):
                results.append(self._to_str_per_item(
                    "GPU-{}".format(d), self._ts[1 + i]))
        return "{:<20s}:{}".format(self.name, " ".join(results))

    def __str__(self):
        return self.to_str(show_gpu=True)

    __repr__ = __str__


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None,
              n_warmup=10, max_duration=math.inf, devices=None):
    """cupyx.profiler.benchmark: calls func(*args, **kwargs) n_warmup times,
    then up to n_repeat times (stopping once max_duration seconds have
    passed), timing each call on the CPU and between two events recorded
    on each device's current stream."""
    from fake_cupy import _runtime
    from fake_cupy.cuda import Device, Event, get_elapsed_time
    if name is None:
        name = func.__name__
    if devices is None:
        devices = (_runtime.current_device_id(),)
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int):
        raise ValueError("`n_repeat` should be an integer.")
    if not isinstance(name, str):
        raise ValueError("`name` should be a string.")
    if not isinstance(n_warmup, int):
        raise ValueError("`n_warmup` should be an integer.")
    if not isinstance(devices, tuple):
        raise ValueError("`devices` should be of tuple type")
    for _ in range(n_warmup):
        func(*args, **kwargs)
    events = []
    for d in devices:
        with Device(d):
            events.append((Event(), Event()))
    cpu_times, gpu_times = [], [[] for _ in devices]
    duration = 0.0
    for _ in range(n_repeat):
        for d, (ev1, _) in zip(devices, events):
            with Device(d):
                ev1.record()
        t1 = time.perf_counter()
        func(*args, **kwargs)
        t2 = time.perf_counter()
        cpu_times.append(t2 - t1)
        for i, (d, (ev1, ev2)) in enumerate(zip(devices, events)):
            with Device(d):
                ev2.record()
                ev2.synchronize()
                gpu_times[i].append(get_elapsed_time(ev1, ev2) * 1e-3)
        duration += time.perf_counter() - t1
        if duration > max_duration:
            break
    ts = numpy.asarray([cpu_times] + gpu_times, dtype=numpy.float64)
    return _PerfCaseResult(name, ts, devices)
