"""Racecheck for the writes the fake makes in NumPy where CuPy runs a kernel.

CuPy's element-wise kernels (a ufunc with `out=`, an in-place operator, an
assignment `x[...] = y`) give each output element to a thread. When the
output is a view whose elements share memory (`as_strided` windows that
overlap, as some col2im code builds, or a zero stride), several threads
write the same address and the value left there depends on their order:
a write-after-write race. The fake computes such a statement in NumPy,
which gives one of those values, so under CUEMU_FAKE_CUPY_CHECK naming
race (or all) it reports the race as racecheck reports a kernel's, counted
by libcuemu (cuemu.check_reports()), once per line of the user's code.

CuPy's other kernels are judged by what their source does with an output
that shares memory with an input: a ufunc copies such an input first
(_copy_in_args_if_needed), and dot and matmul compute into a new array, so
those need nothing here; a reduction with `out=` reads its input in place
(check_reduction), copyto of two contiguous views is one cudaMemcpyAsync,
whose ranges may not overlap (check_copy), and an assignment through integer
arrays has one thread write each indexed element (check_scatter).
"""
import inspect
import os
import sys
import warnings

import numpy

# The most elements whose addresses are compared one by one; a larger view
# that the quick test cannot clear is left unreported.
_EXACT_LIMIT = 1 << 22

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def race_checked():
    """Whether CUEMU_FAKE_CUPY_CHECK names racecheck."""
    words = {w.strip() for w in os.environ.get("CUEMU_FAKE_CUPY_CHECK", "").split(",")}
    return "race" in words or "all" in words


def elements_overlap(host):
    """Whether two elements of the NumPy view `host` share a byte."""
    if host.size <= 1 or host.flags.c_contiguous or host.flags.f_contiguous:
        return False
    axes = sorted((abs(stride), n) for n, stride in zip(host.shape, host.strides) if n > 1)
    if axes[0][0] == 0:
        return True
    # Each axis stepping past everything the smaller ones span cannot overlap.
    span = host.itemsize
    for stride, n in axes:
        if stride < span:
            break
        span += stride * (n - 1)
    else:
        return False
    if host.size > _EXACT_LIMIT:
        return False
    offsets = numpy.sort(_addresses(host).ravel())
    return bool((numpy.diff(offsets) < host.itemsize).any())


def _addresses(host):
    """The address of each element of the NumPy view `host`, in its shape."""
    offsets = numpy.full((), host.__array_interface__["data"][0], dtype=numpy.int64)
    for n, stride in zip(host.shape, host.strides):
        offsets = offsets[..., None] + numpy.arange(n, dtype=numpy.int64) * stride
    return offsets


def _user_line():
    """"file:line" of the innermost frame outside the fake's package."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_PACKAGE_DIR + os.sep):
            return f"{os.path.basename(path)}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>:0"


def _report(where, text):
    import cuemu
    cuemu._binding.check_report_host(where, text)


def check_output(host, operation):
    """Reports a race when racecheck is on and the NumPy view `host`, which
    `operation` (e.g. "cupy.add") writes as CuPy's kernel would, has
    elements that share memory."""
    if not race_checked() or not elements_overlap(host):
        return
    where = _user_line()
    text = (f"racecheck: race (WAW: write after write) on global memory in the "
            f"element-wise kernel of {operation} at {where}: its output (shape "
            f"{host.shape}, strides {host.strides} bytes, a view made by as_strided "
            f"or broadcasting) has elements at the same address, which several "
            f"threads write; on a GPU the value left there depends on their order "
            f"and nothing is accumulated (the fake keeps NumPy's result; to sum "
            f"overlapping windows, add them one window offset at a time)")
    _report(where, text)


# CuPy's reductions that take `out=` (cupy/_core/_routines_math.pyx,
# _routines_statistics.pyx, _routines_logic.pyx), by NumPy's names.
REDUCTIONS = frozenset(("sum", "prod", "max", "amax", "min", "amin", "all",
                        "any", "mean", "argmax", "argmin"))


def check_reduction_call(name, args, kwargs):
    """check_reduction for a call of the reduction `name` (one of
    REDUCTIONS) with NumPy's arguments (a, axis, ..., out=, ...) of fake
    arrays."""
    if not race_checked():
        return
    try:
        bound = inspect.signature(getattr(numpy, name)).bind(*args, **kwargs)
    except TypeError:
        return                    # NumPy's call raises its own error
    a, out = bound.arguments.get("a"), bound.arguments.get("out")
    if hasattr(a, "_host") and hasattr(out, "_host"):
        check_reduction(a._host(), out._host(), bound.arguments.get("axis"),
                        "cupy." + name)


def check_reduction(host_in, host_out, axis, operation):
    """Reports a race when racecheck is on and the output `host_out` of a
    reduction of `host_in` over `axis` (None, an int or a tuple; the output
    has the kept axes, with or without the reduced ones as length 1) shares
    memory with an input element of another output element.

    CuPy's reduction kernel does not copy an input that overlaps `out`.
    The threads of one block read all the inputs of their output elements,
    meet at a barrier, then write them; so an output element that overlaps
    only its own inputs (cupy.sum(a, axis=0, out=a[0])) is computed right,
    but one written over an input of another output element races with the
    threads reading it (in another block, or in another pass of the same
    block's loop)."""
    if not race_checked() or not numpy.may_share_memory(host_in, host_out):
        return
    if host_in.size + host_out.size > _EXACT_LIMIT:
        return
    ndim = host_in.ndim
    if axis is None:
        reduced = set(range(ndim))
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        reduced = {int(a) % ndim for a in axes} if ndim else set()
    kept = [n if d not in reduced else 1 for d, n in enumerate(host_in.shape)]
    if host_out.size != int(numpy.prod(kept)):
        return                    # NumPy's call raises its own error
    # The output element each input element reduces into, in the output's
    # C order (the kept axes in their order).
    owner = numpy.broadcast_to(
        numpy.arange(host_out.size).reshape(kept), host_in.shape).ravel()
    inputs = _addresses(host_in).ravel()
    outputs = _addresses(host_out).ravel()
    order = numpy.argsort(outputs, kind="stable")
    starts = outputs[order]
    first = numpy.searchsorted(starts, inputs - host_out.itemsize, side="right")
    end = numpy.searchsorted(starts, inputs + host_in.itemsize, side="left")
    hits = end - first
    single = order[numpy.minimum(first, len(order) - 1)]
    if not ((hits > 1) | ((hits == 1) & (single != owner))).any():
        return
    where = _user_line()
    _report(where, (
        f"racecheck: race (RAW: read after write) on global memory in the "
        f"reduction kernel of {operation} at {where}: its output `out` (shape "
        f"{host_out.shape}) shares memory with input elements that other output "
        f"elements are reduced from, and CuPy's reduction does not copy its "
        f"input; on a GPU those elements are read before or after they are "
        f"overwritten, depending on the threads' order (the fake keeps NumPy's "
        f"result; reduce into a new array, then copy it)"))


def check_copy(host_dst, host_src, operation):
    """Reports a race when racecheck is on and CuPy's copyto copies the
    NumPy view `host_src` into `host_dst` with one cudaMemcpyAsync (both
    C- or both F-contiguous, one dtype, one size: cupy/_manipulation/basic.py,
    _can_memcpy) between byte ranges that overlap without being the same:
    CUDA documents that the memory areas of cudaMemcpyAsync may not overlap.
    Other views go through CuPy's copy ufunc, which copies an overlapping
    input first."""
    if not race_checked() or host_dst.size == 0:
        return
    contiguous = (host_dst.flags.c_contiguous and host_src.flags.c_contiguous) or \
        (host_dst.flags.f_contiguous and host_src.flags.f_contiguous)
    if not contiguous or host_dst.dtype != host_src.dtype or \
            host_dst.size != host_src.size:
        return
    dst = host_dst.__array_interface__["data"][0]
    src = host_src.__array_interface__["data"][0]
    if dst == src or abs(dst - src) >= host_dst.nbytes:
        return
    where = _user_line()
    _report(where, (
        f"racecheck: race on global memory in {operation} at {where}: CuPy copies "
        f"these contiguous views with one cudaMemcpyAsync of {host_dst.nbytes} "
        f"bytes whose source and destination overlap ({src - dst:+d} bytes "
        f"apart), and CUDA's memory areas may not overlap: on a GPU some bytes "
        f"are read after they are written (the fake keeps NumPy's result; copy "
        f"the source first, or use a view that is not contiguous)"))


def check_scatter(host, index, values, operation):
    """Reports a race when racecheck is on and the assignment
    `host[index] = values` (an index with integer arrays, already wrapped
    into range) writes one element twice with different values: CuPy's
    scatter kernel has a thread write each indexed element, and its
    documentation leaves which value is stored undefined."""
    if not race_checked() or host.size > _EXACT_LIMIT:
        return
    targets = numpy.arange(host.size).reshape(host.shape)[index]
    if targets.size < 2:
        return
    try:
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            values = numpy.broadcast_to(
                numpy.asarray(values).astype(host.dtype), targets.shape)
    except (TypeError, ValueError):
        return                    # NumPy's assignment raises its own error
    targets = targets.ravel()
    # Values compared by their bytes, as stored: two NaNs are one value.
    values = numpy.ascontiguousarray(values).view(numpy.uint8).reshape(targets.size, -1)
    order = numpy.argsort(targets, kind="stable")
    targets, values = targets[order], values[order]
    repeated = targets[1:] == targets[:-1]
    if not repeated.any():
        return
    differ = (values[1:] != values[:-1]).any(axis=1)
    if not (repeated & differ).any():
        return
    element = numpy.unravel_index(int(targets[1:][repeated & differ][0]), host.shape)
    where = _user_line()
    _report(where, (
        f"racecheck: race (WAW: write after write) on global memory in the "
        f"scatter kernel of {operation} at {where}: the integer index repeats "
        f"element {tuple(int(i) for i in element)} with different values, and "
        f"a thread writes each; on a GPU the value left there is undefined, as "
        f"CuPy documents (the fake keeps NumPy's last one; use cupyx.scatter_add "
        f"or distinct indices)"))
