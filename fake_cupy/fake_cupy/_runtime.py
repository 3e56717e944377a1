"""Devices, streams, events and the launch queue of the fake CuPy.

Launches run at once by default. In deferred mode (CUEMU_ASYNC=deferred, or
fake_cupy.cuda.set_async_mode("deferred")) each launch is queued on its
stream and runs at the next synchronization point, as a GPU runs it later;
that mode also runs the lifetime checker:

- an operand whose last reference is dropped while a launch on a stream
  other than its allocation stream still uses it is reported (LifetimeError
  at the next synchronization), with the shape, the kernel, the stream and
  the launch's call site (on its own stream it is safe: the pool hands the
  block out again only to that stream's later work, as CuPy's does);
- a launch that uses an array written by a launch on another stream that it
  is not ordered after raises LifetimeError at the launch. Order is kept as
  vector clocks (per stream, per event record and for the host): the legacy
  null stream and the blocking streams of a device wait for each other,
  wait_event merges the event's clock, and synchronizations merge into the
  host's, which every later launch inherits.

Kernel failures are kept and raised, as CUDADriverError, at the next
synchronization (Stream/Event/Device.synchronize, ndarray.get, ...), and
never end the Python process.
"""
import itertools
import os
import weakref
import threading
import time

from fake_cupy import _errors

_lock = threading.RLock()
_local = threading.local()
_mode_override = None
_pending_errors = []
_launch_seq = itertools.count(1)


def device_count():
    """Emulated devices: CUEMU_DEVICE_COUNT (default 1)."""
    try:
        return max(1, int(os.environ.get("CUEMU_DEVICE_COUNT", "1")))
    except ValueError:
        return 1


def total_memory():
    """The emulated device's memory (libcuemu's device model)."""
    from cuemu import _device
    return _device.get_property("totalGlobalMem")


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
    """(major, minor) of the emulated device (libcuemu's device model)."""
    from cuemu import _device
    return _device.get_property("major"), _device.get_property("minor")


class _Queue:
    """The work of one stream: launches and event records, in order, and
    the stream's vector clock."""

    def __init__(self, key):
        self.key = key
        self.items = []
        self.last_seq = 0        # sequence number of the last item enqueued
        self.done_seq = 0        # sequence number of the last item run
        # Vector clock: stream key -> the sequence number of that stream's
        # last item that the next item of this stream is ordered after.
        self.clock = {}


# Vector clocks of what the host has waited for (stream and event
# synchronizations), of every item issued, and per device of the work of
# its blocking streams (which a legacy null-stream item waits for).
_host_clock = {}
_issued = {}
_blocking_clocks = {}


def _merge(into, clock):
    for key, seq in clock.items():
        if seq > into.get(key, 0):
            into[key] = seq


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
        self._queue = _queue_for(self.key)
        self._saved = []

    @property
    def key(self):
        """(device, stream): the legacy null stream is 0 whether it is
        named by 0 or by cudaStreamLegacy (1)."""
        return (self.device_id, 0 if self._null else self.ptr)

    def use(self):
        _local.streams = getattr(_local, "streams", {})
        _local.streams[current_device_id()] = self
        return self

    def synchronize(self):
        """Runs the queued work (of every stream, in submission order: one
        valid schedule that includes what this stream waits for) and raises
        the first error left by a kernel or the lifetime checker. The host
        has then waited for everything this stream's work is ordered
        after."""
        drain()
        with _lock:
            _merge(_host_clock, self._queue.clock)
            _retire_dead_streams()
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
        """Makes later work of this stream wait for `event` (nothing when
        the event was never recorded, as cudaStreamWaitEvent)."""
        with _lock:
            if event._clock is not None:
                _merge(self._queue.clock, event._clock)

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


# cudaStreamLegacy and cudaStreamPerThread.
STREAM_LEGACY = 1
STREAM_PER_THREAD = 2


class Stream(BaseStream):
    """cupy.cuda.Stream(null=False, non_blocking=False, ptds=False,
    priority=None). The null stream's ptr is 0; a per-thread default stream
    (ptds=True) has ptr 2, cudaStreamPerThread, and is ordered with the
    legacy null stream like a blocking stream. null=True wins over ptds.
    Where the fake differs: every thread shares one per-thread default
    stream."""

    null = None  # the null stream of device 0, set by fake_cupy.cuda
    ptds = None  # the per-thread default stream, set by fake_cupy.cuda

    def __init__(self, null=False, non_blocking=False, ptds=False,
                 priority=None):
        self.priority = priority or 0
        ptr = None if null or not ptds else STREAM_PER_THREAD
        self._init(null, non_blocking and not null, ptr=ptr)


class ExternalStream(BaseStream):
    """cupy.cuda.ExternalStream: a stream known by its pointer (0 and
    cudaStreamLegacy name the legacy null stream)."""

    def __init__(self, ptr, device_id=-1):
        self._init(ptr in (0, STREAM_LEGACY), False, ptr=ptr)


# Live queues by stream key; a queue lives as long as a stream, an event or
# queued work refers to it.
_queues = weakref.WeakValueDictionary()


def _queue_for(key):
    with _lock:
        q = _queues.get(key)
        if q is None:
            q = _Queue(key)
            _queues[key] = q
        return q


def get_current_stream(device_id=None):
    """cupy.cuda.get_current_stream(): the stream in use (the null stream
    unless one was made current)."""
    if device_id is None:
        device_id = current_device_id()
    streams = getattr(_local, "streams", None)
    if streams and device_id in streams:
        return streams[device_id]
    return null_stream(device_id)


def null_stream(device_id):
    """The legacy null stream of a device."""
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
        self._queue = None
        self._seq = 0
        self._clock = None       # the vector clock of the record
        self._time = None

    def record(self, stream=None):
        if stream is None:
            stream = get_current_stream()
        with _lock:
            self._time = None
            self._queue = stream._queue
            _enqueue(stream, _Record(self))
            self._seq = stream._queue.last_seq
            self._clock = dict(stream._queue.clock)

    def synchronize(self):
        """Waits for the recorded work: the host has then waited for
        everything the record is ordered after."""
        drain()
        with _lock:
            if self._clock is not None:
                _merge(_host_clock, self._clock)
                _retire_dead_streams()
        raise_pending()

    @property
    def done(self):
        if self._queue is None:
            return True
        return self._queue.done_seq >= self._seq

    def query(self):
        return self.done

    def __repr__(self):
        return f"<Event {self.ptr:#x}>"


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events, as cudaEventElapsedTime."""
    for e in (start_event, end_event):
        if e.disable_timing:
            raise _errors.CUDARuntimeError(400)
        if e._queue is None:
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


class _HostWork:
    """A copy or memset queued on a stream (MemoryPointer.*_async)."""

    def __init__(self, fn):
        self.fn = fn
        self.seq = 0

    def run(self):
        self.fn()


def enqueue_host_work(stream, fn):
    """Queues `fn` on `stream`, in order with its kernels."""
    with _lock:
        _enqueue(stream, _HostWork(fn))


# The queues holding items (by key), so that draining (before every host
# operation on an array) costs nothing when nothing is queued.
_nonempty = {}


def _order(stream, q):
    """Merges into a stream's clock what its next item is ordered after:
    what the host has waited for, and the implicit synchronization of the
    legacy null stream (a null-stream item waits for the work of every
    blocking stream of its device; a blocking stream's item waits for the
    null stream's work). Non-blocking streams are not ordered with the
    null stream."""
    _merge(q.clock, _host_clock)
    if stream._null:
        _merge(q.clock, _blocking_clocks.get(stream.device_id, {}))
    elif not stream._non_blocking:
        null_q = _queues.get((stream.device_id, 0))
        if null_q is not None:
            _merge(q.clock, null_q.clock)


def _enqueue(stream, item):
    """Queues an item; in immediate mode it runs at once, and, as it is
    finished before the host goes on, the clocks are left alone."""
    q = stream._queue
    item.seq = next(_launch_seq)
    q.last_seq = item.seq
    q.items.append(item)
    _nonempty[q.key] = q
    if async_mode() != "deferred":
        drain()
        return
    _order(stream, q)
    q.clock[q.key] = item.seq
    _issued[q.key] = item.seq
    if not stream._null and not stream._non_blocking:
        _merge(_blocking_clocks.setdefault(stream.device_id, {}), q.clock)


def drain():
    """Runs every queued item, in submission order (a valid GPU schedule).
    Items record their own failures (add_error); nothing is raised here."""
    if not _nonempty:
        return
    with _lock:
        queues = list(_nonempty.values())
        _nonempty.clear()
        items = [it for q in queues for it in q.items]
        for q in queues:
            q.items = []
        items.sort(key=lambda it: it.seq)
        for it in items:
            it.run()
        for q in queues:
            q.done_seq = q.last_seq


# Streams that are gone and whose work the host has waited for: stream key
# -> the sequence number of its last item. Everything issued later is
# ordered after that work, so these keys leave every clock.
_retired = {}


def synchronize_all():
    """cudaDeviceSynchronize: runs everything and raises the first error."""
    drain()
    with _lock:
        _merge(_host_clock, _issued)
        _retire_dead_streams()
    raise_pending()


def _retire_dead_streams():
    """Moves the streams that no longer exist, and whose work the host has
    waited for, out of the clocks, which would otherwise grow with every
    stream ever made."""
    dead = [key for key, seq in _issued.items()
            if key not in _queues and _host_clock.get(key, 0) >= seq]
    if not dead:
        return
    clocks = [_host_clock] + list(_blocking_clocks.values()) + \
        [q.clock for q in _queues.values()]
    for key in dead:
        _retired[key] = _issued.pop(key)
        for clock in clocks:
            clock.pop(key, None)


def _ordered_after(q, key, seq):
    """Whether the next item of queue q is ordered after item `seq` of the
    stream `key`."""
    return max(q.clock.get(key, 0), _retired.get(key, 0)) >= seq


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


# Memory id -> (stream key, seq, kernel name, weak Memory) of the last
# queued write, and -> {stream key: (seq, kernel name, weak Memory)} of the
# last queued read on each stream.
_last_write = {}
_last_reads = {}


def _unordered(q, mem, launch, shape, index, written):
    """The LifetimeError for the first earlier use of `mem` on another
    stream that this launch is not ordered after (a write before any use,
    or a read before a write), or None."""
    uses = []
    last = _last_write.get(id(mem))
    if last is not None:
        uses.append(("written", last))
    if written:
        for key, (seq, reader, ref) in _last_reads.get(id(mem), {}).items():
            uses.append(("read", (key, seq, reader, ref)))
    for what, (key, seq, other, ref) in uses:
        if ref() is not mem or key == q.key or _ordered_after(q, key, seq):
            continue
        return _errors.LifetimeError(
            f"array of shape {shape} {what} by kernel {other} on stream "
            f"{key[1]:#x} is {'written' if what == 'read' else 'used'} by "
            f"kernel {launch.kernel_name} on stream {launch.stream.ptr:#x} "
            f"(argument {index}) without an event or stream wait in between "
            f"(launch at {launch.callsite})")
    return None


def check_and_enqueue(launch):
    """Checks a launch's operands against other streams' uses (a use after
    a write, a write after a read), then queues it (or runs it at once in
    immediate mode)."""
    stream = launch.stream
    with _lock:
        deferred = async_mode() == "deferred"
        if deferred:
            q = stream._queue
            _order(stream, q)
            for ref, shape, written, index in launch.operands:
                error = _unordered(q, ref(), launch, shape, index, written)
                if error is not None:
                    raise error
            for ref, shape, _written, _index in launch.operands:
                mem = ref()
                if mem.pending is None:
                    mem.pending = {}
                mem.pending[launch] = shape
        _enqueue(stream, launch)
        if deferred:
            key = stream._queue.key
            for ref, _shape, written, _index in launch.operands:
                mem = ref()
                if mem is None:
                    continue
                if written:
                    _last_write[id(mem)] = (key, launch.seq,
                                            launch.kernel_name, ref)
                    _last_reads.pop(id(mem), None)
                else:
                    reads = _last_reads.setdefault(id(mem), {})
                    reads[key] = (launch.seq, launch.kernel_name, ref)


def memory_freed(mem):
    """Called when `mem` is freed; reports the queued launches still using
    it on a stream other than the one it was allocated on. As CuPy's pool
    keeps a freed block for later allocations on its allocation stream
    only, work queued on that stream runs before any reuse; on another
    stream the block may be handed out and overwritten while the launch
    still waits. Returns True when the block must not be reused."""
    if not mem.pending and id(mem) not in _last_write \
            and id(mem) not in _last_reads:
        return False
    with _lock:
        launches = [(l, s) for l, s in (mem.pending or {}).items()
                    if not l.done and l.stream._queue.key != mem.stream_key]
        for launch, shape in launches:
            _pending_errors.append(_errors.LifetimeError(
                f"array of shape {shape} passed to kernel {launch.kernel_name} "
                f"on stream {launch.stream.ptr:#x} was freed before the kernel "
                f"ran (launch at {launch.callsite})"))
        _last_write.pop(id(mem), None)
        _last_reads.pop(id(mem), None)
        return bool(launches)
