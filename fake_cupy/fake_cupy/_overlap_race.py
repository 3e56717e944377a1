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
"""
import os
import sys

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
    offsets = numpy.zeros((), dtype=numpy.int64)
    for n, stride in zip(host.shape, host.strides):
        offsets = offsets[..., None] + numpy.arange(n, dtype=numpy.int64) * stride
    offsets = numpy.sort(offsets.ravel())
    return bool((numpy.diff(offsets) < host.itemsize).any())


def _user_line():
    """"file:line" of the innermost frame outside the fake's package."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_PACKAGE_DIR + os.sep):
            return f"{os.path.basename(path)}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>:0"


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
    import cuemu
    cuemu._binding.check_report_host(where, text)
