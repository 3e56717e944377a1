"""cupy.cuda.MemoryHook and cupy.cuda.memory_hooks of the fake CuPy.

A hook, entered with `with`, is called around the memory pool's work in
the thread that entered it, as CuPy's (its registry is per thread):
malloc_preprocess/postprocess around each allocation from a pool,
alloc_preprocess/postprocess around the pool's taking new memory (not when
a free chunk fits), free_preprocess/postprocess around a pooled array's
memory going back to its pool. The keyword arguments are CuPy's:
device_id, size (requested), mem_size (rounded), mem_ptr, pmem_id (the id
of the PooledMemory object).
"""
import collections
import os
import sys
import threading
import traceback

_local = threading.local()


def get_memory_hooks():
    """The calling thread's hooks, by name, in the order they were entered."""
    hooks = getattr(_local, "hooks", None)
    if hooks is None:
        hooks = _local.hooks = collections.OrderedDict()
    return hooks


def _has_memory_hooks():
    return bool(getattr(_local, "hooks", None))


def call(point, **kwargs):
    """Calls `point` (e.g. "malloc_preprocess") of each hook of the thread."""
    hooks = getattr(_local, "hooks", None)
    if hooks:
        for hook in list(hooks.values()):
            getattr(hook, point)(**kwargs)


class MemoryHook:
    """cupy.cuda.MemoryHook: does nothing at each point; a subclass
    overrides the points it wants. A thread has at most one hook of a
    name."""

    name = "MemoryHook"

    def __enter__(self):
        hooks = get_memory_hooks()
        if self.name in hooks:
            raise KeyError(f"memory hook {self.name} already exists")
        hooks[self.name] = self
        return self

    def __exit__(self, *exc):
        del get_memory_hooks()[self.name]

    def alloc_preprocess(self, **kwargs):
        pass

    def alloc_postprocess(self, **kwargs):
        pass

    def malloc_preprocess(self, **kwargs):
        pass

    def malloc_postprocess(self, **kwargs):
        pass

    def free_preprocess(self, **kwargs):
        pass

    def free_postprocess(self, **kwargs):
        pass


class DebugPrintHook(MemoryHook):
    """cupy.cuda.memory_hooks.DebugPrintHook: one JSON line per allocation
    of new memory ("alloc"), per allocation from the pool ("malloc") and per
    return to it ("free"), after each, in CuPy's format."""

    name = "DebugPrintHook"

    def __init__(self, file=sys.stdout, flush=True):
        self.file = file
        self.flush = flush

    def _line(self, fields):
        text = ",".join(f'"{key}":{value}' for key, value in fields)
        self.file.write("{" + text + "}\n")
        if self.flush:
            self.file.flush()

    def alloc_postprocess(self, **kw):
        self._line([("hook", '"alloc"'), ("device_id", kw["device_id"]),
                    ("mem_size", kw["mem_size"]), ("mem_ptr", kw["mem_ptr"])])

    def malloc_postprocess(self, **kw):
        self._line([("hook", '"malloc"'), ("device_id", kw["device_id"]),
                    ("size", kw["size"]), ("mem_size", kw["mem_size"]),
                    ("mem_ptr", kw["mem_ptr"]),
                    ("pmem_id", f'"{hex(kw["pmem_id"])}"')])

    def free_postprocess(self, **kw):
        self._line([("hook", '"free"'), ("device_id", kw["device_id"]),
                    ("mem_size", kw["mem_size"]), ("mem_ptr", kw["mem_ptr"]),
                    ("pmem_id", f'"{hex(kw["pmem_id"])}"')])


def _human(size):
    """Bytes as CuPy's report writes them: 512.00B, 4.00KB, 1.50MB."""
    for unit in ("", "K", "M", "G", "T", "P", "E"):
        if size < 1024.0:
            return "%3.2f%sB" % (size, unit)
        size /= 1024.0
    return "%.2fZB" % size


class _Frame:
    """A call site of the report's tree, with the bytes below it."""

    def __init__(self, where=None):
        self.where = where        # (filename, lineno, name), None at the root
        self.children = collections.OrderedDict()
        self.used = 0
        self.acquired = 0


# The fake's own frames stand for CuPy's compiled code, which Python's
# stack does not show: a report names the user's lines only.
_package_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep


class LineProfileHook(MemoryHook):
    """cupy.cuda.memory_hooks.LineProfileHook: the bytes taken from the
    pool (used) and the new memory the pool took (acquired), per line of
    the Python call stacks that allocated; print_report prints the tree,
    `_root (used, acquired)` first. `max_depth` (0: no limit) bounds the
    depth of the tree."""

    name = "LineProfileHook"

    def __init__(self, max_depth=0):
        self._root = _Frame()
        self._max_depth = max_depth

    def malloc_preprocess(self, **kw):
        self._add(used=kw["mem_size"])

    def alloc_preprocess(self, **kw):
        self._add(acquired=kw["mem_size"])

    def _add(self, used=0, acquired=0):
        frame = self._root
        frame.used += used
        frame.acquired += acquired
        stack = [s for s in traceback.extract_stack()
                 if not os.path.abspath(s.filename).startswith(_package_dir)]
        for depth, summary in enumerate(stack):
            if 0 < self._max_depth <= depth + 1:
                break
            where = (summary.filename, summary.lineno, summary.name)
            child = frame.children.get(where)
            if child is None:
                child = frame.children[where] = _Frame(where)
            child.used += used
            child.acquired += acquired
            frame = child

    def print_report(self, file=sys.stdout):
        """Prints the tree: `FILE:LINE:FUNCTION (used, acquired)` per line,
        callees indented under callers."""
        file.write(f"_root ({_human(self._root.used)}, "
                   f"{_human(self._root.acquired)})\n")
        pending = [(child, 1) for child in reversed(self._root.children.values())]
        while pending:
            frame, depth = pending.pop()
            filename, lineno, name = frame.where
            file.write(f"{'  ' * depth}{filename}:{lineno}:{name} "
                       f"({_human(frame.used)}, {_human(frame.acquired)})\n")
            pending.extend((child, depth + 1)
                           for child in reversed(frame.children.values()))
        file.flush()
