"""Host memory with stable addresses, handed out by CuPy-style pools.

Device memory of the fake is host memory: each block is a NumPy byte buffer
aligned to 256 bytes (as cudaMalloc's are), whose address never changes,
so kernels receive real pointers. MemoryPool counts in 512-byte units and
keeps freed blocks for reuse, exactly as CuPy's pool does in its documented
example. PinnedMemoryPool stages host-to-device copies as CuPy's does.
"""
import threading
import weakref

import numpy

from fake_cupy import _errors

_UNIT = 512
_ALIGN = 256


def _round_size(size):
    return (size + _UNIT - 1) // _UNIT * _UNIT


class _Block:
    """A piece of host memory of `size` bytes at a stable, aligned address."""

    __slots__ = ("buffer", "ptr", "size")

    def __init__(self, size):
        raw = numpy.empty(size + _ALIGN, dtype=numpy.uint8)
        offset = (-raw.ctypes.data) % _ALIGN
        self.buffer = raw[offset:offset + size]
        self.ptr = self.buffer.ctypes.data
        self.size = size


# Every live allocation by address, so that a pointer (from DLPack or the
# CUDA array interface) can be traced back to the memory that owns it.
_live = weakref.WeakValueDictionary()


def owner_of(ptr):
    """The live Memory whose block holds address `ptr`, or None."""
    for mem in list(_live.values()):
        if mem.ptr <= ptr < mem.ptr + max(mem.size, 1):
            return mem
    return None


class Memory:
    """One allocation. When the last reference goes, the block returns to
    its pool; the lifetime checker is told first (see _runtime)."""

    __slots__ = ("pool", "block", "size", "device_id", "ptr", "pending",
                 "registered", "__weakref__")

    def __init__(self, pool, block, size, device_id, register=True):
        self.pool = pool
        self.block = block
        self.size = size
        self.device_id = device_id
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
                    self.ptr, size, "cupy allocation")

    def __del__(self):
        try:
            if self.registered:
                from cuemu import _binding
                _binding.unregister_alloc(self.ptr)
            from fake_cupy import _runtime
            keep = _runtime.memory_freed(self)
            if self.pool is not None and self.block is not None:
                self.pool._free(self.device_id, self.block, reuse=not keep)
        except Exception:  # never raise from a finalizer
            pass


class MemoryPointer:
    """cupy.cuda.MemoryPointer: a position inside a Memory."""

    __slots__ = ("mem", "ptr", "device_id")

    def __init__(self, mem, offset=0):
        self.mem = mem
        self.ptr = (mem.ptr + offset) if mem.ptr else 0
        self.device_id = mem.device_id

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self.ptr - self.mem.ptr + offset)

    @property
    def device(self):
        from fake_cupy import _runtime
        return _runtime.Device(self.device_id)

    def copy_from_host(self, mem, size):
        import ctypes
        ctypes.memmove(self.ptr, mem, size)

    def copy_to_host(self, mem, size):
        import ctypes
        ctypes.memmove(mem, self.ptr, size)

    def memset(self, value, size):
        import ctypes
        ctypes.memset(self.ptr, value, size)


class _Arena:
    """One device's part of a pool."""

    def __init__(self):
        self.free = {}          # rounded size -> list of blocks
        self.used = 0
        self.total = 0
        self.limit = 0


class MemoryPool:
    """cupy.cuda.MemoryPool over host memory (one arena per device)."""

    def __init__(self, allocator=None):
        self._arenas = {}
        # Re-entrant: a garbage collection inside malloc may free an
        # array, whose finalizer returns its block here.
        self._lock = threading.RLock()

    def _arena(self, device_id=None):
        if device_id is None:
            from fake_cupy import _runtime
            device_id = _runtime.current_device_id()
        arena = self._arenas.get(device_id)
        if arena is None:
            arena = self._arenas[device_id] = _Arena()
        return arena

    def malloc(self, size):
        """Allocates `size` bytes (rounded up to 512), from the free blocks
        when one of that size is there."""
        from fake_cupy import _runtime
        device_id = _runtime.current_device_id()
        if size == 0:
            return MemoryPointer(Memory(None, None, 0, device_id))
        rounded = _round_size(size)
        with self._lock:
            arena = self._arena(device_id)
            blocks = arena.free.get(rounded)
            if blocks:
                block = blocks.pop()
            else:
                if arena.limit and arena.total + rounded > arena.limit:
                    self._release(arena)
                    if arena.total + rounded > arena.limit:
                        raise _errors.OutOfMemoryError(rounded, arena.total,
                                                       arena.limit)
                block = _Block(rounded)
                arena.total += rounded
            arena.used += rounded
        return MemoryPointer(Memory(self, block, size, device_id))

    def _free(self, device_id, block, reuse=True):
        with self._lock:
            arena = self._arena(device_id)
            arena.used -= block.size
            if reuse:
                arena.free.setdefault(block.size, []).append(block)
            else:
                # A queued launch still holds this block: it is leaked to
                # that launch rather than handed out again.
                arena.total -= block.size

    @staticmethod
    def _release(arena):
        for blocks in arena.free.values():
            arena.total -= sum(b.size for b in blocks)
        arena.free.clear()

    def free_all_blocks(self, stream=None):
        """Releases the free blocks of every arena."""
        with self._lock:
            for arena in self._arenas.values():
                self._release(arena)

    def free_all_free(self):
        self.free_all_blocks()

    def n_free_blocks(self):
        return sum(len(b) for a in self._arenas.values() for b in a.free.values())

    def used_bytes(self):
        return self._arena().used

    def total_bytes(self):
        return self._arena().total

    def free_bytes(self):
        arena = self._arena()
        return arena.total - arena.used

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
        self._arena().limit = _round_size(size) if size else 0

    def get_limit(self):
        return self._arena().limit


class PinnedMemoryPointer:
    """cupy.cuda.PinnedMemoryPointer."""

    __slots__ = ("mem", "ptr", "size")

    def __init__(self, mem, size):
        self.mem = mem
        self.ptr = mem.ptr
        self.size = size


class _PinnedMemory:
    __slots__ = ("pool", "block", "ptr")

    def __init__(self, pool, block):
        self.pool, self.block, self.ptr = pool, block, block.ptr

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
        return PinnedMemoryPointer(_PinnedMemory(self, block), size)

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


def set_allocator(allocator=None):
    """cupy.cuda.set_allocator; None allocates without a pool."""
    global _allocator
    _allocator = allocator if allocator is not None else _unpooled_malloc


def set_pinned_memory_allocator(allocator=None):
    global _pinned_allocator
    _pinned_allocator = allocator if allocator is not None else \
        PinnedMemoryPool().malloc


def _unpooled_malloc(size):
    from fake_cupy import _runtime
    if size == 0:
        return MemoryPointer(Memory(None, None, 0, _runtime.current_device_id()))
    return MemoryPointer(Memory(None, _Block(_round_size(size)), size,
                                _runtime.current_device_id()))


def alloc(size):
    """Allocates device memory through the current allocator."""
    return _allocator(size)


def stage_to_device(nbytes):
    """Takes (and at once releases) a pinned staging buffer for a host-to-
    device copy, as CuPy's transfers do."""
    if nbytes:
        _pinned_allocator(nbytes)
