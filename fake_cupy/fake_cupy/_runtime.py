"""Devices, streams, events and the launch queue of the fake CuPy.

Launches run at once by default. In deferred mode (CUEMU_ASYNC=deferred, or
fake_cupy.cuda.set_async_mode("deferred")) each launch is queued on its
stream and runs at the next synchronization point, as a GPU runs it later;
that mode also runs the lifetime checker:

- an operand whose last reference is dropped while a launch that uses it is
  still queued is reported (LifetimeError at the next synchronization), with
  the shape, the kernel, the stream and the launch's call site;
- a launch that uses an array written by a launch on another stream, with no
  event wait, stream synchronization or device synchronization in between,
  raises LifetimeError at the launch.

Kernel failures are kept and raised, as CUDADriverError, at the next
synchronization (Stream/Event/Device.synchronize, ndarray.get, ...), and
never end the Python process.
"""
import itertools
import os
import threading
import time

from fake_cupy import _errors

_lock = threading.RLock()
_local = threading.local()
_mode_override = None
_pending_errors = []
_launch_seq = itertools.count(1)
_host_known = {}     # stream key -> last sequence number the host waited for


def device_count():
    """Emulated devices: CUEMU_DEVICE_COUNT (default 1)."""
    try:
        return max(1, int(os.environ.get("CUEMU_DEVICE_COUNT", "1")))
    except ValueError:
        return 1


def total_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 16 << 30


def async_mode():
    """"deferred" or "immediate"."""
    if _mode_override is not None:
        return _mode_override
    return "deferred" if os.environ.get("CUEMU_ASYNC") == "deferred" \
        else "immediate"


def set_async_mode(mode):
    """Selects "deferred" or "immediate" launches (None: follow
    CUEMU_ASYNC). Queued work is run first."""
    global _mode_override
    if mode not in (None, "deferred", "immediate"):
        raise ValueError(f"async mode must be 'deferred', 'immediate' or None, not {mode!r}")
    drain()
    _mode_override = mode


def current_device_id():
    return getattr(_local, "device", 0)


class Device:
    """cupy.cuda.Device: an emulated device (CUEMU_DEVICE_COUNT of them)."""

    def __init__(self, device=None):
        if device is None:
            device = current_device_id()
        elif isinstance(device, Device):
            device = device.id
        device = int(device)
        if not 0 <= device < device_count():
            raise _errors.CUDARuntimeError(101)
        self.id = device
        self._saved = []

    def use(self):
        _local.device = self.id

    def synchronize(self):
        synchronize_all()

    @property
    def compute_capability(self):
        major, minor = compute_capability()
        return f"{major}{minor}"

    @property
    def attributes(self):
        from fake_cupy.cuda import runtime
        props = runtime.getDeviceProperties(self.id)
        return {"MaxThreadsPerBlock": props["maxThreadsPerBlock"],
                "MultiProcessorCount": props["multiProcessorCount"],
                "WarpSize": props["warpSize"],
                "MaxSharedMemoryPerBlock": props["sharedMemPerBlock"],
                "MaxSharedMemoryPerBlockOptin": props["sharedMemPerBlockOptin"]}

    @property
    def mem_info(self):
        from fake_cupy.cuda import runtime
        return runtime.memGetInfo()

    def __enter__(self):
        self._saved.append(current_device_id())
        self.use()
        return self

    def __exit__(self, *exc):
        _local.device = self._saved.pop()

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __int__(self):
        return self.id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


def compute_capability():
    spec = os.environ.get("CUEMU_DEVICE", "")
    for item in spec.split(","):
        key, _, value = item.partition("=")
        if key.strip() == "sm" and value.strip().isdigit():
            n = int(value)
            return n // 10, n % 10
    return 9, 0


class _Queue:
    """The work of one stream: launches and event records, in order."""

    def __init__(self):
        self.items = []
        self.last_seq = 0        # sequence number of the last item enqueued
        self.done_seq = 0        # sequence number of the last item run
        self.known = {}          # other stream key -> sequence it waited for


class BaseStream:
    """What Stream and ExternalStream share."""

    _counter = itertools.count(1)

    def _init(self, null, non_blocking, ptr=None):
        self._null = null
        self._non_blocking = non_blocking
        if ptr is not None:
            self.ptr = ptr
        else:
            self.ptr = 0 if null else 0x7E000000 + 0x10 * next(BaseStream._counter)
        self.device_id = current_device_id()
        self._queue = _queue_for(self)
        self._saved = []

    @property
    def key(self):
        return (self.device_id, self.ptr)

    def use(self):
        _local.streams = getattr(_local, "streams", {})
        _local.streams[current_device_id()] = self
        return self

    def synchronize(self):
        """Runs the queued work (of every stream, in submission order: one
        valid schedule that includes what this stream waits for) and raises
        the first error left by a kernel or the lifetime checker."""
        drain()
        with _lock:
            _host_known[self.key] = self._queue.last_seq
        raise_pending()

    @property
    def done(self):
        return self._queue.done_seq >= self._queue.last_seq

    def query(self):
        return self.done

    def record(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        """Makes later work of this stream wait for `event`."""
        with _lock:
            if event._stream_key is not None:
                known = self._queue.known
                known[event._stream_key] = max(known.get(event._stream_key, 0),
                                               event._seq)
                for k, v in event._known.items():
                    known[k] = max(known.get(k, 0), v)

    def add_callback(self, callback, arg):
        self.synchronize()
        callback(self, None, arg)

    def launch_host_func(self, callback, arg):
        self.synchronize()
        callback(arg)

    def __enter__(self):
        self._saved.append(get_current_stream())
        self.use()
        return self

    def __exit__(self, *exc):
        self._saved.pop().use()

    def __eq__(self, other):
        return isinstance(other, BaseStream) and other.key == self.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


class Stream(BaseStream):
    """cupy.cuda.Stream(null=False, non_blocking=False, ptds=False,
    priority=None). The null stream's ptr is 0."""

    null = None  # the null stream of device 0, set by fake_cupy.cuda

    def __init__(self, null=False, non_blocking=False, ptds=False,
                 priority=None):
        if null and ptds:
            raise ValueError("null and ptds cannot be set at the same time")
        self.priority = priority or 0
        self._init(null, non_blocking, ptr=1 if ptds else None)


class ExternalStream(BaseStream):
    """cupy.cuda.ExternalStream: a stream known by its pointer."""

    def __init__(self, ptr, device_id=-1):
        self._init(ptr == 0, False, ptr=ptr)


_queues = {}


def _queue_for(stream):
    with _lock:
        q = _queues.get(stream.key)
        if q is None:
            q = _queues[stream.key] = _Queue()
        return q


def get_current_stream(device_id=None):
    """cupy.cuda.get_current_stream(): the stream in use (the null stream
    unless one was made current)."""
    if device_id is None:
        device_id = current_device_id()
    streams = getattr(_local, "streams", None)
    if streams and device_id in streams:
        return streams[device_id]
    null = _null_streams.get(device_id)
    if null is None:
        with Device(device_id):
            null = _null_streams[device_id] = Stream(null=True)
    return null


_null_streams = {}


class Event:
    """cupy.cuda.Event(block=False, disable_timing=False, interprocess=False)."""

    _counter = itertools.count(1)

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess and not disable_timing:
            raise ValueError("Timing must be disabled for interprocess events")
        self.block = block
        self.disable_timing = disable_timing
        self.interprocess = interprocess
        self.ptr = 0x7F000000 + 0x10 * next(Event._counter)
        self._stream_key = None
        self._seq = 0
        self._known = {}
        self._time = None

    def record(self, stream=None):
        if stream is None:
            stream = get_current_stream()
        with _lock:
            self._stream_key = stream.key
            self._time = None
            self._known = dict(stream._queue.known)
            _enqueue(stream, _Record(self))
            self._seq = stream._queue.last_seq

    def synchronize(self):
        drain()
        with _lock:
            if self._stream_key is not None:
                _host_known[self._stream_key] = max(
                    _host_known.get(self._stream_key, 0), self._seq)
        raise_pending()

    @property
    def done(self):
        if self._stream_key is None:
            return True
        q = _queues[self._stream_key]
        return q.done_seq >= self._seq

    def query(self):
        return self.done

    def __repr__(self):
        return f"<Event {self.ptr:#x}>"


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events, as cudaEventElapsedTime."""
    for e in (start_event, end_event):
        if e.disable_timing:
            raise _errors.CUDARuntimeError(400)
        if e._stream_key is None:
            raise _errors.CUDARuntimeError(400)
        if e._time is None:
            raise _errors.CUDARuntimeError(600)
    return (end_event._time - start_event._time) * 1000.0


class _Record:
    """An event record in a stream's queue."""

    def __init__(self, event):
        self.event = event
        self.seq = 0

    def run(self):
        self.event._time = time.perf_counter()


# Keys of the queues holding items, so that draining (before every host
# operation on an array) costs nothing when nothing is queued.
_nonempty = set()


def _enqueue(stream, item):
    q = stream._queue
    item.seq = next(_launch_seq)
    q.last_seq = item.seq
    q.items.append(item)
    _nonempty.add(stream.key)
    _order_with_null_stream(stream, q)
    if async_mode() != "deferred":
        drain()


def _order_with_null_stream(stream, q):
    """Blocking streams and the legacy null stream are ordered with each
    other; record what each has implicitly waited for."""
    null_key = (stream.device_id, 0)
    if stream._null:
        for key, other in _queues.items():
            if key != null_key and key[0] == stream.device_id:
                q.known[key] = max(q.known.get(key, 0), other.last_seq)
    elif not stream._non_blocking and null_key in _queues:
        q.known[null_key] = max(q.known.get(null_key, 0),
                                _queues[null_key].last_seq)


def drain():
    """Runs every queued item, in submission order (a valid GPU schedule).
    Items record their own failures (add_error); nothing is raised here."""
    if not _nonempty:
        return
    with _lock:
        queues = [_queues[key] for key in _nonempty]
        _nonempty.clear()
        items = [it for q in queues for it in q.items]
        for q in queues:
            q.items = []
        items.sort(key=lambda it: it.seq)
        for it in items:
            it.run()
        for q in queues:
            q.done_seq = q.last_seq


def synchronize_all():
    """cudaDeviceSynchronize: runs everything and raises the first error."""
    drain()
    with _lock:
        for key, q in _queues.items():
            _host_known[key] = q.last_seq
    raise_pending()


def add_error(exc):
    with _lock:
        _pending_errors.append(exc)


def raise_pending():
    """Raises (and forgets) the first error left since the last call."""
    with _lock:
        if not _pending_errors:
            return
        first = _pending_errors[0]
        del _pending_errors[:]
    raise first


def clear_pending():
    with _lock:
        errors = list(_pending_errors)
        del _pending_errors[:]
    return errors


# ---- The lifetime checker --------------------------------------------------

class Launch:
    """A queued kernel launch (see fake_cupy._kernel). It refers to its
    operands' Memory objects weakly, so that dropping the last reference to
    an operand is seen, and keeps their blocks alive, so that the late
    kernel still writes into valid (if leaked) memory."""

    def __init__(self, kernel_name, stream, callsite, run, operands):
        import weakref
        self.kernel_name = kernel_name
        self.stream = stream
        self.callsite = callsite
        self._run = run
        # (weak Memory, shape, written, argument index) per array operand.
        self.operands = [(weakref.ref(m), shape, w, i)
                         for m, shape, w, i in operands]
        self.blocks = [op[0].block for op in operands]
        self.done = False
        self.seq = 0

    def run(self):
        try:
            self._run()
        finally:
            self.done = True
            for ref, _shape, _written, _index in self.operands:
                mem = ref()
                if mem is not None and mem.pending:
                    mem.pending.pop(self, None)
            self.operands = []
            self.blocks = []


# Memory id -> (stream key, seq, kernel name) of the last queued write.
_last_write = {}


def check_and_enqueue(launch):
    """Checks a launch's operands against other streams' writes, then queues
    it (or runs it at once in immediate mode)."""
    stream = launch.stream
    with _lock:
        deferred = async_mode() == "deferred"
        if deferred:
            q = stream._queue
            _order_with_null_stream(stream, q)
            for ref, shape, written, index in launch.operands:
                mem = ref()
                last = _last_write.get(id(mem))
                if last is None:
                    continue
                key, seq, writer, ref = last
                if ref() is not mem or key == stream.key:
                    continue
                known = max(q.known.get(key, 0), _host_known.get(key, 0))
                if known < seq:
                    raise _errors.LifetimeError(
                        f"array of shape {shape} written by kernel {writer} on "
                        f"stream {key[1]:#x} is used by kernel "
                        f"{launch.kernel_name} on stream {stream.ptr:#x} "
                        f"(argument {index}) without an event or stream wait "
                        f"in between (launch at {launch.callsite})")
            for ref, shape, _written, _index in launch.operands:
                mem = ref()
                if mem.pending is None:
                    mem.pending = {}
                mem.pending[launch] = shape
        _enqueue(stream, launch)
        if deferred:
            import weakref
            for ref, _shape, written, _index in launch.operands:
                if written and ref() is not None:
                    _last_write[id(ref())] = (stream.key, launch.seq,
                                              launch.kernel_name, ref)


def memory_freed(mem):
    """Called when `mem` is freed; reports the queued launches still using
    it. Returns True when the block must not be reused."""
    if not mem.pending and id(mem) not in _last_write:
        return False
    with _lock:
        launches = [(l, s) for l, s in (mem.pending or {}).items()
                    if not l.done]
        for launch, shape in launches:
            _pending_errors.append(_errors.LifetimeError(
                f"array of shape {shape} passed to kernel {launch.kernel_name} "
                f"on stream {launch.stream.ptr:#x} was freed before the kernel "
                f"ran (launch at {launch.callsite})"))
        _last_write.pop(id(mem), None)
        return bool(launches)
