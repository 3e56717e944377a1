# cuemu_gdb.py: gdb commands for kernels run by cuemu (issue 8).
#
# Loaded by cuemu-gdb (gdb -x cuemu_gdb.py), or by hand with
# `source .../cuemu_gdb.py`. It reads libcuemu's own state through its debug
# information: the worker of the selected OS thread (cuemu__worker_self), its
# block, and the saved contexts of the block's suspended threads.
#
#   cuemu threads               every thread of the current block and its state
#   cuemu thread X [Y [Z]]      look at a suspended thread (bt, frame, info
#                               locals); `cuemu thread` switches back
#   cuemu block                 the current block, the grid and the launch
#   cuemu break-on-error [off]  stop where the emulator finds an error
#
# Looking at a suspended thread loads its saved stack pointer, frame pointer,
# resume address and callee-saved registers into the registers of the OS
# thread (and its coordinates into threadIdx). Every command that resumes the
# program (continue, next, step, finish, ...) puts the real ones back first,
# through gdb hooks (hook-continue, ...) that this file defines.

import os

import gdb

# What the barrier operations (enum cuemu_barrier_op) are called in CUDA,
# by enumerator. The values of this enum and of the others the commands use
# (cuemu_thread_state, cuemu_sync_kind, cuemu_schedule_kind) come from
# libcuemu's own debugging information (see _enum), never from copies here.
BARRIER_TEXT = {"PLAIN": "__syncthreads()", "COUNT": "__syncthreads_count()",
                "AND": "__syncthreads_and()", "OR": "__syncthreads_or()",
                "GRID": "grid.sync()"}

# The commands that resume the inferior; each gets a hook that first puts
# back the registers of the running thread.
RESUMING_COMMANDS = ["run", "start", "starti", "continue", "next", "step",
                     "nexti", "stepi", "finish", "until", "advance", "jump",
                     "signal", "kill", "detach", "return", "call"]


class CuemuError(gdb.GdbError):
    pass


def _worker():
    """The cuemu_worker of the selected OS thread, which must be running a
    kernel."""
    try:
        w = gdb.parse_and_eval("cuemu__worker_self")
    except gdb.error:
        raise CuemuError("cuemu: libcuemu's debugging information is not "
                         "loaded (is the program running, and was libcuemu "
                         "built with -g?)")
    if int(w) == 0 or int(w["in_kernel"]) == 0 or int(w["launch"]) == 0:
        raise CuemuError("cuemu: this OS thread is not running a kernel "
                         "(stop inside a kernel first)")
    return w.dereference()


_enums = {}


def _enum(name, prefix):
    """The enumerators of libcuemu's C enum `name` as {short name: value},
    the short name being the enumerator without `prefix`; read from the
    debugging information of the loaded libcuemu, so that reordering an
    enum in C never leaves this file behind."""
    values = _enums.get(name)
    if values is None:
        try:
            fields = gdb.lookup_type("enum " + name).fields()
        except gdb.error:
            raise CuemuError("cuemu: enum %s is not in libcuemu's debugging "
                             "information (was libcuemu built with -g?)"
                             % name)
        values = dict((f.name[len(prefix):] if f.name.startswith(prefix)
                       else f.name, int(f.enumval)) for f in fields)
        _enums[name] = values
    return values


def _thread_states():
    return _enum("cuemu_thread_state", "CUEMU_THREAD_")


def _sync_kinds():
    return _enum("cuemu_sync_kind", "CUEMU_SYNC_")


def _forget_types(event):
    """A newly loaded objfile may be another libcuemu: read enums again."""
    _enums.clear()


gdb.events.new_objfile.connect(_forget_types)


def _dim(v):
    return (int(v["x"]), int(v["y"]), int(v["z"]))


def _fmt(d):
    return "(%d,%d,%d)" % d


def _string(v):
    try:
        return v.string() if int(v) else None
    except gdb.error:
        return None


def _short(path):
    return os.path.basename(path) if path else "?"


def _read_bytes(address, count):
    mem = gdb.selected_inferior().read_memory(address, count)
    return bytes(mem)


def _max_threads(w):
    # warp_waiting has one word per warp of the largest block.
    return (w["warp_waiting"].type.range()[1] + 1) * 32


class Block(object):
    """A snapshot of the current block: every thread's state and where it
    waits."""

    def __init__(self, w):
        self.w = w
        self.nthreads = int(w["nthreads"])
        self.dim = _dim(w["block_dim"])
        self.block_idx = _dim(w["block_idx"])
        self.threads = w["threads"]
        self.state = list(_read_bytes(int(w["state"]), self.nthreads))
        ring = _max_threads(w) - 1
        runq = w["runq"]
        self.queued = set(int(runq[(int(w["rq_head"]) + i) & ring])
                          for i in range(int(w["rq_len"])))
        current = int(w["current"])
        if current:
            size = self.threads.type.target().sizeof
            self.running = (current - int(self.threads)) // size
            self.lazy = None
        else:
            # A runner calls the thunk for threads [lazy_start, ...) as
            # plain calls: the one running now is threadIdx, and those of
            # its range before it have returned.
            self.running = self.linear(_real_thread_idx())
            self.lazy = int(w["lazy_start"])

    def linear(self, t):
        return t[0] + self.dim[0] * (t[1] + self.dim[1] * t[2])

    def coords(self, i):
        return (i % self.dim[0], (i // self.dim[0]) % self.dim[1],
                i // (self.dim[0] * self.dim[1]))

    def site(self, i):
        """What thread i waits at, as "__syncthreads() at k.cu:12"."""
        wait = self.threads[i]["wait"]
        kind, op = int(wait["kind"]), int(wait["op"])
        where = "%s:%d" % (_short(_string(wait["file"])), int(wait["line"]))
        sync = _sync_kinds()
        if kind == sync["BARRIER"]:
            ops = _enum("cuemu_barrier_op", "CUEMU_BARRIER_")
            name = next((BARRIER_TEXT.get(n, "barrier")
                         for n, v in ops.items() if v == op), "barrier")
        elif kind in (sync["WARP"], sync["ACTIVE"]):
            name = _string(self.threads[i]["warp"]["name"]) or \
                "warp collective"
            if not name.endswith(")"):
                name += "()"
        elif kind == sync["GROUP"]:
            name = "tile barrier"
        elif kind == sync["GRID"]:
            name = "grid.sync()"
        elif kind == sync.get("STEP"):
            name = "volatile access (in lockstep with its warp)"
        else:
            name = "yield"
        return "%s at %s" % (name, where)

    def describe(self, i):
        """(state word, detail) of thread i."""
        s = self.state[i]
        state = _thread_states()
        if i == self.running:
            return ("running", _running_place())
        if s == state["UNSTARTED"]:
            if self.lazy is not None and self.lazy <= i < self.running:
                return ("exited", "")
            return ("not started", "")
        if s == state["EXITED"]:
            return ("exited", "")
        if s == state["WAITING"]:
            if i in self.queued:
                return ("ready", "released from " + self.site(i))
            return ("waiting", self.site(i))
        if s == state["RUNNABLE"]:
            if int(self.threads[i]["wait"]["kind"]) == _sync_kinds()["YIELD"]:
                return ("ready", "yielded")
            return ("ready", "released from " + self.site(i))
        return ("running", "")

    def has_context(self, i):
        s = self.state[i]
        state = _thread_states()
        return i != self.running and s in (state["WAITING"],
                                           state["RUNNABLE"])


def _is_cuemu_frame(frame):
    """True for frames of libcuemu and libc, of the shims and of the
    generated launch code, which are not the user's."""
    name = frame.name() or ""
    if name.startswith("cuemu_") or name.startswith("cuemu::"):
        return True
    try:
        lib = gdb.solib_name(frame.pc()) or ""
    except gdb.error:
        lib = ""
    base = os.path.basename(lib)
    if base.startswith("libcuemu") or base.startswith("libc.so"):
        return True
    sal = frame.find_sal()
    return sal.symtab is not None and \
        "/cuda_builtins/" in sal.symtab.filename


def _user_frame(frame=None):
    """The newest frame of user code at or above `frame` (or None)."""
    f = frame or gdb.newest_frame()
    while f is not None:
        if not _is_cuemu_frame(f):
            return f
        f = f.older()
    return None


def _frame_number(target):
    n, f = 0, gdb.newest_frame()
    while f is not None:
        if f == target:
            return n
        f, n = f.older(), n + 1
    return None


def _running_place():
    if _switched_here():
        return "(not shown now: `cuemu thread` goes back to it)"
    f = _user_frame()
    if f is None:
        return ""
    sal = f.find_sal()
    if sal.symtab is None:
        return ""
    return "at %s:%d" % (_short(sal.symtab.filename), sal.line)


# ---- Switching to a suspended thread ------------------------------------------

# The real registers and threadIdx while a suspended thread is shown, else
# None: {"regs": {name: value}, "tid": (x, y, z), "thread": the gdb thread
# (OS thread) they belong to, "shown": linear id of the thread shown}.
_switched = None


def _arch():
    return gdb.selected_inferior().architecture().name()


def _switched_here():
    """True when the selected OS thread shows another CUDA thread."""
    return _switched is not None and \
        _switched["thread"] == gdb.selected_thread()


def _real_thread_idx():
    if _switched_here():
        return _switched["tid"]
    return _dim(gdb.parse_and_eval("threadIdx"))


def _saved_registers(ctx):
    """The registers a suspended context resumes with, from its saved state.
    Where each one is comes from libcuemu's table cuemu__ctx_saved_regs
    (emulator/context/cuemu_arch_*.c), the one description of the layout of
    the compiled-in context switch."""
    try:
        table = gdb.parse_and_eval("cuemu__ctx_saved_regs")
    except gdb.error:
        raise CuemuError("cuemu: libcuemu's debugging information has no "
                         "cuemu__ctx_saved_regs (was it built with -g?)")
    at = _enum("cuemu_ctx_saved_at", "CUEMU_CTX_")
    u64 = gdb.lookup_type("unsigned long long")
    fields = [f.name for f in ctx.type.fields()]
    sp = int(ctx["sp"].cast(u64)) if "sp" in fields else 0
    # A light frame (__syncthreads()'s switch on x86-64) is told by the tag
    # bits of its saved stack pointer and has a table of its own.
    try:
        tag = int(gdb.parse_and_eval("cuemu__ctx_light_tag"))
    except gdb.error:
        tag = 0
    if tag and sp & tag:
        sp &= ~tag
        table = gdb.parse_and_eval("cuemu__ctx_light_saved_regs")
    base = int(ctx.address.cast(u64))
    regs = {}
    i = 0
    while int(table[i]["name"]) != 0:
        row = table[i]
        name = row["name"].string()
        kind, offset = int(row["at"]), int(row["offset"])
        if kind == at["SP_PLUS"]:
            regs[name] = sp + offset
        else:
            origin = sp if kind == at["AT_SP"] else base
            regs[name] = _words(origin + offset, 1)[0]
        i += 1
    if not regs:
        raise CuemuError("cuemu: cannot read a saved context on %s" % _arch())
    return regs


def _words(address, count):
    data = _read_bytes(address, 8 * count)
    return [int.from_bytes(data[8 * i:8 * i + 8], "little")
            for i in range(count)]


def _write_registers(regs):
    gdb.newest_frame().select()
    for name, value in regs.items():
        gdb.execute("set var $%s = %d" % (name, value), to_string=True)


def _write_thread_idx(t):
    for axis, value in zip("xyz", t):
        gdb.execute("set var threadIdx.%s = %d" % (axis, value),
                    to_string=True)


def restore(quiet=True):
    """Puts back the registers of the running thread, if another thread is
    shown."""
    global _switched
    if _switched is None:
        return False
    saved, _switched = _switched, None
    # The registers belong to the OS thread that was shown, which need not
    # be the one selected now (CUEMU_WORKERS > 1).
    selected, owner = gdb.selected_thread(), saved["thread"]
    if owner is not None and owner.is_valid() and owner != selected:
        owner.switch()
    _write_registers(saved["regs"])
    _write_thread_idx(saved["tid"])
    if selected is not None and selected.is_valid() and selected != owner:
        selected.switch()
    if not quiet:
        print("[cuemu: back to the running thread %s]" % _fmt(saved["tid"]))
    return True


def _show(frame):
    n = _frame_number(frame) if frame is not None else 0
    gdb.execute("frame %d" % (n or 0))


def switch_to(block, i):
    global _switched
    ctx = block.threads[i]["ctx"]
    regs = _saved_registers(ctx)
    if not _switched_here():
        restore()
    if _switched is None:
        gdb.newest_frame().select()
        real = dict((r, int(gdb.parse_and_eval("$" + r).cast(
            gdb.lookup_type("unsigned long long")))) for r in regs)
        _switched = {"regs": real, "tid": _dim(gdb.parse_and_eval(
            "threadIdx")), "thread": gdb.selected_thread()}
    _switched["shown"] = i
    _write_registers(regs)
    _write_thread_idx(block.coords(i))
    state, detail = block.describe(i)
    print("[cuemu: showing thread %s of block %s, %s %s; `cuemu thread` "
          "switches back]" % (_fmt(block.coords(i)), _fmt(block.block_idx),
                              state, detail))
    _show(_user_frame())


# ---- Commands -------------------------------------------------------------------

class CuemuPrefix(gdb.Command):
    """Commands for kernels run by the cuemu CPU emulator.

cuemu threads               every thread of the current block and its state
cuemu thread X [Y [Z]]      look at a suspended thread; `cuemu thread` goes back
cuemu block                 the current block, the grid and the launch
cuemu break-on-error [off]  stop where the emulator finds an error"""

    def __init__(self):
        super(CuemuPrefix, self).__init__("cuemu", gdb.COMMAND_USER,
                                          gdb.COMPLETE_NONE, True)


class CuemuThreads(gdb.Command):
    """List every thread of the current block with its state.

States: running (the thread gdb stopped in), waiting (at a barrier or a warp
collective, with its file:line), ready (released, not yet resumed), exited,
not started. Consecutive threads in the same state are shown as one range;
`cuemu threads all` shows one line per thread. `*` marks the thread whose
registers gdb shows."""

    def __init__(self):
        super(CuemuThreads, self).__init__("cuemu threads", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        block = Block(_worker())
        every = arg.strip() == "all"
        shown = _switched["shown"] if _switched_here() else block.running
        print("block %s, %d threads:" % (_fmt(block.block_idx),
                                         block.nthreads))
        rows, i = [], 0
        while i < block.nthreads:
            desc, j = block.describe(i), i + 1
            if not every and i != shown:
                while (j < block.nthreads and j != shown and
                       j != block.running and block.describe(j) == desc):
                    j += 1
            rows.append((i, j, desc))
            i = j
        for first, end, (state, detail) in rows:
            who = _fmt(block.coords(first))
            if end - first > 1:
                who += "..%s [%d]" % (_fmt(block.coords(end - 1)),
                                      end - first)
            mark = "*" if first == shown else " "
            print(("%s %-30s %-12s %s" % (mark, who, state, detail)).rstrip())


class CuemuThread(gdb.Command):
    """Show a suspended thread of the current block: cuemu thread X [Y [Z]].

Loads the thread's saved registers, so that bt, frame, up, info locals and
print show its stack; `print threadIdx` gives its coordinates. `cuemu
thread` with no argument (or the running thread's coordinates) switches
back; so does any command that resumes the program."""

    def __init__(self):
        super(CuemuThread, self).__init__("cuemu thread", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        words = arg.replace(",", " ").split()
        if not words:
            if not restore(quiet=False):
                print("[cuemu: already showing the running thread]")
            _show(_user_frame())
            return
        try:
            t = [int(x, 0) for x in words]
        except ValueError:
            raise CuemuError("cuemu thread: X [Y [Z]] are numbers, got '%s'"
                             % arg)
        if len(t) > 3:
            raise CuemuError("cuemu thread: at most three coordinates")
        t += [0] * (3 - len(t))
        block = Block(_worker())
        if any(c < 0 or c >= d for c, d in zip(t, block.dim)):
            raise CuemuError("cuemu thread: %s is outside the block %s"
                             % (_fmt(tuple(t)), _fmt(block.dim)))
        i = block.linear(t)
        if i == block.running:
            restore(quiet=False)
            _show(_user_frame())
            return
        if not block.has_context(i):
            state, _ = block.describe(i)
            raise CuemuError("cuemu thread: thread %s %s: it has no stack "
                             "to show" % (_fmt(tuple(t)), {
                                 "exited": "has exited",
                                 "not started": "has not started"}.get(
                                     state, "is " + state)))
        switch_to(block, i)


class CuemuRestore(gdb.Command):
    """Put back the running thread's registers if another thread is shown
(used by the hooks of the commands that resume the program)."""

    def __init__(self):
        super(CuemuRestore, self).__init__("cuemu restore", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        restore(quiet=True)


class CuemuBlock(gdb.Command):
    """Show the current block, the grid and the launch configuration."""

    def __init__(self):
        super(CuemuBlock, self).__init__("cuemu block", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        w = _worker()
        L = w["launch"].dereference()
        k = L["kernel"].dereference()
        block = Block(w)
        grid = _dim(L["grid"])
        bidx = block.block_idx
        linear = bidx[0] + grid[0] * (bidx[1] + grid[1] * bidx[2])
        kfile = _string(k["file"])
        print("kernel %s%s" % (_string(k["name"]),
                               " (%s:%d)" % (kfile, int(k["line"]))
                               if kfile else ""))
        print("block  %s, number %d of %d" % (_fmt(bidx), linear,
                                              int(L["nblocks"])))
        print("grid   %s" % _fmt(grid))
        print("block  dimensions %s, %d threads" % (_fmt(_dim(L["block"])),
                                                   int(L["nthreads"])))
        print("dynamic shared memory %d bytes" % int(L["dynamic_shared"]))
        sched = int(L["schedule"])
        print("launch %s, schedule %s, stack %d KiB per thread" % (
            "cooperative" if int(L["cooperative"]) else "normal",
            next((n.lower() for n, v in _enum(
                "cuemu_schedule_kind", "CUEMU_SCHEDULE_").items()
                if v == sched), str(sched)),
            int(L["stack_size"]) // 1024))
        counts = {}
        for i in range(block.nthreads):
            s = block.describe(i)[0]
            counts[s] = counts.get(s, 0) + 1
        order = ["running", "waiting", "ready", "exited", "not started"]
        print("threads " + ", ".join("%d %s" % (counts[s], s)
                                     for s in order if s in counts))


class ErrorBreakpoint(gdb.Breakpoint):
    """A breakpoint on cuemu__error_stop, which libcuemu calls with every
    error that ends a launch, in the context that found it."""

    def __init__(self):
        super(ErrorBreakpoint, self).__init__("cuemu__error_stop",
                                              internal=True)
        self.silent = True
        self.message = None

    def stop(self):
        frame = gdb.selected_frame()
        try:
            status = str(frame.read_var("status"))
            message = frame.read_var("message").string()
        except (gdb.error, ValueError):
            status, message = "error", "(message unreadable)"
        self.message = "%s: %s" % (status, message)
        return True


_error_bp = None
# `cuemu break-on-error` was asked for: the breakpoint is set once libcuemu
# is loaded (a program loads it at start, a Python program through ctypes).
_error_wanted = False


def _place_error_breakpoint():
    global _error_bp
    if _error_bp is None and _error_wanted:
        try:
            gdb.parse_and_eval("cuemu__error_stop")
        except gdb.error:
            return False
        _error_bp = ErrorBreakpoint()
    return True


def _on_new_objfile(event):
    if "libcuemu" in os.path.basename(event.new_objfile.filename or ""):
        _place_error_breakpoint()


def _on_stop(event):
    if _error_bp is None or not isinstance(event, gdb.BreakpointEvent):
        return
    if _error_bp not in event.breakpoints:
        return
    print("\ncuemu: the emulator found an error: %s" % _error_bp.message)
    f = _user_frame()
    if f is not None:
        print("cuemu: in the kernel code of the thread that found it:")
        _show(f)
    else:
        gdb.execute("frame 0")


class CuemuBreakOnError(gdb.Command):
    """Stop when the emulator finds an error: cuemu break-on-error [on|off].

Errors are those that end a launch: a divergent barrier, a deadlock, a warp
collective's mask misuse, a checker report, an assert, a __trap(), a fault
(after gdb's own stop on the signal) or a stack overflow. gdb stops in the
thread that found the error, before the launch is abandoned, and selects its
kernel frame; `cuemu threads` then shows where the others wait. Continuing
ends the launch with the error as without gdb."""

    def __init__(self):
        super(CuemuBreakOnError, self).__init__("cuemu break-on-error",
                                                gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        global _error_bp, _error_wanted
        word = arg.strip() or "on"
        if word == "off":
            _error_wanted = False
            if _error_bp is not None:
                _error_bp.delete()
                _error_bp = None
            print("cuemu: errors end the launch without stopping")
            return
        if word != "on":
            raise CuemuError("cuemu break-on-error: 'on' or 'off'")
        _error_wanted = True
        if _place_error_breakpoint():
            print("cuemu: gdb stops where the emulator finds an error")
        else:
            print("cuemu: gdb stops where the emulator finds an error (from "
                  "when libcuemu is loaded)")


def _define_hooks():
    for cmd in RESUMING_COMMANDS:
        gdb.execute("define hook-%s\ncuemu restore\nend" % cmd,
                    to_string=True)


def _skip_emulator():
    # `step` must not enter the emulator's scheduler or the shims of CUDA's
    # built-ins (a barrier would otherwise land in another thread's code).
    gdb.execute("skip -rfunction ^cuemu(_|::)", to_string=True)
    gdb.execute("skip -gfile */cuda_builtins/*", to_string=True)


def _setup():
    CuemuPrefix()
    CuemuThreads()
    CuemuThread()
    CuemuRestore()
    CuemuBlock()
    CuemuBreakOnError()
    gdb.events.stop.connect(_on_stop)
    gdb.events.new_objfile.connect(_on_new_objfile)
    gdb.events.exited.connect(lambda event: _forget())
    _define_hooks()
    _skip_emulator()
    # Serial and deterministic unless asked otherwise: one OS thread runs
    # the blocks in order.
    if "CUEMU_WORKERS" not in os.environ:
        gdb.execute("set environment CUEMU_WORKERS 1", to_string=True)


def _forget():
    global _switched
    _switched = None


_setup()
