"""cuFFT plans in the fake CuPy: cupy.cuda.cufft.Plan1d and PlanNd,
cupyx.scipy.fftpack.get_fft_plan (also cupyx.scipy.fft.get_fft_plan), the
plan= argument of cupyx.scipy.fftpack's and cupyx.scipy.fft's transforms, and
a plan used as a context manager around cupy.fft's and those transforms.

The transform itself is NumPy's or SciPy's (as cupy.fft is NumPy's here); a
plan only has to fit the call, and it is checked as CuPy checks it
(cupy/fft/_fft.py: _exec_fft, _exec_fftn, _default_fft_func), so a plan made
for another shape, batch, dtype or kind of transform raises CuPy's
ValueError instead of being ignored."""
import functools
import inspect
import threading

import numpy

# cufftType values (cufft.h), as cupy.cuda.cufft names them.
CUFFT_R2C = 0x2a
CUFFT_C2R = 0x2c
CUFFT_C2C = 0x29
CUFFT_D2Z = 0x6a
CUFFT_Z2D = 0x6c
CUFFT_Z2Z = 0x69
CUFFT_FORWARD = -1
CUFFT_INVERSE = 1

_local = threading.local()


def get_current_plan():
    """The plan of the innermost `with plan:` on this thread, or None."""
    return getattr(_local, "plan", None)


class _Plan:
    """What both plan kinds share: the context manager."""

    def __enter__(self):
        _local.plan = self
        return self

    def __exit__(self, *exc):
        _local.plan = None


class Plan1d(_Plan):
    """A batched 1-D plan: `nx` points, `batch` transforms of `fft_type`."""

    def __init__(self, nx, fft_type, batch, *, devices=None, out=None):
        self.nx = int(nx)
        self.fft_type = fft_type
        self.batch = int(batch)
        self.gpus = devices


class PlanNd(_Plan):
    """An N-D plan (up to three axes), with CuPy's constructor arguments;
    `shape` is the transformed axes' lengths (reversed for order 'F')."""

    def __init__(self, shape, inembed, istride, idist, onembed, ostride,
                 odist, fft_type, batch, order, last_axis, last_size):
        self.shape = tuple(shape)
        self.fft_type = fft_type
        self.batch = batch
        self.order = order
        self.last_axis = last_axis
        self.last_size = last_size


def _output_dtype(dtype, value_type):
    dtype = numpy.dtype(dtype)
    if value_type != "R2C":
        if dtype in (numpy.float16, numpy.float32):
            return numpy.dtype(numpy.complex64)
        if dtype not in (numpy.complex64, numpy.complex128):
            return numpy.dtype(numpy.complex128)
    else:
        if dtype in (numpy.complex64, numpy.complex128):
            return numpy.dtype(dtype.char.lower())
        if dtype == numpy.float16:
            return numpy.dtype(numpy.float32)
        if dtype not in (numpy.float32, numpy.float64):
            return numpy.dtype(numpy.float64)
    return dtype


def _fft_type(dtype, value_type):
    types = {("C2C", "F"): CUFFT_C2C, ("C2C", "D"): CUFFT_Z2Z,
             ("R2C", "f"): CUFFT_R2C, ("R2C", "d"): CUFFT_D2Z,
             ("C2R", "F"): CUFFT_C2R, ("C2R", "D"): CUFFT_Z2D}
    try:
        return types[value_type, numpy.dtype(dtype).char]
    except KeyError:
        raise ValueError(f"dtype {dtype} and value_type {value_type!r} do "
                         "not make a cuFFT transform") from None


def _order(a):
    if a.flags.c_contiguous:
        return "C"
    if a.flags.f_contiguous:
        return "F"
    raise ValueError("Input array a must be contiguous")


def _nd_axes(ndim, s, axes, value_type):
    """CuPy's _prep_fftn_axes: the axes as given, and sorted (the last one
    kept last for real transforms)."""
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if axes is None:
        dim = ndim if s is None else len(s)
        axes = tuple(i + ndim for i in range(-dim, 0))
        return axes, axes
    axes = tuple(axes)
    if min(axes) < -ndim or max(axes) > ndim - 1:
        raise ValueError("The specified axes exceed the array dimensions.")
    if value_type == "C2C":
        return axes, tuple(sorted(ax % ndim for ax in axes))
    return axes, tuple(sorted(ax % ndim for ax in axes[:-1])) + \
        (axes[-1] % ndim,)


def _cooked_shape(shape, s, axes, value_type):
    """The input's shape once cut or padded to `s` along `axes`."""
    shape = list(shape)
    for size, ax in zip(s or (), axes):
        if size is not None:
            if ax == axes[-1] and value_type == "C2R":
                size = size // 2 + 1
            shape[ax] = size
    return tuple(shape)


def _out_size(in_shape, s, last_axis, value_type):
    if value_type == "C2R":
        if s is None or s[-1] is None:
            return 2 * (in_shape[last_axis] - 1)
        return s[-1]
    if value_type == "R2C":
        return in_shape[last_axis] // 2 + 1
    return None


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """cupyx.scipy.fftpack.get_fft_plan: a Plan1d for one axis, else a PlanNd
    for up to three axes of the C- or F-contiguous array `a`."""
    order = _order(a)
    if isinstance(shape, int):
        shape = (shape,)
    if isinstance(axes, int):
        axes = (axes,)
    if shape is not None and axes is not None and len(shape) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if axes is None:
        n = a.ndim if shape is None else len(shape)
        axes = tuple(range(-n, 0))
    else:
        n = len(axes)
        if n == 1 and not -a.ndim <= axes[0] < a.ndim:
            raise ValueError(f"The chosen axis ({axes[0]}) exceeds the number "
                             f"of dimensions of a ({a.ndim})")
        if n > 3:
            raise ValueError("Only up to three axes is supported")
    transformed = shape
    shape = _cooked_shape(a.shape, transformed, axes, value_type)
    fft_type = _fft_type(_output_dtype(a.dtype, value_type), value_type)
    if n > 1 and value_type != "C2C" and order == "F":
        raise ValueError("C2R/R2C PlanNd for F-order arrays is not supported")
    if n == 1:
        axis = axes[0]
        out_size = shape[axis] if value_type != "C2R" else \
            _out_size(shape, transformed, axis, value_type)
        batch = int(numpy.prod(shape)) // shape[axis]
        return Plan1d(out_size, fft_type, batch)
    axes, axes_sorted = _nd_axes(len(shape), None, axes, value_type)
    if not _adjacent(axes_sorted, len(shape)):
        raise ValueError("An n-dimensional cuFFT plan could not be created. "
                         "The axes must be contiguous and non-repeating. "
                         "Between one and three axes can be transformed and "
                         "either the first or last axis must be included in "
                         "axes.")
    last = axes_sorted[-1]
    out_size = _out_size(shape, transformed, last, value_type)
    dims = [shape[ax] for ax in axes_sorted]
    if value_type == "C2R":
        dims[-1] = out_size
    if order == "F":
        dims = dims[::-1]
    batch = int(numpy.prod(shape)) // int(numpy.prod([shape[ax] for ax in axes_sorted]))
    return PlanNd(dims, None, 1, 0, None, 1, 0, fft_type, batch, order,
                  last, out_size)


def _check_1d(plan, shape, dtype, axis, value_type, out_size=None):
    """_exec_fft's checks of a plan for one axis of an input of `shape`."""
    if not isinstance(plan, Plan1d):
        raise ValueError("expected plan to have type cufft.Plan1d")
    n = shape[axis]
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if plan.fft_type != _fft_type(dtype, value_type):
        raise ValueError("cuFFT plan dtype mismatch.")
    out_size = n if out_size is None else out_size
    if out_size != plan.nx:
        raise ValueError("Target array size does not match the plan.",
                         out_size, plan.nx)
    if int(numpy.prod(shape)) // n != plan.batch:
        raise ValueError("Batch size does not match the plan.")


def _check_nd(plan, shape, order, dtype, axes, value_type, out_size):
    """_exec_fftn's checks of a plan for the sorted `axes`."""
    if not isinstance(plan, PlanNd):
        raise ValueError("expected plan to have type cufft.PlanNd")
    if order != plan.order:
        raise ValueError(f"array orders mismatch (plan: {plan.order}, "
                         f"input: {order})")
    if order == "C":
        expected = [shape[ax] for ax in axes]
        if value_type == "C2R":
            expected[-1] = out_size
    else:
        expected = [shape[ax] for ax in axes[::-1]]
    expected = tuple(expected)
    if expected != plan.shape:
        raise ValueError("The cuFFT plan and a.shape do not match: plan.shape "
                         f"= {plan.shape}, expected_shape={expected}, "
                         f"a.shape = {tuple(shape)}")
    if plan.fft_type != _fft_type(dtype, value_type):
        raise ValueError("cuFFT plan dtype mismatch.")
    if value_type != "C2C":
        if axes[-1] != plan.last_axis:
            raise ValueError("The last axis for R2C/C2R mismatch")
        if out_size != plan.last_size:
            raise ValueError("The size along the last R2C/C2R axis mismatch")


def check_plan(x, plan, s, axes, value_type, one_axis):
    """Checks `plan` against a transform of `x` along `axes` cut to `s`, as
    CuPy does before it runs a transform with a plan."""
    dtype = _output_dtype(x.dtype, value_type)
    if one_axis or isinstance(plan, Plan1d):
        axes = tuple(axes) if axes is not None else \
            tuple(range(-(len(s) if s is not None else x.ndim), 0))
        s = s if s is not None else (None,) * len(axes)
        shape = list(x.shape)
        for size, ax in zip(s, axes):
            out_size = None
            if value_type == "C2R":
                out_size = size if size is not None else 2 * (shape[ax] - 1)
                size = out_size // 2 + 1
            if size is not None:
                shape[ax] = size
            _check_1d(plan, shape, dtype, ax, value_type, out_size)
        return
    axes, axes_sorted = _nd_axes(x.ndim, s, axes, value_type)
    order = "F" if x.flags.f_contiguous and not x.flags.c_contiguous else "C"
    out_size = _out_size(x.shape, s, axes_sorted[-1], value_type)
    shape = _cooked_shape(x.shape, s, axes, value_type)
    _check_nd(plan, shape, order, dtype, axes_sorted, value_type, out_size)


# For each transform: its value type, whether it works along one axis, and
# the names of its size and axes parameters in the signature it has.
_TRANSFORMS = {
    "fft": ("C2C", True), "ifft": ("C2C", True),
    "fft2": ("C2C", False), "ifft2": ("C2C", False),
    "fftn": ("C2C", False), "ifftn": ("C2C", False),
    "rfft": ("R2C", True), "irfft": ("C2R", True),
    "rfft2": ("R2C", False), "irfft2": ("C2R", False),
    "rfftn": ("R2C", False), "irfftn": ("C2R", False),
    "hfft": ("C2R", True), "ihfft": ("R2C", True),
}


def _size_and_axes(bound, one_axis):
    bound.apply_defaults()       # fft2's axes=(-2, -1)
    args = bound.arguments
    if one_axis:
        n = args.get("n")
        return (None if n is None else (n,)), (args.get("axis", -1),)
    s = args.get("s", args.get("shape"))
    axes = args.get("axes")
    if isinstance(s, int):
        s = (s,)
    if isinstance(axes, int):
        axes = (axes,)
    return (None if s is None else tuple(s)), axes


def with_plan(name, func, takes_plan):
    """`func` (a delegate of NumPy's or SciPy's transform `name`) checking a
    plan first: one given as plan= when `takes_plan` (else plan= stays the
    TypeError of NumPy's signature), or the one of an enclosing `with`."""
    value_type, one_axis = _TRANSFORMS[name]
    signature = inspect.signature(func)
    if name in ("rfft", "irfft") and "norm" not in signature.parameters:
        value_type = None            # fftpack's packed real transforms

    @functools.wraps(func)
    def call(x, *args, **kwargs):
        if value_type == "R2C" and getattr(x, "dtype", None) is not None \
                and x.dtype.kind == "c":
            # CuPy's _convert_dtype takes a complex input of a real
            # transform in its real dtype (the imaginary part is dropped, as
            # astype drops it), where NumPy's and SciPy's refuse it.
            x = x.astype(_output_dtype(x.dtype, "R2C"))
        plan = kwargs.pop("plan", None) if takes_plan else None
        current = get_current_plan()
        if current is not None:
            if plan is not None:
                raise ValueError("Use the cuFFT plan either as a context "
                                 "manager or as an argument.")
            plan = current
        if plan is not None:
            s, axes = _size_and_axes(
                signature.bind_partial(x, *args, **kwargs), one_axis)
            if value_type is None and name == "irfft":
                # fftpack's irfft packs its real input into n//2+1 values.
                n = (s or (None,))[0] or x.shape[axes[0]]
                packed = list(x.shape)
                packed[axes[0]] = n // 2 + 1
                check_plan(_Shaped(packed, _output_dtype(x.dtype, "C2R")),
                           plan, (n,), axes, "C2R", True)
            else:
                check_plan(x, plan, s, axes, value_type or "R2C", one_axis)
        result = func(x, *args, **kwargs)
        if value_type == "C2C" and not one_axis and _fortran_nd(
                x, *_size_and_axes(signature.bind_partial(x, *args, **kwargs),
                                   False)):
            # CuPy's N-D transform writes its output in the input's order.
            import fake_cupy
            result = fake_cupy.asfortranarray(result)
        return result
    if takes_plan and "plan" not in signature.parameters:
        # fftpack's transforms: plan= is CuPy's keyword, taken above.
        params = list(signature.parameters.values())
        at = len(params) - (params and params[-1].kind == params[-1].VAR_KEYWORD)
        params.insert(at, inspect.Parameter("plan", inspect.Parameter.KEYWORD_ONLY,
                                            default=None))
        call.__signature__ = signature.replace(parameters=params)
    return call


def _fortran_nd(x, s, axes):
    """Whether CuPy runs this C2C transform of `x` as one N-D cuFFT plan of
    order 'F' (an F-contiguous input, up to three adjacent axes that take in
    its first or last one), which gives an F-contiguous output."""
    flags = getattr(x, "flags", None)
    if flags is None or not flags.f_contiguous or flags.c_contiguous:
        return False
    try:
        sorted_axes = _nd_axes(x.ndim, s, axes, "C2C")[1]
    except (ValueError, TypeError):
        return False
    return 1 < len(sorted_axes) <= 3 and _adjacent(sorted_axes, x.ndim)


def _adjacent(axes, ndim):
    """CuPy's _nd_plan_is_possible: adjacent, distinct axes that take in the
    first or the last axis."""
    axes = sorted(axes)
    return len(set(axes)) == len(axes) and \
        axes == list(range(axes[0], axes[-1] + 1)) and \
        (axes[0] == 0 or axes[-1] == ndim - 1)


class _Shaped:
    """The shape, dtype and order of an array a transform makes first."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.ndim = len(shape)
        self.dtype = numpy.dtype(dtype)
        self.flags = numpy.empty(0).flags


def install(module, takes_plan):
    """Gives the delegate module of an FFT module (cupy.fft: `takes_plan`
    False; cupyx.scipy.fftpack and cupyx.scipy.fft: True) plan checks, and
    get_fft_plan to the cupyx.scipy ones."""
    for name in _TRANSFORMS:
        func = getattr(module, name, None)
        if func is not None:
            setattr(module, name, with_plan(name, func, takes_plan))
    if takes_plan:
        module.get_fft_plan = get_fft_plan
