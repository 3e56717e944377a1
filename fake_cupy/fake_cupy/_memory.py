"""Host memory with stable addresses, handed out by CuPy-style pools.

Device memory of the fake is host memory: each block is a NumPy byte buffer
aligned to 256 bytes (as cudaMalloc's are), whose address never changes,
so kernels receive real pointers. A block is a mapping of its own, apart
from the interpreter's heap, between two read-only guard regions of 64 KiB:
a kernel that writes beyond its arrays' blocks faults
(CUDA_ERROR_ILLEGAL_ADDRESS, naming the kernel, thread and line) instead of
corrupting the interpreter, while reading a little past them gives zeros
without a fault, as a GPU reads the mapped memory around an allocation
(tiled kernels such as CuPy's sgemm example read past the edge and discard
what they read). The mem checker (CUEMU_FAKE_CUPY_CHECK=mem) reports both.
Past a budget of such mappings (the kernel limits a process's mappings),
further blocks are pieces of shared 16 MiB slabs, guarded at their ends
only: a write past one of them reaches its neighbour, as on a GPU. MemoryPool counts in 512-byte units and
keeps freed blocks for reuse as CuPy's pool does: one pool per device, and
in it one arena of free chunks per allocation stream, binned by size; an
allocation takes the smallest free chunk that fits (best fit, O(log n))
and splits off the rest, and a freed chunk merges with free neighbours of
the same allocation. Under the mem checker nothing is split (see
checked_layout).
PinnedMemoryPool stages host-to-device copies as CuPy's does.
"""
import bisect
import ctypes
import functools
import os
import mmap
import operator
import threading
import weakref

import numpy

from fake_cupy import _errors, _memory_hook

_UNIT = 512
_ALIGN = 256


def _round_size(size):
    return (size + _UNIT - 1) // _UNIT * _UNIT


_PAGE = mmap.PAGESIZE
_libc = ctypes.CDLL(None, use_errno=True)
_PROT_READ = 1  # <sys/mman.h>; Python's mmap module does not name it
_GUARD = 64 * 1024
_libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)


# The packages whose frames are not the user's line that made an array:
# the fake's own, cuemu's binding and NumPy's (whose functions dispatch to
# the fake through __array_function__).
_LIBRARY_DIRS = tuple(os.path.dirname(os.path.abspath(path)) + os.sep
                      for path in (__file__, numpy.__file__)) + (
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                 "cuemu") + os.sep,)


def _callers_line():
    """ "file.py:12" of the innermost frame outside the fake, cuemu and
    NumPy: where the checkers' reports say an array was allocated (rather
    than at the C code of ctypes that registers it). None when the stack
    holds no such frame."""
    import sys
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(_LIBRARY_DIRS) and not name.startswith("<frozen"):
            return f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def _max_map_count():
    try:
        with open("/proc/sys/vm/max_map_count") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 65530


# A mapping between guards is three of the kernel's memory mappings, of
# which a process has vm.max_map_count (65530 by default), shared with the
# interpreter, its libraries and the kernels' modules: past this many live
# blocks of their own, blocks come from shared guarded slabs.
_OWN_MAPPINGS_MAX = min(16384, _max_map_count() // 8)
_SLAB = 16 << 20
_mapping_lock = threading.Lock()
_own_mappings = 0
_slab = None            # [bytes of the current slab, next free offset]


_checked_depth = 0


def _checks_name_mem(checks):
    """Whether a checker list ("race,mem", "all", ...) holds memcheck."""
    words = {w.strip() for w in str(checks or "").split(",")}
    return "mem" in words or "all" in words


def checked_layout():
    """Whether new arrays must be laid out for the mem checker: when
    CUEMU_FAKE_CUPY_CHECK names it, or inside checked_allocations(). Then
    no array shares its allocation with another one (the pool splits no
    chunk, see _DevicePool.take, and pieces of shared slabs keep a gap),
    so that a write past an array's end is reported and never made in a
    neighbouring array, which the checker would otherwise take for an
    access to that array (as compute-sanitizer does without --padding)."""
    return _checked_depth > 0 or \
        _checks_name_mem(os.environ.get("CUEMU_FAKE_CUPY_CHECK"))


class checked_allocations:
    """`with checked_allocations(checks):` lays out the arrays made inside
    for the mem checker when `checks` names it (see checked_layout)."""

    def __init__(self, checks):
        self.on = _checks_name_mem(checks)

    def __enter__(self):
        global _checked_depth
        if self.on:
            with _mapping_lock:
                _checked_depth += 1
        return self

    def __exit__(self, *exc):
        global _checked_depth
        if self.on:
            with _mapping_lock:
                _checked_depth -= 1
        return False


def _guarded_mapping(span):
    """`span` bytes (a multiple of the page size) of an anonymous mapping
    between two read-only guard regions, as a NumPy byte array that keeps
    the mapping alive (its base), or None when the system refuses one."""
    try:
        # Private, as the interpreter's heap is: a shared anonymous mapping
        # (mmap's default) would let a forked child's writes reach the
        # parent's arrays.
        region = mmap.mmap(-1, span + 2 * _GUARD, flags=mmap.MAP_PRIVATE)
    except OSError:
        return None
    whole = numpy.frombuffer(region, dtype=numpy.uint8)
    base = whole.ctypes.data
    for guard in (base, base + _GUARD + span):
        if _libc.mprotect(guard, _GUARD, _PROT_READ) != 0:
            return None
    return whole[_GUARD:_GUARD + span]


def _own_mapping_freed():
    global _own_mappings
    with _mapping_lock:
        _own_mappings -= 1


def _device_bytes(size):
    """`size` bytes (256-byte aligned) of device memory, and the mapping of
    their own that holds them, (address, length) with its guards (see the
    module's docstring): then they end as close to the guard after them as
    the alignment allows; else None: they are a piece of a shared slab
    (guarded at its ends), as when the budget of mappings is spent.
    OutOfMemoryError when the system has no more."""
    global _own_mappings, _slab
    span = -(-max(size, 1) // _PAGE) * _PAGE
    with _mapping_lock:
        if _own_mappings < _OWN_MAPPINGS_MAX or span > _SLAB // 4:
            data = _guarded_mapping(span)
            if data is not None:
                _own_mappings += 1
                start = (span - size) // _ALIGN * _ALIGN
                return data[start:start + size], (
                    data.ctypes.data - _GUARD, span + 2 * _GUARD)
        rounded = -(-max(size, 1) // _ALIGN) * _ALIGN
        if _slab is None or _slab[1] + rounded > _slab[0].size:
            data = _guarded_mapping(max(_SLAB, span))
            if data is None:
                raise _errors.OutOfMemoryError(size, 0)
            _slab = [data, 0]
        data, offset = _slab
        # Under the mem checker a gap of a unit separates the pieces.
        _slab[1] += rounded + (_UNIT if checked_layout() else 0)
        return data[offset:offset + size], None


class _Block:
    """A piece of host memory of `size` bytes at a stable, aligned address,
    between guard pages (see the module's docstring). `mapping` is the
    mapping of its own that holds it, (address, length), or None."""

    __slots__ = ("buffer", "ptr", "size", "mapping", "__weakref__")

    def __init__(self, size):
        self.buffer, self.mapping = _device_bytes(size)
        self.ptr = self.buffer.ctypes.data
        self.size = size
        if self.mapping is not None:
            weakref.finalize(self, _own_mapping_freed)


def _sole_mapping(block):
    """The mapping of its own (address, length) that holds `block` (a
    _Block, or a _Chunk of one) and nothing else, or None: a chunk that is
    a part of its allocation shares the mapping with its neighbours."""
    if isinstance(block, _Chunk):
        if block.offset != 0 or block.size != block.base.size:
            return None
        block = block.base
    return getattr(block, "mapping", None)


class _AllocatedBlock:
    """A block that a MemoryPool's allocator handed out (a MemoryPointer,
    kept alive as long as the block)."""

    __slots__ = ("buffer", "ptr", "size", "source")

    def __init__(self, pointer, size):
        import ctypes
        self.source = pointer
        self.ptr = int(pointer.ptr)
        self.size = size
        raw = (ctypes.c_uint8 * max(1, size)).from_address(self.ptr)
        self.buffer = numpy.frombuffer(raw, dtype=numpy.uint8, count=size)


# Every live allocation by address, so that a pointer (from DLPack or the
# CUDA array interface) can be traced back to the memory that owns it.
_live = weakref.WeakValueDictionary()


def owner_of(ptr):
    """The live Memory whose block holds address `ptr`, or None."""
    for mem in list(_live.values()):
        if mem.ptr <= ptr < mem.ptr + max(mem.size, 1):
            return mem
    return None


class _Chunk:
    """A piece of a pool allocation (a _Block): `size` bytes at `offset`,
    linked to its neighbours in the same allocation for merging."""

    __slots__ = ("base", "offset", "size", "ptr", "buffer", "prev", "next",
                 "free", "arena", "busy", "leaked")

    def __init__(self, base, offset, size, arena):
        self.base, self.offset, self.size = base, offset, size
        self.ptr = base.ptr + offset
        self.buffer = base.buffer[offset:offset + size]
        self.prev = self.next = None
        self.free = False
        self.arena = arena       # the free list of its allocation stream
        self.busy = False        # freed while a queued launch used it
        self.leaked = False      # left to a launch queued on another stream

    def chain(self):
        """Every chunk of this chunk's allocation, in address order."""
        head = self
        while head.prev is not None:
            head = head.prev
        while head is not None:
            yield head
            head = head.next


class BaseMemory:
    """cupy.cuda.memory.BaseMemory: what every kind of memory is. A
    subclass of the user's may set only ptr, size and device_id (as CuPy's
    documentation shows for an allocator over cudaHostAlloc memory): the
    class attributes below are its defaults, and its block is a view of
    the host memory at ptr."""

    __slots__ = ()
    pool = None
    pending = None
    registered = False
    stream_key = None

    @property
    def block(self):
        ptr = getattr(self, "ptr", 0)
        if not ptr:
            return None
        cache = getattr(self, "__dict__", {})
        key = (int(ptr), int(self.size))
        if cache.get("_raw_block_key") != key:
            cache["_raw_block"] = _RawBlock(*key)
            cache["_raw_block_key"] = key
        return cache["_raw_block"]


class Memory(BaseMemory):
    """One allocation. When the last reference goes, the block returns to
    its pool; the lifetime checker is told first (see _runtime).
    `stream_key` is the stream that was current at the allocation."""

    __slots__ = ("pool", "block", "size", "device_id", "ptr", "pending",
                 "registered", "stream_key", "__weakref__")

    def __init__(self, pool, block, size, device_id, register=True,
                 stream_key=None):
        self.pool = pool
        self.block = block
        self.size = size
        self.device_id = device_id
        if stream_key is None:
            from fake_cupy import _runtime
            stream_key = _runtime.get_current_stream(device_id)._queue.key
        self.stream_key = stream_key
        self.ptr = block.ptr if block is not None else 0
        # Queued launches that use this memory (set by the runtime).
        self.pending = None
        self.registered = False
        if block is not None:
            _live[id(self)] = self
            if register:
                # The checkers see the requested size, as compute-sanitizer
                # sees a cudaMalloc'ed buffer.
                from cuemu import _binding
                self.registered = _binding.register_alloc(
                    self.ptr, size, "cupy allocation", _callers_line())
                mapping = _sole_mapping(block) if self.registered else None
                if mapping is not None:
                    # Nothing else lies in it: memcheck reports an access
                    # anywhere there past the array (its pages' rest, the
                    # guards), not only in the 256 bytes next to it.
                    _binding.register_mapping(self.ptr, *mapping)

    def free(self):
        """Returns the memory now (to its pool, for pooled memory); the
        object then holds nothing (ptr 0)."""
        self._release()
        self.block = None
        self.ptr = 0
        self.size = 0

    def __del__(self):
        self._release()

    def _release(self):
        if self.block is None:
            return
        try:
            if self.registered:
                from cuemu import _binding
                _binding.unregister_alloc(self.ptr)
            from fake_cupy import _runtime
            busy = bool(self.pending) and any(not l.done for l in self.pending)
            keep = _runtime.memory_freed(self)
            if self.pool is not None and self.block is not None:
                hook = dict(device_id=self.device_id, mem_size=self.block.size,
                            mem_ptr=self.ptr, pmem_id=id(self))
                if _memory_hook._has_memory_hooks():
                    _memory_hook.call("free_preprocess", **hook)
                self.pool._free(self.device_id, self.block, reuse=not keep,
                                busy=busy)
                if _memory_hook._has_memory_hooks():
                    _memory_hook.call("free_postprocess", **hook)
        except Exception:  # never raise from a finalizer
            pass


class PooledMemory(Memory):
    """cupy.cuda.memory.PooledMemory: a piece of a MemoryPool's block."""

    __slots__ = ()


def is_managed(mem):
    """Whether `mem` is managed memory: a ManagedMemory, or a piece of a
    pool block that malloc_managed allocated (MemoryPool(malloc_managed))."""
    if isinstance(mem, ManagedMemory):
        return True
    base = getattr(getattr(mem, "block", None), "base", None)
    source = getattr(base, "source", None)
    return source is not None and isinstance(source.mem, ManagedMemory)


class ManagedMemory(Memory):
    """cupy.cuda.memory.ManagedMemory (cudaMallocManaged): host memory in
    the fake anyway."""

    __slots__ = ()

    def prefetch(self, stream):
        pass

    def advise(self, advise, device):
        pass


class MemoryAsync(Memory):
    """cupy.cuda.memory.MemoryAsync (cudaMallocAsync on a stream);
    `stream_ref` is a weak reference to the stream, as CuPy's."""

    __slots__ = ("stream_ref",)


class _RawBlock:
    """Memory at an address that someone else owns."""

    __slots__ = ("buffer", "ptr", "size")

    def __init__(self, ptr, size):
        import ctypes
        self.ptr = int(ptr)
        self.size = int(size)
        raw = (ctypes.c_uint8 * max(1, self.size)).from_address(self.ptr)
        self.buffer = numpy.frombuffer(raw, dtype=numpy.uint8,
                                       count=self.size)


class UnownedMemory(Memory):
    """cupy.cuda.memory.UnownedMemory(ptr, size, owner, device_id=None):
    memory that `owner` keeps alive; nothing is freed here."""

    __slots__ = ("owner",)

    def __init__(self, ptr, size, owner, device_id=None):
        from fake_cupy import _runtime
        holder = owner_of(int(ptr)) if ptr else None
        if device_id is None:
            device_id = holder.device_id if holder is not None \
                else _runtime.current_device_id()
        self.owner = owner
        # CuPy never checks an array against its memory's size, and public
        # code passes a size of 0 for a pointer it got elsewhere; inside a
        # cupy allocation the memory reaches that allocation's end.
        extent = size
        if holder is not None:
            extent = max(size, holder.ptr + holder.size - int(ptr))
        Memory.__init__(self, None, _RawBlock(ptr, extent) if ptr else None,
                        size, device_id, register=False)


class MemoryPointer:
    """cupy.cuda.MemoryPointer(mem, offset): a position inside a Memory.
    Adding or subtracting an int moves it (int + pointer too)."""

    __slots__ = ("mem", "ptr", "device_id")

    def __init__(self, mem, offset=0):
        self.mem = mem
        self.ptr = (mem.ptr + offset) if mem.ptr else 0
        self.device_id = mem.device_id

    def __int__(self):
        return self.ptr

    def __index__(self):
        return self.ptr

    def __add__(self, offset):
        try:
            offset = operator.index(offset)
        except TypeError:
            return NotImplemented
        if self.ptr == 0 and offset != 0:
            raise ValueError("cannot add an offset to a null pointer")
        return MemoryPointer(self.mem, self.ptr - self.mem.ptr + offset)

    __radd__ = __add__

    def __iadd__(self, offset):
        return self + offset

    def __sub__(self, offset):
        try:
            offset = operator.index(offset)
        except TypeError:
            return NotImplemented
        return self + (-offset)

    def __isub__(self, offset):
        return self - offset

    def __bool__(self):
        return self.ptr != 0

    def __repr__(self):
        return (f"<MemoryPointer {self.ptr:#x} (device {self.device_id}, "
                f"{type(self.mem).__name__})>")

    @property
    def device(self):
        from fake_cupy import _runtime
        return _runtime.Device(self.device_id)

    # Copies and memsets run after the work queued before them: the
    # synchronous ones drain the queue first, as cudaMemcpy and cudaMemset
    # wait for earlier work; the *_async ones are queued on `stream` (the
    # current stream if None), in order with its kernels.

    def copy_from_device(self, src, size):
        """Copies `size` bytes from the MemoryPointer `src`."""
        self._now(_memmove, self.ptr, src.ptr, size)

    def copy_from_device_async(self, src, size, stream=None):
        self._queued(stream, _memmove, self.ptr, src.ptr, size)

    def copy_from_host(self, mem, size):
        """Copies `size` bytes from host address `mem` (an int or a ctypes
        pointer)."""
        self._now(_memmove, self.ptr, mem, size)

    def copy_from_host_async(self, mem, size, stream=None):
        self._queued(stream, _memmove, self.ptr, mem, size)

    def copy_from(self, mem, size):
        """From a MemoryPointer (device) or a host address."""
        if isinstance(mem, MemoryPointer):
            self.copy_from_device(mem, size)
        else:
            self.copy_from_host(mem, size)

    def copy_from_async(self, mem, size, stream=None):
        if isinstance(mem, MemoryPointer):
            self.copy_from_device_async(mem, size, stream)
        else:
            self.copy_from_host_async(mem, size, stream)

    def copy_to_host(self, mem, size):
        self._now(_memmove, mem, self.ptr, size)

    def copy_to_host_async(self, mem, size, stream=None):
        self._queued(stream, _memmove, mem, self.ptr, size)

    def memset(self, value, size):
        self._now(_memset, self.ptr, value, size)

    def memset_async(self, value, size, stream=None):
        self._queued(stream, _memset, self.ptr, value, size)

    @staticmethod
    def _now(fn, *args):
        from fake_cupy import _runtime
        _runtime.synchronize_current()
        fn(*args)

    @staticmethod
    def _queued(stream, fn, *args):
        from fake_cupy import _runtime
        if stream is None:
            stream = _runtime.get_current_stream()
        _runtime.enqueue_host_work(stream, lambda: fn(*args))


def _memmove(dst, src, size):
    import ctypes
    ctypes.memmove(dst, src, size)


def _memset(dst, value, size):
    import ctypes
    ctypes.memset(dst, value, size)


class _Arena:
    """The free chunks of one allocation stream, binned by size as CuPy's
    arena is: bin k holds the free chunks of (k + 1) * 512 bytes, and
    `index` lists the non-empty bins in increasing order, so that the best
    fit (the smallest free chunk that is large enough) is a bisection away
    and taking or returning a chunk costs O(log n). Within a bin the chunk
    freed last is taken first (CuPy takes any). Each bin is a dict used as
    an insertion-ordered set, so that a chunk merged away leaves its bin in
    O(1)."""

    __slots__ = ("bins", "index", "count")

    def __init__(self):
        self.bins = {}          # bin number -> {chunk: None}
        self.index = []         # the non-empty bins' numbers, sorted
        self.count = 0

    def add(self, chunk):
        k = chunk.size // _UNIT - 1
        members = self.bins.get(k)
        if members is None:
            members = self.bins[k] = {}
            bisect.insort(self.index, k)
        members[chunk] = None
        self.count += 1

    def remove(self, chunk):
        k = chunk.size // _UNIT - 1
        members = self.bins[k]
        del members[chunk]
        self.count -= 1
        if not members:
            del self.bins[k]
            del self.index[bisect.bisect_left(self.index, k)]

    def best_fit(self, rounded, whole_only=False):
        """The free chunk to take for `rounded` bytes, or None; with
        `whole_only`, only a chunk that is a whole allocation of exactly
        that size (see _DevicePool.take)."""
        k = rounded // _UNIT - 1
        if whole_only:
            for chunk in reversed(self.bins.get(k, ())):
                if chunk.prev is None and chunk.next is None:
                    return chunk
            return None
        i = bisect.bisect_left(self.index, k)
        if i == len(self.index):
            return None
        return next(reversed(self.bins[self.index[i]]))

    def chunks(self):
        return [c for members in self.bins.values() for c in members]


class _DevicePool:
    """One device's part of a pool (CuPy's SingleDeviceMemoryPool)."""

    def __init__(self):
        self.arenas = {}        # stream key -> _Arena
        self.used = 0
        self.total = 0
        self.limit = 0

    def take(self, arena_key, rounded):
        """The best-fitting free chunk of the arena, split to `rounded`
        bytes, or None. While the mem checker may see the memory
        (checked_layout()), only a free chunk that is a whole allocation of
        exactly `rounded` bytes is taken and nothing is split: every chunk
        handed out then ends at its allocation's guard, and a write past
        an array is reported, never made in a neighbouring one."""
        free = self.arenas.get(arena_key)
        if not free:
            return None
        chunk = free.best_fit(rounded, whole_only=checked_layout())
        if chunk is None:
            return None
        free.remove(chunk)
        if chunk.size > rounded:
            rest = _Chunk(chunk.base, chunk.offset + rounded,
                          chunk.size - rounded, chunk.arena)
            rest.free, rest.busy = True, chunk.busy
            rest.prev, rest.next = chunk, chunk.next
            if chunk.next is not None:
                chunk.next.prev = rest
            chunk.next = rest
            chunk.size = rounded
            chunk.buffer = chunk.base.buffer[chunk.offset:chunk.offset + rounded]
            free.add(rest)
        chunk.free = False
        return chunk

    def give_back(self, chunk):
        """Returns a chunk to its arena, merged with free neighbours."""
        free = self.arenas.get(chunk.arena)
        if free is None:
            free = self.arenas[chunk.arena] = _Arena()
        chunk.free = True
        for neighbour in (chunk.prev, chunk.next):
            if neighbour is None or not neighbour.free:
                continue
            free.remove(neighbour)
            first, second = (neighbour, chunk) if neighbour is chunk.prev \
                else (chunk, neighbour)
            first.size += second.size
            first.next = second.next
            if second.next is not None:
                second.next.prev = first
            first.busy = first.busy or second.busy
            first.buffer = first.base.buffer[first.offset:first.offset + first.size]
            chunk = first
        free.add(chunk)

    def release(self, arena_key=None):
        """Frees the allocations none of whose chunks is in use (of one
        arena, or of all); a chunk leaked to a queued launch does not count
        as in use, as its bytes already left the total."""
        keys = list(self.arenas) if arena_key is None else [arena_key]
        for key in keys:
            free = self.arenas.get(key)
            if free is None:
                continue
            for c in free.chunks():
                if not c.free:
                    continue       # released with an earlier chunk
                chain = list(c.chain())
                if all(x.free or x.leaked for x in chain):
                    for x in chain:
                        if x.free:
                            free.remove(x)
                            x.free = False
                            self.total -= x.size

    def n_free(self):
        return sum(free.count for free in self.arenas.values())


def _parse_limit_string(limit=None):
    """CuPy's reading of CUPY_GPU_MEMORY_LIMIT (or `limit`): "1073741824"
    is a size in bytes, "40%" a fraction of the device's memory."""
    import os
    if limit is None:
        limit = os.environ.get("CUPY_GPU_MEMORY_LIMIT")
    size = fraction = None
    if limit is not None:
        if limit.endswith("%"):
            fraction = float(limit[:-1]) / 100.0
        else:
            size = int(limit)
    return {"size": size, "fraction": fraction}


def _env_limit():
    """The limit in bytes CUPY_GPU_MEMORY_LIMIT gives a new device pool
    (0: none)."""
    params = _parse_limit_string()
    size = params["size"]
    if params["fraction"] is not None:
        from fake_cupy import _runtime
        size = int(_runtime.total_memory() * params["fraction"])
    return _round_size(size) if size else 0


class MemoryPool:
    """cupy.cuda.MemoryPool over host memory: one pool per device, each
    with one arena per allocation stream, as CuPy's."""

    def __init__(self, allocator=None):
        """`allocator(size)` (returning a MemoryPointer, as
        cupy.cuda.malloc_managed or cupy.cuda.memory._malloc) makes the
        pool's new blocks; by default plain device memory."""
        self._allocator = allocator
        self._pools = {}
        # Re-entrant: a garbage collection inside malloc may free an
        # array, whose finalizer returns its block here.
        self._lock = threading.RLock()

    def _device_pool(self, device_id=None):
        if device_id is None:
            from fake_cupy import _runtime
            device_id = _runtime.current_device_id()
        pool = self._pools.get(device_id)
        if pool is None:
            pool = self._pools[device_id] = _DevicePool()
            pool.limit = _env_limit()
        return pool

    def malloc(self, size):
        """Allocates `size` bytes (rounded up to 512) on the current stream's
        arena, from its free chunks when one fits. The thread's memory hooks
        are called around it (fake_cupy._memory_hook)."""
        from fake_cupy import _runtime
        device_id = _runtime.current_device_id()
        stream_key = _runtime.get_current_stream(device_id)._queue.key
        rounded = _round_size(size) if size else 0
        hooked = _memory_hook._has_memory_hooks()
        if hooked:
            _memory_hook.call("malloc_preprocess", device_id=device_id,
                              size=size, mem_size=rounded)
        if size == 0:
            pointer = MemoryPointer(Memory(None, None, 0, device_id,
                                           stream_key=stream_key))
        else:
            pointer = self._malloc_chunk(device_id, stream_key, size, rounded,
                                         hooked)
        if hooked:
            _memory_hook.call("malloc_postprocess", device_id=device_id,
                              size=size, mem_size=rounded, mem_ptr=pointer.ptr,
                              pmem_id=id(pointer.mem))
        return pointer

    def _malloc_chunk(self, device_id, stream_key, size, rounded, hooked):
        from fake_cupy import _runtime
        with self._lock:
            pool = self._device_pool(device_id)
            chunk = pool.take(stream_key, rounded)
            if chunk is None:
                if pool.limit and pool.total + rounded > pool.limit:
                    pool.release()
                    if pool.total + rounded > pool.limit:
                        raise _errors.OutOfMemoryError(rounded, pool.total,
                                                       pool.limit)
                if hooked:
                    _memory_hook.call("alloc_preprocess", device_id=device_id,
                                      mem_size=rounded)
                block = self._new_block(pool, rounded)
                if hooked:
                    _memory_hook.call("alloc_postprocess", device_id=device_id,
                                      mem_size=rounded, mem_ptr=block.ptr)
                chunk = _Chunk(block, 0, rounded, stream_key)
                pool.total += rounded
            pool.used += rounded
        if chunk.busy:
            # A launch queued on this stream still uses the memory: it runs
            # before the host writes into the chunk again.
            _runtime.drain()
            chunk.busy = False
        return MemoryPointer(PooledMemory(self, chunk, size, device_id,
                                          stream_key=stream_key))

    def _new_block(self, pool, rounded):
        if self._allocator is None:
            return _Block(rounded)
        try:
            pointer = self._allocator(rounded)
        except _errors.OutOfMemoryError:
            # As CuPy's pool: free the unused blocks and try once more.
            pool.release()
            pointer = self._allocator(rounded)
        return _AllocatedBlock(pointer, rounded)

    def _free(self, device_id, chunk, reuse=True, busy=False):
        with self._lock:
            pool = self._device_pool(device_id)
            pool.used -= chunk.size
            if reuse:
                chunk.busy = chunk.busy or busy
                pool.give_back(chunk)
            else:
                # A queued launch on another stream still holds this chunk:
                # it is leaked to that launch rather than handed out again.
                chunk.leaked = True
                pool.total -= chunk.size

    def free_all_blocks(self, stream=None):
        """Releases the current device's free blocks (of `stream`'s arena
        only, when given)."""
        with self._lock:
            pool = self._device_pool()
            pool.release(None if stream is None else stream._queue.key)

    def free_all_free(self):
        """Deprecated in CuPy (DeprecationWarning): free_all_blocks."""
        import warnings
        warnings.warn("free_all_free is deprecated. Use free_all_blocks "
                      "instead.", DeprecationWarning)
        self.free_all_blocks()

    def n_free_blocks(self):
        """Free chunks of the current device, over every arena."""
        return self._device_pool().n_free()

    def used_bytes(self):
        return self._device_pool().used

    def total_bytes(self):
        return self._device_pool().total

    def free_bytes(self):
        pool = self._device_pool()
        return pool.total - pool.used

    def set_limit(self, size=None, fraction=None):
        """Sets the current device's limit in bytes (or as a fraction of its
        memory); 0 or None removes it."""
        if size is not None and fraction is not None:
            raise ValueError("size and fraction cannot be specified at one time")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"memory limit fraction out of range: {fraction}")
            from fake_cupy import _runtime
            size = int(_runtime.total_memory() * fraction)
        if size is None:
            size = 0
        if size < 0:
            raise ValueError(f"memory limit size out of range: {size}")
        self._device_pool().limit = _round_size(size) if size else 0

    def get_limit(self):
        return self._device_pool().limit


class SingleDeviceMemoryPool(MemoryPool):
    """cupy.cuda.memory.SingleDeviceMemoryPool: the pool of one device, the
    current one when it is made (MemoryPool keeps one per device)."""

    def __init__(self, allocator=None):
        super().__init__(allocator)
        from fake_cupy import _runtime
        self._device_id = _runtime.current_device_id()

    def _device_pool(self, device_id=None):
        return super()._device_pool(self._device_id)


class PinnedMemoryPointer:
    """cupy.cuda.PinnedMemoryPointer(mem, offset): the host memory from
    mem.ptr + offset to the end of `mem` (`ptr`, size() as in CuPy, where
    it is a method, int(p), p + n, n + p, p - n), which, as CuPy's, has the
    buffer protocol: numpy.frombuffer(p, dtype, count) and
    numpy.ndarray(shape, dtype, buffer=p) view it. Python 3.11 classes
    cannot export a buffer themselves, so an instance is also a ctypes byte
    array of its size at its address (a subclass per size, of which the
    most recent few are kept). p += n makes a new pointer (CuPy moves p
    itself: only other names for p differ)."""

    def __new__(cls, mem, offset=0):
        size = max(int(mem.size) - int(offset), 0)
        self = _pinned_pointer_type(cls, size).from_address(mem.ptr + offset)
        self.mem, self.ptr = mem, mem.ptr + offset
        return self

    def size(self):
        """The bytes from the pointer to the end of its memory."""
        return max(int(self.mem.size) - (self.ptr - self.mem.ptr), 0)

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return PinnedMemoryPointer(self.mem,
                                   self.ptr - self.mem.ptr + operator.index(offset))

    def __sub__(self, offset):
        return self + -operator.index(offset)

    __radd__ = __add__
    __iadd__ = __add__
    __isub__ = __sub__

    def __repr__(self):
        return f"<PinnedMemoryPointer 0x{self.ptr:x} of {self.size()} bytes>"


@functools.lru_cache(maxsize=64)
def _pinned_pointer_type(cls, size):
    """The ctypes byte-array subclass of `cls` for `size` bytes (a few are
    cached: pointers at many offsets would otherwise keep a class each)."""
    return type(cls.__name__, (cls, ctypes.c_ubyte * size),
                {"__init__": lambda self, *args, **kwargs: None,
                 "__module__": cls.__module__})


class PinnedMemory:
    """cupy.cuda.PinnedMemory(size, flags=0): page-locked host memory of
    its own (cudaHostAlloc with `flags`; plain host memory here), freed
    when its last reference goes; `ptr` and `size` as CuPy's."""

    __slots__ = ("ptr", "size", "block", "__weakref__")

    def __init__(self, size, flags=0):
        from fake_cupy.cuda import runtime
        if int(flags) & ~(runtime.hostAllocPortable | runtime.hostAllocMapped
                          | runtime.hostAllocWriteCombined):
            raise runtime.CUDARuntimeError(runtime.cudaErrorInvalidValue)
        self.size = int(size)
        self.block = _Block(_round_size(self.size)) if self.size else None
        self.ptr = self.block.ptr if self.block is not None else 0


class _PinnedMemory(PinnedMemory):
    """A PinnedMemoryPool's block, returned to the pool with the last
    reference."""

    __slots__ = ("pool",)

    def __init__(self, pool, block):
        self.pool, self.block, self.ptr = pool, block, block.ptr
        self.size = block.size

    def __del__(self):
        try:
            self.pool._free_block(self.block)
        except Exception:
            pass


class PinnedMemoryPool:
    """cupy.cuda.PinnedMemoryPool: page-locked staging memory (plain host
    memory here), kept for reuse by size."""

    def __init__(self, allocator=None):
        self._free = {}
        # Re-entrant: a garbage collection inside malloc may free an
        # array, whose finalizer returns its block here.
        self._lock = threading.RLock()

    def malloc(self, size):
        rounded = _round_size(max(size, 1))
        with self._lock:
            blocks = self._free.get(rounded)
            block = blocks.pop() if blocks else _Block(rounded)
        return PinnedMemoryPointer(_PinnedMemory(self, block), 0)

    def _free_block(self, block):
        with self._lock:
            self._free.setdefault(block.size, []).append(block)

    def free_all_blocks(self):
        with self._lock:
            self._free.clear()

    def n_free_blocks(self):
        return sum(len(b) for b in self._free.values())


_default_pool = MemoryPool()
_default_pinned_pool = PinnedMemoryPool()
_allocator = _default_pool.malloc
_pinned_allocator = _default_pinned_pool.malloc


def get_default_memory_pool():
    return _default_pool


def get_default_pinned_memory_pool():
    return _default_pinned_pool


_thread = threading.local()


def get_allocator():
    """cupy.cuda.get_allocator: the calling thread's allocator (the one of
    an enclosing using_allocator, else the global one)."""
    stack = getattr(_thread, "allocators", None)
    if stack:
        return stack[-1]
    return _allocator


def set_allocator(allocator=None):
    """cupy.cuda.set_allocator; None allocates without a pool. Refused
    (ValueError) inside using_allocator, as CuPy."""
    global _allocator
    if getattr(_thread, "allocators", None):
        raise ValueError("Can't change the global allocator inside "
                         "``using_allocator`` context manager")
    _allocator = allocator if allocator is not None else _unpooled_malloc


def using_allocator(allocator=None):
    """cupy.cuda.using_allocator: the allocator (None: no pool) for the
    calling thread inside the block."""
    import contextlib

    @contextlib.contextmanager
    def use():
        stack = getattr(_thread, "allocators", None)
        if stack is None:
            stack = _thread.allocators = []
        stack.append(allocator if allocator is not None else _unpooled_malloc)
        try:
            yield
        finally:
            stack.pop()
    return use()


class _BuiltinFunction:
    """A module function that, as CuPy's Cython functions, does not become
    a method when stored on a class (CuPy's tests keep allocators as class
    attributes and call self.allocator(size))."""

    def __init__(self, func):
        self._func = func
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__

    def __call__(self, *args, **kwargs):
        return self._func(*args, **kwargs)

    def __repr__(self):
        return f"<built-in function {self.__name__}>"


def _builtin(func):
    return _BuiltinFunction(func)


@_builtin
def malloc_managed(size):
    """cupy.cuda.malloc_managed: managed memory (host memory here)."""
    from fake_cupy import _runtime
    block = _Block(_round_size(size)) if size else None
    return MemoryPointer(ManagedMemory(None, block, size,
                                       _runtime.current_device_id()))


@_builtin
def malloc_async(size, stream=None):
    """cupy.cuda.malloc_async: memory allocated on the current stream
    (cudaMallocAsync), freed when its last reference goes."""
    from fake_cupy import _runtime
    if stream is None:
        stream = _runtime.get_current_stream()
    block = _Block(_round_size(size)) if size else None
    mem = MemoryAsync(None, block, size, _runtime.current_device_id(),
                      stream_key=stream._queue.key)
    mem.stream_ref = weakref.ref(stream)
    return MemoryPointer(mem)


class MemoryAsyncPool:
    """cupy.cuda.MemoryAsyncPool(pool_handles='current'): the stream-ordered
    allocator's pool, counting what it handed out."""

    def __init__(self, pool_handles="current"):
        if pool_handles not in ("current", "default") and \
                not isinstance(pool_handles, int):
            raise ValueError("pool_handles must be 'current', 'default' or "
                             "a device id")
        self._used = {}
        self._limit = 0
        self._lock = threading.Lock()

    def malloc(self, size, stream=None):
        if self._limit and self.used_bytes() + size > self._limit:
            raise _errors.OutOfMemoryError(size, self.used_bytes(),
                                           self._limit)
        ptr = malloc_async(size, stream)
        with self._lock:
            self._used[id(ptr.mem)] = (weakref.ref(ptr.mem), size)
        return ptr

    def used_bytes(self):
        with self._lock:
            live = {k: v for k, v in self._used.items() if v[0]() is not None}
            self._used = live
            return sum(size for _ref, size in live.values())

    def total_bytes(self):
        return self.used_bytes()

    def free_bytes(self):
        return 0

    def n_free_blocks(self):
        return 0

    def free_all_blocks(self, stream=None):
        pass

    def set_limit(self, size=None, fraction=None):
        """The pool's limit in bytes, or as a fraction of the device's
        memory; 0 (or None) removes it."""
        if size is not None and fraction is not None:
            raise ValueError("size and fraction cannot be specified at "
                             "the same time")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"memory limit fraction out of range: "
                                 f"{fraction}")
            from fake_cupy import _runtime
            size = int(_runtime.total_memory() * fraction)
        if size is not None and size < 0:
            raise ValueError(f"memory limit size out of range: {size}")
        self._limit = int(size or 0)

    def get_limit(self):
        """The limit; 2**64 - 1 when there is none, as CuPy reports it."""
        return self._limit or 2**64 - 1


class PythonFunctionAllocator:
    """cupy.cuda.PythonFunctionAllocator(malloc_func, free_func):
    malloc_func(size, device_id) returns an address, which free_func(ptr,
    device_id) is given back when the memory goes."""

    def __init__(self, malloc_func, free_func):
        self._malloc = malloc_func
        self._free = free_func

    def malloc(self, size):
        from fake_cupy import _runtime
        device_id = _runtime.current_device_id()
        ptr = int(self._malloc(size, device_id))
        owner = _FreeOnDelete(self._free, ptr, device_id)
        return MemoryPointer(UnownedMemory(ptr, size, owner, device_id))


class _FreeOnDelete:
    def __init__(self, free, ptr, device_id):
        self.free, self.ptr, self.device_id = free, ptr, device_id

    def __del__(self):
        try:
            self.free(self.ptr, self.device_id)
        except Exception:
            pass


def alloc_pinned_memory(size):
    """cupy.cuda.alloc_pinned_memory: `size` bytes of pinned host memory
    from the current pinned allocator (a PinnedMemoryPointer)."""
    return _pinned_allocator(size)


def set_pinned_memory_allocator(allocator=None):
    global _pinned_allocator
    _pinned_allocator = allocator if allocator is not None else \
        PinnedMemoryPool().malloc


@_builtin
def _unpooled_malloc(size):
    from fake_cupy import _runtime
    if size == 0:
        return MemoryPointer(Memory(None, None, 0, _runtime.current_device_id()))
    return MemoryPointer(Memory(None, _Block(_round_size(size)), size,
                                _runtime.current_device_id()))


def alloc(size):
    """Allocates device memory through the current allocator."""
    return get_allocator()(size)


def stage_to_device(nbytes):
    """Takes (and at once releases) a pinned staging buffer for a host-to-
    device copy, as CuPy's transfers do."""
    if nbytes:
        _pinned_allocator(nbytes)
