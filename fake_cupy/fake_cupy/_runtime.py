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
    """cupy.cuda.Device: an emulated device (CUEMU_DEVICE_COUNT of them).

    As CuPy's, a Device may name a device that does not exist; using it
    (use(), `with`, synchronize()) raises CUDARuntimeError
    cudaErrorInvalidDevice. `with Device(n)` saves the current device on a
    per-thread stack and restores it on exit."""

    def __init__(self, device=None):
        if device is None:
            device = current_device_id()
        elif isinstance(device, Device):
            device = device.id
        self.id = int(device)

    def _check(self):
        if not 0 <= self.id < device_count():
            raise _errors.CUDARuntimeError(101)

    def use(self):
        """Makes this device current in the calling thread; returns it."""
        self._check()
        _local.device = self.id
        return self

    def synchronize(self):
        """Waits for the device's work; raises the errors its kernels left
        (in any stream of this device), in the calling thread."""
        self._check()
        synchronize_all(self.id)

    @property
    def compute_capability(self):
        major, minor = compute_capability()
        return f"{major}{minor}"

    @property
    def pci_bus_id(self):
        self._check()
        return f"0000:{self.id:02x}:00.0"

    @classmethod
    def from_pci_bus_id(cls, pci_bus_id):
        """The device of a PCI bus id "DDDD:BB:DD.F" (cudaDeviceGetByPCIBusId:
        a malformed id is cudaErrorInvalidValue, an unknown one
        cudaErrorInvalidDevice)."""
        import re
        match = re.fullmatch(r"([0-9a-fA-F]{1,4}):([0-9a-fA-F]{1,2}):"
                             r"([0-9a-fA-F]{1,2})\.([0-9a-fA-F])",
                             str(pci_bus_id))
        if match is None:
            raise _errors.CUDARuntimeError(1)
        domain, bus, dev, func = (int(g, 16) for g in match.groups())
        if domain or dev or func or bus >= device_count():
            raise _errors.CUDARuntimeError(101)
        return cls(bus)

    @property
    def attributes(self):
        """Every device attribute the fake knows, by its CUDA name less
        the cudaDevAttr prefix, as CuPy's dict."""
        from fake_cupy.cuda import runtime
        return {name: runtime.deviceGetAttribute(code, self.id)
                for name, code in runtime._ATTRIBUTE_NAMES.items()}

    @property
    def mem_info(self):
        from fake_cupy.cuda import runtime
        with self:
            return runtime.memGetInfo()

    def __enter__(self):
        self._check()
        _stack("devices").append(current_device_id())
        _local.device = self.id
        return self

    def __exit__(self, *exc):
        _local.device = _stack("devices").pop()

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return self.id < other.id

    def __le__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return self.id <= other.id

    def __gt__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return self.id > other.id

    def __ge__(self, other):
        if not isinstance(other, Device):
            return NotImplemented
        return self.id >= other.id

    def __hash__(self):
        return hash(self.id)

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __reduce__(self):
        return (Device, (self.id,))

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


def _stack(name):
    """A per-thread stack of saved state (devices, streams per device)."""
    stacks = getattr(_local, "stacks", None)
    if stacks is None:
        stacks = _local.stacks = {}
    return stacks.setdefault(name, [])


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
        # While the stream captures (BaseStream.begin_capture): the items
        # captured, which do not run; and the status that invalidated the
        # capture (an operation not permitted while capturing), or None.
        self.capture = None
        self.capture_error = None


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
    """What Stream and ExternalStream share.

    The null stream (Stream.null) and the per-thread default stream
    (Stream.ptds) belong to no device, as CuPy's: each names the stream of
    that kind of the current device (and, for Stream.ptds, of the calling
    thread), so `Stream.null == get_current_stream()` on every device.
    Other streams belong to the device current when they were made; using
    one while another device is current raises RuntimeError, as CuPy."""

    _counter = itertools.count(1)

    def _init(self, null, non_blocking, ptr=None, ptds=False):
        self._null = null
        self._ptds = ptds and not null
        self._non_blocking = non_blocking
        if ptr is not None:
            self.ptr = ptr
        else:
            self.ptr = 0 if null else 0x7E000000 + 0x10 * next(BaseStream._counter)
        self._device_id = None if null or self._ptds else current_device_id()
        if self._device_id is not None:
            self._own_queue = _queue_for(self.key)
            if self._non_blocking:
                _nonblocking_keys.add(self.key)

    @property
    def device_id(self):
        """The stream's device (the current one for the null and the
        per-thread default stream)."""
        if self._device_id is None:
            return current_device_id()
        return self._device_id

    @property
    def key(self):
        """(device, stream): the legacy null stream is 0 whether it is
        named by 0 or by cudaStreamLegacy (1); the per-thread default
        stream is one stream per thread."""
        if self._null:
            return (current_device_id(), 0)
        if self._ptds:
            return (current_device_id(), _ptds_id())
        return (self._device_id, self.ptr)

    @property
    def _queue(self):
        if self._device_id is not None:
            return self._own_queue
        if self._ptds:
            # The calling thread's, which lives as long as the thread.
            queues = getattr(_local, "ptds_queues", None)
            if queues is None:
                queues = _local.ptds_queues = {}
            key = self.key
            q = queues.get(key)
            if q is None:
                q = queues[key] = _queue_for(key)
            return q
        return _static_queue(self.key)

    def _check_device(self):
        if self._device_id is not None and self._device_id != current_device_id():
            raise RuntimeError(
                f"The stream ({self!r}) belongs to device {self._device_id}, "
                f"but the current device is {current_device_id()}")

    def use(self):
        """Makes this stream current for the current device in the calling
        thread; returns it."""
        self._check_device()
        _current_streams()[current_device_id()] = self
        return self

    def synchronize(self):
        """Runs the queued work (of every stream, in submission order: one
        valid schedule that includes what this stream waits for) and raises,
        in the calling thread, the errors left by kernels on this stream
        (and on the streams it is ordered with: the legacy null stream's
        synchronization waits for the device's blocking streams) or by
        the lifetime checker. The host has then waited for everything this
        stream's work is ordered after. A stream that captures is
        cudaErrorStreamCaptureUnsupported, and its capture is invalidated."""
        _refuse_while_capturing(lambda q: q is self._queue)
        drain()
        with _lock:
            _merge(_host_clock, self._queue.clock)
            _retire_dead_streams()
        raise_pending(_error_scope(self))

    def begin_capture(self, mode=None):
        """Begins capturing the stream's work into a graph (end_capture):
        its launches, copies and event records are kept instead of run.
        Not on the legacy null stream, as CuPy; a stream that captures
        already is cudaErrorIllegalState. `mode` is accepted (CuPy's
        default is the relaxed mode)."""
        if self.ptr in (0, 1):
            raise RuntimeError("cannot capture on the default (legacy) stream")
        if mode is not None and mode not in (0, 1, 2):
            # cudaStreamCaptureModeGlobal, ThreadLocal, Relaxed
            raise _errors.CUDARuntimeError(1)
        with _lock:
            q = self._queue
            if q.capture is not None:
                raise _errors.CUDARuntimeError(401)
            q.capture, q.capture_error = [], None
        drain()

    def end_capture(self):
        """Ends the capture and returns the captured work as a
        cupy.cuda.Graph. A stream that does not capture is
        cudaErrorIllegalState; a capture that an operation not permitted
        during it invalidated is cudaErrorStreamCaptureInvalidated."""
        with _lock:
            q = self._queue
            if q.capture is None:
                raise _errors.CUDARuntimeError(401)
            items, error = q.capture, q.capture_error
            q.capture, q.capture_error = None, None
        if error is not None:
            raise _errors.CUDARuntimeError(901)
        return Graph(items)

    def is_capturing(self):
        """Whether the stream captures (begin_capture)."""
        return self._queue.capture is not None

    @property
    def done(self):
        q = self._queue
        return q.done_seq >= q.last_seq

    def query(self):
        return self.done

    @property
    def is_non_blocking(self):
        return self._non_blocking

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
        # CuPy passes the stream, the status (cudaSuccess here: an error
        # is raised by the synchronization instead) and the argument.
        callback(self, 0, arg)

    def launch_host_func(self, callback, arg):
        self.synchronize()
        callback(arg)

    def __cuda_stream__(self):
        """(version, address): the stream protocol CuPy implements."""
        return (0, self.ptr)

    def __enter__(self):
        """As CuPy's: the stream becomes current; the per-thread stack of
        entered streams decides what is current after the block (the
        enclosing `with`'s stream, or, after the outermost one, the
        default stream: a stream made current by use() is forgotten)."""
        self._check_device()
        device = current_device_id()
        _stack(("streams", device)).append((self, get_current_stream()))
        self.use()
        return self

    def __exit__(self, *exc):
        device = current_device_id()
        stack = _stack(("streams", device))
        stack.pop()
        _current_streams()[device] = stack[-1][0] if stack else Stream.null

    def __eq__(self, other):
        if not isinstance(other, BaseStream):
            return NotImplemented
        if self._device_id is None or other._device_id is None:
            return (self._null, self._ptds) == (other._null, other._ptds) \
                and self._device_id is other._device_id is None
        return other.key == self.key

    def __hash__(self):
        return hash((self.ptr, self._null, self._device_id))

    def __repr__(self):
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


_ptds_ids = itertools.count(0x7D000000, 0x10)


def _ptds_id():
    """The calling thread's per-thread default stream, as a stream key."""
    n = getattr(_local, "ptds_id", None)
    if n is None:
        n = _local.ptds_id = next(_ptds_ids)
    return n


def _current_streams():
    streams = getattr(_local, "streams", None)
    if streams is None:
        streams = _local.streams = {}
    return streams


# The queues of the null streams (Stream.null names one per device), kept
# for the process' lifetime.
_static_queues = {}


def _static_queue(key):
    q = _static_queues.get(key)
    if q is None:
        with _lock:
            q = _static_queues.get(key)
            if q is None:
                q = _static_queues[key] = _queue_for(key)
    return q


# cudaStreamLegacy and cudaStreamPerThread.
STREAM_LEGACY = 1
STREAM_PER_THREAD = 2


class Stream(BaseStream):
    """cupy.cuda.Stream(null=False, non_blocking=False, ptds=False,
    priority=None). The null stream's ptr is 0; a per-thread default stream
    (ptds=True) has ptr 2, cudaStreamPerThread, and is ordered with the
    legacy null stream like a blocking stream. null=True wins over ptds.
    Each thread has its own per-thread default stream, as in CUDA."""

    null = None  # the null stream of device 0, set by fake_cupy.cuda
    ptds = None  # the per-thread default stream, set by fake_cupy.cuda

    def __init__(self, null=False, non_blocking=False, ptds=False,
                 priority=None):
        self.priority = priority or 0
        ptr = None if null or not ptds else STREAM_PER_THREAD
        self._init(null, non_blocking and not null, ptr=ptr, ptds=ptds)


def _from_external(cls, obj):
    """Stream.from_external(obj): a stream named by an object with the
    __cuda_stream__ protocol ((version, address)) or by an address."""
    if hasattr(obj, "__cuda_stream__"):
        protocol = obj.__cuda_stream__
        _version, ptr = protocol() if callable(protocol) else protocol
    else:
        ptr = int(obj)
    return ExternalStream(ptr)


Stream.from_external = classmethod(_from_external)


class ExternalStream(BaseStream):
    """cupy.cuda.ExternalStream: a stream known by its pointer (0 and
    cudaStreamLegacy name the legacy null stream)."""

    def __init__(self, ptr, device_id=-1):
        self._init(ptr in (0, STREAM_LEGACY), False, ptr=ptr,
                   ptds=ptr == STREAM_PER_THREAD)


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
    """cupy.cuda.get_current_stream(): the stream in use in the calling
    thread (the null stream unless one was made current)."""
    if device_id is None:
        device_id = current_device_id()
    stream = _current_streams().get(device_id)
    return stream if stream is not None else null_stream(device_id)


def null_stream(device_id=None):
    """The legacy null stream (one object naming every device's)."""
    from fake_cupy.cuda import Stream
    return Stream.null


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
        self._scope = None       # whose errors its synchronization raises
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
            self._scope = _error_scope(stream)

    def synchronize(self):
        """Waits for the recorded work: the host has then waited for
        everything the record is ordered after."""
        drain()
        with _lock:
            if self._clock is not None:
                _merge(_host_clock, self._clock)
                _retire_dead_streams()
        raise_pending(self._scope or (lambda k: False))

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

    replay = run

    def describe(self):
        return "event record"


class _HostWork:
    """A copy or memset queued on a stream (MemoryPointer.*_async)."""

    def __init__(self, fn):
        self.fn = fn
        self.seq = 0

    def run(self):
        self.fn()

    replay = run

    def describe(self):
        return "copy or memset"


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
    finished before the host goes on, the clocks are left alone. On a
    stream that captures, the item is captured instead."""
    q = stream._queue
    if q.capture is not None:
        item.captured = True
        q.capture.append(item)
        return
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


def _refuse_while_capturing(which):
    """A synchronization that a capturing stream does not permit (the
    stream's own, the device's, a blocking copy's): each capture that
    `which` (a predicate on queues) selects is invalidated, and the call is
    cudaErrorStreamCaptureUnsupported, as CUDA's."""
    with _lock:
        capturing = [q for q in _queues.values()
                     if q.capture is not None and which(q)]
        for q in capturing:
            q.capture_error = 900
    if capturing:
        raise _errors.CUDARuntimeError(900)


def synchronize_all(device_id=None, scope=None):
    """cudaDeviceSynchronize: runs everything, and raises in the calling
    thread the errors left on the device `device_id` (the current one when
    None, every device when "all"), or those `scope` selects (a predicate
    on stream keys). While a stream captures, cudaErrorStreamCaptureUnsupported
    (its capture invalidated)."""
    _refuse_while_capturing(lambda q: True)
    drain()
    with _lock:
        _merge(_host_clock, _issued)
        _retire_dead_streams()
    if scope is None:
        if device_id is None:
            device_id = current_device_id()
        if device_id != "all":
            scope = lambda key, d=device_id: key[0] == d
    raise_pending(scope)


def synchronize_current():
    """What ndarray.get() and other blocking copies wait for: everything
    (the host order the lifetime checker keeps), raising the errors of the
    current stream (see BaseStream.synchronize for which streams that
    includes)."""
    synchronize_all(scope=_error_scope(get_current_stream()))


# Stream keys of non-blocking streams (not ordered with the legacy null
# stream, so its synchronization does not report their errors).
_nonblocking_keys = set()


def _error_scope(stream):
    """Which stream keys' errors a synchronization with `stream` reports:
    its own, the legacy null stream's for a blocking stream, and for the
    legacy null stream those of every blocking stream of its device."""
    key = stream.key
    device = key[0]
    if stream._null:
        return lambda k: k[0] == device and k not in _nonblocking_keys
    if stream._non_blocking:
        return lambda k: k == key
    return lambda k: k == key or k == (device, 0)


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
        _nonblocking_keys.discard(key)
        _retired[key] = _issued.pop(key)
        for clock in clocks:
            clock.pop(key, None)


def _ordered_after(q, key, seq):
    """Whether the next item of queue q is ordered after item `seq` of the
    stream `key`."""
    return max(q.clock.get(key, 0), _retired.get(key, 0)) >= seq


def add_error(exc, key):
    """Keeps an error of the stream `key` until a synchronization with
    that stream (or its device) raises it."""
    with _lock:
        _pending_errors.append((key, exc))


def raise_pending(scope=None):
    """Raises the first error left on the streams `scope` selects (a
    predicate on stream keys; every stream when None) and forgets those
    errors. None is lost: the later ones are attached to the raised one
    (`other_errors`, and a note naming them), as each synchronization
    with their stream would otherwise report them one by one."""
    with _lock:
        if not _pending_errors:
            return
        mine = [e for k, e in _pending_errors if scope is None or scope(k)]
        if not mine:
            return
        _pending_errors[:] = [(k, e) for k, e in _pending_errors
                              if not (scope is None or scope(k))]
    first = mine[0]
    first.other_errors = mine[1:]
    if len(mine) > 1 and hasattr(first, "add_note"):
        first.add_note(f"{len(mine) - 1} more error(s) on the same "
                       f"stream(s): " + "; ".join(str(e) for e in mine[1:4])
                       + (" ..." if len(mine) > 4 else ""))
    raise first


def clear_pending():
    with _lock:
        errors = [e for _k, e in _pending_errors]
        del _pending_errors[:]
    return errors


# ---- Graphs (stream capture) ------------------------------------------------

class _Replay:
    """A graph's launch on a stream: its captured items, run again in the
    order they were captured."""

    def __init__(self, items):
        self.items = items
        self.seq = 0

    def run(self):
        for item in self.items:
            item.replay()


class Graph:
    """cupy.cuda.Graph: the work a stream captured (BaseStream.end_capture),
    which launch() runs again on any stream, as often as asked."""

    def __init__(self, items):
        self._items = list(items)

    def launch(self, stream=None):
        """Queues the graph's work on `stream` (the current stream when
        None), in order with the stream's other work."""
        if stream is None:
            stream = get_current_stream()
        with _lock:
            _enqueue(stream, _Replay(self._items))

    def upload(self, stream=None):
        """Nothing to upload: the graph's work runs where it is."""

    def debug_dot_str(self, flags=0):
        """The graph in DOT: one node per captured item, in a chain."""
        lines = ["digraph cupy_graph {"]
        for i, item in enumerate(self._items):
            lines.append(f'  n{i} [label="{item.describe()}"];')
            if i:
                lines.append(f"  n{i - 1} -> n{i};")
        lines.append("}")
        return "\n".join(lines) + "\n"


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
        self.stream_key = stream.key
        self.callsite = callsite
        self._run = run
        # (weak Memory, shape, written, argument index) per array operand.
        self.operands = [(weakref.ref(m), shape, w, i)
                         for m, shape, w, i in operands]
        self.blocks = [op[0].block for op in operands]
        self.done = False
        self.seq = 0

    def replay(self):
        """Runs a captured launch again (a graph's launch): its operands'
        state belongs to the launches made on streams only."""
        self._run()

    def describe(self):
        return f"kernel {self.kernel_name}"

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
    immediate mode). A launch that a stream captures is kept in its graph,
    unchecked."""
    stream = launch.stream
    with _lock:
        if stream._queue.capture is not None:
            _enqueue(stream, launch)
            return
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
                    if not l.done and l.stream_key != mem.stream_key]
        for launch, shape in launches:
            _pending_errors.append((launch.stream_key, _errors.LifetimeError(
                f"array of shape {shape} passed to kernel {launch.kernel_name} "
                f"on stream {launch.stream.ptr:#x} was freed before the kernel "
                f"ran (launch at {launch.callsite})")))
        _last_write.pop(id(mem), None)
        _last_reads.pop(id(mem), None)
        return bool(launches)
