"""The arguments, dtypes and layouts of cupy.fft's and cupyx.scipy.fft's
transforms as CuPy's (cupy/fft/_fft.py, cupyx/scipy/fft/_fft.py), over the
NumPy and SciPy transforms the fake delegates to (see _fft_plan and
_fft_overwrite for plans and overwrite_x):

- CuPy's signatures: cupy.fft's `fft(a, n=None, axis=-1, norm=None)` has
  no `out=` (NumPy 2's), cupyx.scipy.fft's `fft(x, n, axis, norm,
  overwrite_x, *, plan)` no `workers=` (SciPy's), `fftfreq(n, d=1.0)` no
  `device=` or `xp=`: such a keyword is Python's TypeError;
- the input must be a cupy.ndarray (`TypeError: The input array a must be a
  cupy.ndarray`; the N-D transforms read `a.ndim` first and hfft calls
  `a.conj()` first, so a list raises AttributeError there), and `norm` is
  checked with CuPy's message;
- the output dtype is CuPy's: the input is converted first, and the
  transform computed in that precision (float16 and float32 to complex64
  for complex and inverse real transforms, to float32 for forward real
  ones; other non-complex types to double precision), so irfft and hfft of
  float16 give float32 where NumPy gave float16;
- a complex transform over no axes returns the input array itself;
- NumPy 2's DeprecationWarnings for `s` without `axes` and for None in `s`
  are not given: CuPy takes both (the last len(s) axes; None keeps an
  axis's length), and the fake passes NumPy the axes and sizes they mean
  (no warning filter, which would not be thread-safe);
- the layout is CuPy's: a transform along one axis at a time swaps that
  axis last, transforms a C-contiguous array and swaps back, so the result
  of `fft(a, axis=0)` is a transposed view, not C-contiguous (the last
  axis transformed decides it). An N-D transform CuPy runs as one cuFFT
  plan (up to three adjacent axes taking in the first or the last one,
  cupy.fft.config.enable_nd_planning on) keeps C order (F order: see
  _fft_plan);
- fftfreq and rfftfreq are computed as CuPy's, in float64 on the device
  (a cupy 0-d spacing gives a cupy array); fftshift and ifftshift copy
  their input to the device first (a NumPy array or a list is taken);
- cupyx.scipy.fftpack's complex transforms are checked the same way, with
  its own signatures (`shape=`, no `norm`); its packed rfft and irfft take
  CuPy's arguments (irfft no `plan=`);
- cupyx.scipy.fft's DCTs and DSTs take CuPy's arguments (no `workers=` or
  `orthogonalize=`) and its types (2 and 3; 1 and 4 NotImplementedError)."""
import functools
import inspect

import numpy

from fake_cupy import _fft_config, _fft_plan

# Each transform: its value type and whether it works along one axis
# (_fft_plan's table).
_TRANSFORMS = _fft_plan._TRANSFORMS


def _signature(name, one_axis, style):
    """CuPy's signature of transform `name` in cupy.fft (`style` "numpy"),
    cupyx.scipy.fft ("scipy") or cupyx.scipy.fftpack ("fftpack": no norm,
    `shape` for `s`, a positional plan, none for irfft)."""
    P = inspect.Parameter
    first = "a" if style == "numpy" else "x"
    params = [P(first, P.POSITIONAL_OR_KEYWORD)]
    if one_axis:
        params += [P("n", P.POSITIONAL_OR_KEYWORD, default=None),
                   P("axis", P.POSITIONAL_OR_KEYWORD, default=-1)]
    else:
        axes = (-2, -1) if name.endswith("2") else None
        params += [P("shape" if style == "fftpack" else "s",
                     P.POSITIONAL_OR_KEYWORD, default=None),
                   P("axes", P.POSITIONAL_OR_KEYWORD, default=axes)]
    if style != "fftpack":
        params.append(P("norm", P.POSITIONAL_OR_KEYWORD, default=None))
    if style != "numpy":
        params.append(P("overwrite_x", P.POSITIONAL_OR_KEYWORD, default=False))
    if style == "scipy":
        params.append(P("plan", P.KEYWORD_ONLY, default=None))
    elif style == "fftpack" and name != "irfft":
        params.append(P("plan", P.POSITIONAL_OR_KEYWORD, default=None))
    return inspect.Signature(params)


def _call(func, bound):
    """func called with the bound arguments, all but the array by name
    (the delegate's own signature may order or hold them otherwise)."""
    args = iter(bound.arguments.items())
    first = next(args)[1]
    return func(first, **dict(args))


def _bind(name, signature, args, kwargs):
    """The arguments bound to CuPy's signature; a keyword it lacks is
    Python's TypeError, as CuPy's functions raise it."""
    for key in kwargs:
        if key not in signature.parameters:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return bound


def _converted_dtype(dtype, value_type):
    """CuPy's _output_dtype: the dtype the input is converted to."""
    return numpy.dtype(_fft_plan._output_dtype(dtype, value_type))


def _result_dtype(dtype, value_type):
    """The dtype of CuPy's result for an input of `dtype`."""
    converted = _converted_dtype(dtype, value_type)
    if value_type == "R2C":
        return numpy.result_type(converted, numpy.complex64)
    if value_type == "C2R":
        return numpy.dtype(converted.char.lower())
    return converted


def _sequence(value):
    """cupyx.scipy.fft's _assequence: a number becomes a 1-tuple."""
    if value is None or isinstance(value, (tuple, list)):
        return value
    return (value,)


def _explicit_sizes(shape, s, axes, value_type):
    """`s` and `axes` as CuPy reads them (_prep_fftn_axes, _cook_shape):
    without `axes`, the last len(s) axes; a None in `s` keeps that axis's
    length (for the last axis of an inverse real transform, the output
    length 2 * (m - 1) its input implies)."""
    if axes is None:
        axes = tuple(range(-len(s), 0))
    axes = tuple(axes)
    sizes = []
    for i, (size, axis) in enumerate(zip(s, axes)):
        if size is None:
            size = shape[axis]
            if value_type == "C2R" and i == len(axes) - 1:
                size = 2 * (size - 1)
        sizes.append(size)
    return tuple(sizes), axes


def _last_axis_done_alone(x, s, axes, value_type, one_axis, plan):
    """The axis CuPy transforms last when it goes one axis at a time
    (_fft), or None when it uses one N-D plan (_fftn) whose output keeps
    the input's order (_default_fft_func)."""
    ndim = x.ndim
    if one_axis:
        return axes[0] % ndim
    plan = plan or _fft_plan.get_current_plan()
    if isinstance(plan, _fft_plan.PlanNd):
        return None
    nd_possible = False
    if not isinstance(plan, _fft_plan.Plan1d) and ndim > 1 and \
            _fft_config.enable_nd_planning and \
            not (x.flags.f_contiguous and value_type != "C2C"):
        try:
            sorted_axes = _fft_plan._nd_axes(ndim, s, axes, value_type)[1]
        except (ValueError, TypeError):
            return None
        nd_possible = 1 < len(sorted_axes) <= 3 and \
            _fft_plan._adjacent(sorted_axes, ndim)
    if nd_possible:
        return None
    if axes is None:
        axes = tuple(range(-(len(s) if s is not None else ndim), 0))
    axes = tuple(axes)
    if value_type == "R2C" and len(axes) > 1:
        return axes[-2] % ndim
    return axes[-1] % ndim


def _cufft_layout(result, axis):
    """`result` laid out as CuPy leaves a transform along `axis` done
    alone: C order with that axis swapped last, swapped back."""
    import fake_cupy
    if axis is None or axis == result.ndim - 1:
        return result
    swapped = fake_cupy.ascontiguousarray(result.swapaxes(axis, -1))
    return swapped.swapaxes(axis, -1)


def cupy_transform(name, func, style):
    """`func` (the fake's transform `name`, a delegate of NumPy's or
    SciPy's) taking CuPy's arguments and giving CuPy's dtype and layout."""
    value_type, one_axis = _TRANSFORMS[name]
    signature = _signature(name, one_axis, style)
    first = next(iter(signature.parameters))

    @functools.wraps(func)
    def call(*args, **kwargs):
        from fake_cupy import ndarray
        bound = _bind(name, signature, args, kwargs)
        x = bound.arguments[first]
        if name == "hfft":
            x.conj                                   # CuPy: irfft(a.conj())
        elif not one_axis:
            x.ndim                                   # _default_fft_func
        if not isinstance(x, ndarray):
            raise TypeError("The input array a must be a cupy.ndarray")
        if one_axis:
            s, axes = (bound.arguments["n"],), (bound.arguments["axis"],)
        else:
            s = _sequence(bound.arguments.get("s", bound.arguments.get("shape")))
            axes = _sequence(bound.arguments["axes"])
        if axes is not None and len(tuple(axes)) == 0:
            if value_type == "C2C":
                return x
            raise IndexError("list index out of range")
        norm = bound.arguments.get("norm")
        if norm not in (None, "backward", "ortho", "forward"):
            raise ValueError(f'Invalid norm value {norm}, should be '
                             '"backward", "ortho", or "forward".')
        converted = _converted_dtype(x.dtype, value_type)
        if converted != x.dtype:
            # CuPy's _convert_dtype: the transform is computed in the
            # converted precision (float16 as complex64 or float32).
            bound.arguments[first] = x.astype(converted)
        if not one_axis and s is not None:
            # What CuPy does with `s` without `axes` and with None in `s`,
            # spelled out so that NumPy 2 does not deprecate it.
            sizes_key = "shape" if "shape" in bound.arguments else "s"
            bound.arguments[sizes_key], bound.arguments["axes"] = \
                _explicit_sizes(x.shape, s, axes, value_type)
        result = _call(func, bound)
        if result is x:                             # overwrite_x in place
            return result
        dtype = _result_dtype(x.dtype, value_type)
        if result.dtype != dtype:
            result = result.astype(dtype)
        axis = _last_axis_done_alone(x, s if not one_axis else None, axes,
                                     value_type, one_axis,
                                     bound.arguments.get("plan"))
        return _cufft_layout(result, axis)
    call.__signature__ = signature
    return call


# cupyx.scipy.fft's real-to-real transforms (cupyx/scipy/fft/_realtransforms.py):
# each one's family, in the messages CuPy gives for the types it lacks.
_REAL_TRANSFORMS = {"dct": "DCT", "idct": "DCT", "dst": "DST", "idst": "DST",
                    "dctn": "DCT", "idctn": "DCT", "dstn": "DST",
                    "idstn": "DST"}


def _real_signature(name):
    """CuPy's `dct(x, type=2, n=None, axis=-1, norm=None,
    overwrite_x=False)` and `dctn(x, type=2, s=None, axes=None, ...)`:
    SciPy's `workers=` and `orthogonalize=` are not among them."""
    P = inspect.Parameter
    sizes = ("s", "axes") if name.endswith("n") else ("n", "axis")
    return inspect.Signature([
        P("x", P.POSITIONAL_OR_KEYWORD),
        P("type", P.POSITIONAL_OR_KEYWORD, default=2),
        P(sizes[0], P.POSITIONAL_OR_KEYWORD, default=None),
        P(sizes[1], P.POSITIONAL_OR_KEYWORD,
          default=None if name.endswith("n") else -1),
        P("norm", P.POSITIONAL_OR_KEYWORD, default=None),
        P("overwrite_x", P.POSITIONAL_OR_KEYWORD, default=False)])


def cupy_real_transform(name, func):
    """`func` (SciPy's DCT or DST `name` as a delegate) with CuPy's
    signature and types: CuPy computes types 2 and 3 only, types 1 and 4
    are NotImplementedError, others ValueError; the input's dtype is read
    first (a list raises AttributeError)."""
    signature = _real_signature(name)
    family = _REAL_TRANSFORMS[name]

    @functools.wraps(func)
    def call(*args, **kwargs):
        bound = _bind(name, signature, args, kwargs)
        x = bound.arguments["x"]
        x.dtype                                      # CuPy: x.dtype.kind
        kind = bound.arguments["type"]
        axes = bound.arguments.get("axes", ())
        if not (name.endswith("n") and axes is not None and
                len(_sequence(axes)) == 0):
            if kind in (1, 4):
                raise NotImplementedError(
                    f"Only {family}-II and {family}-III have been implemented.")
            if kind not in (2, 3):
                raise ValueError(f"invalid {family} type")
        return _call(func, bound)
    call.__signature__ = signature
    return call


def fftfreq(n, d=1.0):
    """cupy.fft.fftfreq: the sample frequencies, float64 on the device."""
    import fake_cupy as cupy
    counts = cupy.concatenate((
        cupy.arange(0, (n - 1) // 2 + 1, dtype=numpy.float64),
        cupy.arange(-(n // 2), 0, dtype=numpy.float64)))
    return counts / (n * d)


def rfftfreq(n, d=1.0):
    """cupy.fft.rfftfreq: the non-negative sample frequencies."""
    import fake_cupy as cupy
    return cupy.arange(0, n // 2 + 1, dtype=numpy.float64) / (n * d)


def _shift(x, axes, sign):
    import fake_cupy as cupy
    x = cupy.asarray(x)
    if axes is None:
        axes = range(x.ndim)
    elif isinstance(axes, (int, numpy.integer)):
        axes = (axes,)
    for axis in axes:
        x = cupy.roll(x, sign * (x.shape[axis] // 2), axis)
    return x


def fftshift(x, axes=None):
    """cupy.fft.fftshift: the zero frequency moved to the centre."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """cupy.fft.ifftshift: fftshift undone."""
    return _shift(x, axes, -1)


def packed_real_transform(name, func):
    """cupyx.scipy.fftpack's rfft and irfft (SciPy's packed real format)
    with CuPy's signatures: they read `x.shape` first (a list raises
    AttributeError); rfft transforms a cupy.ndarray only, irfft copies a
    NumPy array into the device array it builds."""
    signature = _signature(name, True, "fftpack")

    @functools.wraps(func)
    def call(*args, **kwargs):
        import fake_cupy
        bound = _bind(name, signature, args, kwargs)
        x = bound.arguments["x"]
        x.shape                                      # CuPy: x.shape[axis]
        if not isinstance(x, fake_cupy.ndarray):
            if name == "rfft":
                raise TypeError("The input array a must be a cupy.ndarray")
            bound.arguments["x"] = fake_cupy.asarray(x)
        return _call(func, bound)
    call.__signature__ = signature
    return call


def install(module, style):
    """Gives cupy.fft (`style` "numpy"), cupyx.scipy.fft ("scipy") or
    cupyx.scipy.fftpack ("fftpack") CuPy's arguments, dtypes and layouts."""
    if style == "fftpack":
        for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn"):
            setattr(module, name,
                    cupy_transform(name, getattr(module, name), style))
        for name in ("rfft", "irfft"):
            setattr(module, name,
                    packed_real_transform(name, getattr(module, name)))
        return
    for name in _TRANSFORMS:
        setattr(module, name,
                cupy_transform(name, getattr(module, name), style))
    for func in (fftfreq, rfftfreq, fftshift, ifftshift):
        setattr(module, func.__name__, func)
    if style == "scipy":
        for name in _REAL_TRANSFORMS:
            setattr(module, name, cupy_real_transform(name, getattr(module, name)))
