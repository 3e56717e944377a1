"""overwrite_x=True of cupyx.scipy.fft's and cupyx.scipy.fftpack's complex
transforms (fft, ifft, fft2, ifft2, fftn, ifftn), where CuPy honours it.

CuPy (cupy/fft/_fft.py) hands cuFFT the input itself as the output of a
complex-to-complex transform when overwrite_x is set and the input needs no
conversion first: complex64 or complex128 already, not cut or padded (`n`
or `s` its own sizes). Then:

- a transform along one axis at a time (fft and ifft; fft2, ifft2 and fftn
  over one axis, over axes that are not adjacent or take in neither the
  first nor the last axis, or with cupy.fft.config.enable_nd_planning off)
  works in place while the axis is the last one and the input is
  C-contiguous and owns its memory (a view is copied first; see
  _owns_memory for the fake's approximation); the result is
  then the input array itself. A later axis that is not the last one is
  transformed in a copy, and the input keeps the transform so far;
- a transform over up to three adjacent axes, one N-D plan, writes into
  any C- or F-contiguous input, a view too.

Real transforms never write into their input (C2R copies it unless
overwrite_x, in which case cuFFT may use it as scratch; the fake leaves it
as it was). SciPy's transforms, which the fake delegates to, may overwrite
where CuPy does not, so they are called with overwrite_x=False and the
result is written back where CuPy's would be.
"""
import functools
import inspect

import numpy

from fake_cupy import _fft_config, _fft_plan

_COMPLEX = ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn")


def _owns_memory(x):
    """Whether x is not a view (CuPy's x.base is None). The fake's arrays
    have no base: an array that starts at its allocation and spans it all
    is taken for its owner, so a view of it all (x[:], x.reshape(n)) is
    too, where CuPy would copy it."""
    return x.data.ptr == x._mem.ptr and x.nbytes == x._mem.size


def _in_place_axes(x, s, axes, one_axis):
    """The axes CuPy transforms in x's own memory, in order, and whether
    the whole result is x."""
    ndim = x.ndim
    given, order = _fft_plan._nd_axes(ndim, s, axes, "C2C")
    if (not one_axis and ndim > 1 and _fft_config.enable_nd_planning
            and 1 < len(order) <= 3 and _fft_plan._adjacent(order, ndim)):
        whole = x.flags.c_contiguous or x.flags.f_contiguous
        return (list(order) if whole else []), whole
    # One axis at a time, in the order given.
    order = [axis % ndim for axis in given]
    done = []
    if _owns_memory(x) and x.flags.c_contiguous:
        for axis in order:
            if axis != ndim - 1:
                break
            done.append(axis)
    return done, len(done) == len(order)


def in_place(name, func):
    """`func` (a delegate of SciPy's transform `name`) writing its result
    into the input where CuPy does (see the module's text)."""
    if name not in _COMPLEX:
        return func
    one_axis = name in ("fft", "ifft")
    signature = inspect.signature(func)

    @functools.wraps(func)
    def call(x, *args, **kwargs):
        # plan= is CuPy's (SciPy's fftpack has none): passed on aside.
        plan = {"plan": kwargs.pop("plan")} if "plan" in kwargs else {}
        bound = signature.bind_partial(x, *args, **kwargs)
        overwrite = bound.arguments.get("overwrite_x", False)
        if "overwrite_x" in bound.arguments:
            bound.arguments["overwrite_x"] = False
        result = func(*bound.args, **bound.kwargs, **plan)
        if not overwrite or getattr(x, "dtype", None) not in (
                numpy.complex64, numpy.complex128):
            return result
        s, axes = _fft_plan._size_and_axes(bound, one_axis)
        if axes is None:                   # fftn: the last len(s) axes
            axes = tuple(range(x.ndim - len(s or x.shape), x.ndim))
        if s is not None and any(size is not None and size != x.shape[ax]
                                 for size, ax in zip(s, axes)):
            return result                  # cut or padded: a new array
        done, whole = _in_place_axes(x, s, axes, one_axis)
        if whole:
            x[...] = result
            return x
        if done:
            partial = dict(bound.arguments, overwrite_x=False)
            partial.pop("x", None)
            x[...] = func(x, **_only_axes(partial, done, one_axis))
        return result
    return call


def _only_axes(arguments, axes, one_axis):
    """The keyword arguments of a transform over `axes` alone."""
    kwargs = {k: v for k, v in arguments.items()
              if k not in ("n", "s", "shape", "axis", "axes", "plan")}
    if one_axis:
        kwargs["axis"] = axes[0]
    else:
        kwargs["axes"] = tuple(axes)
    return kwargs


def install(module):
    """Gives cupyx.scipy.fft's or cupyx.scipy.fftpack's delegate module
    CuPy's overwrite_x."""
    for name in _COMPLEX:
        setattr(module, name, in_place(name, getattr(module, name)))
