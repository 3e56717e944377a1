"""Module-level functions of the fake CuPy: transfers, creation functions
and, through delegation to NumPy, ufuncs, reductions and the rest."""
import functools
import numbers
import types

import numpy

from fake_cupy import _arange, _cupy_keywords, _cupy_names, _memory, \
    _overlap_race, _reduction_keywords, _runtime, _scatter
from fake_cupy._ndarray import ndarray, _call_numpy, _new_from, _wrap_any, \
    _unsupported, _check_ufunc_operand


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """A NumPy copy of a fake array (other objects go through numpy.asarray)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    if hasattr(a, "__cuda_array_interface__"):
        return asarray(a).get()
    result = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = result
        return out
    return result


def _from_cuda_interface(obj):
    desc = obj.__cuda_array_interface__
    mem = _memory.owner_of(desc["data"][0])
    if mem is None:
        raise ValueError("the __cuda_array_interface__ pointer is not fake CuPy memory")
    view = numpy.ndarray(desc["shape"], dtype=numpy.dtype(desc["typestr"]),
                         buffer=mem.block.buffer, offset=desc["data"][0] - mem.ptr,
                         strides=desc.get("strides"))
    return ndarray._wrap(view, mem)


def _nested_device_shape(obj):
    """The shape of a nested list or tuple whose elements are all cupy arrays
    of one shape, else None: CuPy builds such a sequence on the device
    (cupy/_core/core.pyx, _compute_concat_info_impl), and hands any other
    to NumPy, which meets a cupy element's refused implicit conversion."""
    if isinstance(obj, ndarray):
        return obj.shape
    if not isinstance(obj, (list, tuple)) or not obj:
        return None
    shapes = {_nested_device_shape(o) for o in obj}
    if len(shapes) != 1 or None in shapes:
        return None
    return (len(obj),) + shapes.pop()


def _nested_host_copies(obj):
    """`obj` with each cupy array replaced by its host copy."""
    if isinstance(obj, ndarray):
        return obj.get()
    return [_nested_host_copies(o) for o in obj]


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *,
          blocking=False):
    """cupy.array: copies host data (through the pinned pool) or a fake array."""
    if isinstance(obj, ndarray):
        # CuPy's _array_from_cupy_ndarray: astype with the order, then
        # leading axes on a view for ndmin.
        a = obj.astype(obj.dtype if dtype is None else dtype,
                       order="K" if order is None else order, copy=copy)
        if ndmin > a.ndim:
            if a is obj:
                a = a.view()
            a.shape = (1,) * (ndmin - a.ndim) + a.shape
        return a
    if hasattr(obj, "__cuda_array_interface__"):
        return array(_from_cuda_interface(obj), dtype, copy, order, subok, ndmin)
    if _nested_device_shape(obj) is not None:
        obj = _nested_host_copies(obj)
    host = numpy.array(obj, dtype=dtype, order=order, ndmin=ndmin)
    # CuPy's array creation takes host data of its numeric and bool types
    # and structured ones: objects, strings, raw bytes, datetime64 and
    # timedelta64 (kinds M and m, which have no C type there) are refused.
    if host.dtype.kind in "OSUVMm" and host.dtype.fields is None:
        raise ValueError(f"Unsupported dtype {host.dtype}")
    _memory.stage_to_device(host.nbytes)
    return _new_from(host)


def asarray(a, dtype=None, order=None, *, blocking=False):
    """cupy.asarray: the same fake array when nothing changes, else a copy."""
    if isinstance(a, ndarray):
        return array(a, dtype, copy=False, order=order)
    if hasattr(a, "__cuda_array_interface__"):
        return asarray(_from_cuda_interface(a), dtype)
    return array(a, dtype=dtype, copy=False, order=order or "K")


def _in_order(a, dtype, order):
    """CuPy's ascontiguousarray (order 'C') and asfortranarray ('F'): `a`
    itself when it is laid out so and of that dtype, else a copy; a 0-d
    array becomes one of shape (1,) (a view when nothing else changes).
    Their argument is typed: anything but a cupy array (a NumPy array, a
    list) raises Cython's TypeError."""
    if not isinstance(a, ndarray):
        # Cython names the type by its tp_name: "numpy.ndarray", "list".
        name = "numpy.ndarray" if isinstance(a, numpy.ndarray) \
            else type(a).__name__
        raise TypeError("Argument 'a' has incorrect type (expected "
                        f"cupy._core.core._ndarray_base, got {name})")
    laid_out = a.flags.c_contiguous if order == "C" else a.flags.f_contiguous
    if laid_out and (dtype is None or numpy.dtype(dtype) == a.dtype):
        return a.ravel(order) if a.ndim == 0 else a
    host = a._host()
    host = host.reshape(1) if host.ndim == 0 else host
    return _new_from(numpy.asarray(host, dtype=dtype, order=order))


def ascontiguousarray(a, dtype=None):
    return _in_order(a, dtype, "C")


def asfortranarray(a, dtype=None):
    return _in_order(a, dtype, "F")


asanyarray = asarray


def asfarray(a, dtype=numpy.float64):
    """cupy.asfarray (CuPy's `_manipulation/kind.py`, kept by CuPy after
    NumPy 2 removed its own): `a` through asarray in a floating dtype; a
    dtype that is not inexact (an integer's) becomes float64. Host data (a
    list, even of numeric strings read from a file) is copied to the device,
    as asarray copies it."""
    if not numpy.issubdtype(dtype, numpy.inexact):
        dtype = numpy.float64
    return asarray(a, dtype=dtype)


def clip(a, a_min, a_max, out=None):
    """cupy.clip(a, a_min, a_max, out=None) (`_math/misc.py`):
    `a.clip(a_min, a_max, out=out)`, so NumPy 2.1's `min=`/`max=` keywords
    and NumPy's ufunc keywords (`dtype=`, `casting=`) are TypeError, as in
    CuPy, and a list has no `clip` (AttributeError). A value traced by
    cupy.fuse goes to the fusion's clip."""
    from fake_cupy._fusion import _Var
    if isinstance(a, _Var):
        return numpy.clip(a, a_min, a_max, out=out)
    return a.clip(a_min, a_max, out=out)


def reshape(a, newshape, order="C", *, copy=None):
    """cupy.reshape(a, newshape, order='C') (`_manipulation/shape.py`):
    `a.reshape(newshape, order=order)`, so `newshape=` is its keyword (NumPy
    2 renamed it `shape=`, which CuPy refuses) and `a` is not converted (a
    list has no `reshape`). CuPy 14's `copy=` is passed on when given."""
    if copy is None:
        return a.reshape(newshape, order=order)
    return a.reshape(newshape, order=order, copy=copy)


def _creation(name):
    func = getattr(numpy, name)

    @functools.wraps(func)
    def create(*args, **kwargs):
        return _wrap_any(func(*args, **kwargs))
    return create


def _like(name):
    """cupy.empty_like and its kin: the layout as NumPy's PyArray_NewLikeArray
    chooses it (CuPy's _new_like_order_and_strides follows it), so order='K'
    keeps a Fortran-ordered or permuted operand's strides."""
    func = getattr(numpy, name)

    @functools.wraps(func)
    def create(a, *args, **kwargs):
        template = a._host() if isinstance(a, ndarray) else \
            numpy.empty(a.shape, dtype=a.dtype)
        host = func(template, *args, **kwargs)
        out = ndarray(host.shape, host.dtype, strides=host.strides)
        if host.size:
            numpy.copyto(out._a, host)
        return out
    return create


CREATION = {name: _creation(name) for name in
            ("empty", "zeros", "ones", "full", "linspace", "logspace",
             "eye", "identity", "tri", "indices")}
CREATION["arange"] = _arange.arange
CREATION.update({name: _like(name) for name in
                 ("empty_like", "zeros_like", "ones_like", "full_like")})


# NumPy functions that return a Python bool where CuPy returns a 0-d array.
_BOOL_TO_ARRAY = {"allclose", "array_equal", "array_equiv"}


# CuPy's functions that are `return a.METHOD(...)` of their first argument,
# which therefore also take a NumPy array (cupy.sum(numpy_array) is its
# .sum()); the others refuse NumPy arrays.
_METHOD_STYLE = {
    "sum": "sum", "prod": "prod", "max": "max", "amax": "max", "min": "min",
    "amin": "min", "mean": "mean", "var": "var", "std": "std", "all": "all",
    "any": "any", "argmax": "argmax", "argmin": "argmin", "clip": "clip",
    "ptp": "ptp", "trace": "trace", "diagonal": "diagonal", "nonzero": "nonzero",
    "dot": "dot", "transpose": "transpose", "swapaxes": "swapaxes",
    "squeeze": "squeeze",
}

# CuPy's products that begin by reading an attribute of each operand
# (cupy/linalg/_product.py: tensordot, inner and kron `a.ndim`, kron after
# sending numbers to multiply; vdot `a.size`; outer `a.ravel()`): a list or
# a Python number raises AttributeError where NumPy converts it.
# So do nancumsum and nancumprod (cupy/_math/sumprod.py: _replace_nan reads
# `a.dtype`) and nanmedian, nanmean, nanvar and nanstd
# (cupy/_statistics/meanvar.py tests `a.dtype`), of their one operand. Each entry: the attribute, and how many
# operands are read.
_READS_ATTRIBUTE = {"tensordot": ("ndim", 2), "inner": ("ndim", 2),
                    "kron": ("ndim", 2), "vdot": ("size", 2),
                    "outer": ("ravel", 2), "nancumsum": ("dtype", 1),
                    "nancumprod": ("dtype", 1), "nanmedian": ("dtype", 1),
                    "nanmean": ("dtype", 1), "nanvar": ("dtype", 1),
                    "nanstd": ("dtype", 1)}

# CuPy functions that hand an operand to a Cython routine typed as an
# ndarray (moveaxis's `a`; dot is `a.dot(b, out)`, whose `b` is typed;
# cumsum and cumprod call _math.scan_core(a, ...); median is Cython's
# _median(a, ...)): any other object raises TypeError "Argument 'a' has
# incorrect type".
_NDARRAY_TYPED = {"moveaxis": ((0, "a"),), "dot": ((1, "b"),),
                  "cumsum": ((0, "a"),), "cumprod": ((0, "a"),),
                  "median": ((0, "a"),)}

# CuPy's rounding functions begin with `a = _core.array(a, copy=False)`: a
# NumPy array, a list or a scalar is copied to the device first.
_CONVERTS_FIRST = {"round", "around", "round_"}


def _part(name):
    """cupy.real and cupy.imag (cupy/_math/arithmetic.py): anything but a
    cupy array (a NumPy array, a list, a scalar) is copied to the device,
    then the array's own property answers: `real` is the array itself when
    it is not complex and a view of the real parts when it is; `imag` a view
    of the imaginary parts, or zeros. A value traced by cupy.fuse has both."""
    def part(val):
        from fake_cupy._fusion import _Var
        if not isinstance(val, (ndarray, _Var)):
            val = asarray(val)
        return getattr(val, name)
    part.__name__ = part.__qualname__ = name
    part.__doc__ = f"Returns the {name} part of the elements of the array (CuPy's {name})."
    return part


real = _part("real")
imag = _part("imag")

# CuPy's atleast_Nd call cupy.asarray on each argument, and hstack, vstack
# and dstack pass each item of their sequence through them: host data is
# copied to the device.
_CONVERTS_EACH_ARG = {"atleast_1d", "atleast_2d", "atleast_3d"}
_CONVERTS_EACH_ITEM = {"hstack", "vstack", "dstack"}


# CuPy's functions that begin with `_util.check_array(a, arg_name='a')`:
# anything but a cupy.ndarray (a NumPy array, a scalar, a list) is refused.
_ARRAY_ONLY = {"all", "any", "nonzero", "flatnonzero", "argwhere"}


def _check_array(args, kwargs):
    """CuPy's check_array on the first argument `a` (a value traced by
    cupy.fuse passes, as CuPy checks only outside a fusion)."""
    from fake_cupy._fusion import _Var
    a = args[0] if args else kwargs.get("a")
    if not isinstance(a, (ndarray, _Var)):
        raise TypeError(f"'a' must be a cupy.ndarray object, not {type(a)}")


def _check_operand_attribute(name, reads, args):
    """CuPy's first look at its operands a and b, or a (_READS_ATTRIBUTE)."""
    attr, count = reads
    for operand in args[:count]:
        if name == "kron" and isinstance(operand, numbers.Number):
            continue
        if not _is_array(operand) and not hasattr(operand, attr):
            raise AttributeError(f"'{type(operand).__name__}' object has no "
                                 f"attribute '{attr}'")


def _check_tensordot_axes(args, kwargs):
    """CuPy's tensordot of a 0-d operand: cupy.multiply when axes is 0 (or
    ((), ())), ValueError for any other axes (NumPy's is IndexError)."""
    a, b = args[0], args[1]
    axes = args[2] if len(args) > 2 else kwargs.get("axes", 2)
    if (a.ndim == 0 or b.ndim == 0) and axes != 0 and axes != ((), ()):
        raise ValueError("An input is zero-dim while axes has dimensions")


def _check_ndarray_typed(positions, args):
    """The type check of a Cython routine's ndarray parameters."""
    for index, param in positions:
        if index < len(args) and not isinstance(args[index], numpy.ndarray) \
                and not _is_array(args[index]):
            # Cython names the type as its tp_name: "list", "numpy.int64".
            kind = type(args[index])
            kind = kind.__name__ if kind.__module__ == "builtins" else \
                f"{kind.__module__}.{kind.__name__}"
            raise TypeError(f"Argument '{param}' has incorrect type (expected "
                            f"cupy._core.core._ndarray_base, got {kind})")


def _check_host_operands(error, args, kwargs):
    """Raises error() for a NumPy array among the arguments (or the items
    of a tuple or list argument): the check some CuPy functions begin with,
    such as cupy.linalg's _assert_cupy_array (LinAlgError), in place of
    the fake's generic TypeError."""
    for arg in args + tuple(kwargs.values()):
        items = arg if isinstance(arg, (tuple, list)) else (arg,)
        if any(isinstance(item, numpy.ndarray) for item in items):
            raise error()


def _check_concatenate_items(args, kwargs):
    """CuPy's concatenate makes each item a kernel argument (a list, a tuple
    or a NumPy array raises 'Unsupported type'), then requires arrays (a
    scalar raises 'Only cupy arrays can be concatenated')."""
    items = args[0] if args else kwargs.get("arrays", ())
    for item in items:
        if isinstance(item, numpy.ndarray):
            continue              # refused by the usual unwrapping
        _check_ufunc_operand(item)
        if not _is_array(item):
            raise TypeError("Only cupy arrays can be concatenated")


def _is_array(obj):
    """A cupy array, a value traced by cupy.fuse, or an object CuPy
    converts (__cuda_array_interface__)."""
    from fake_cupy._fusion import _Var
    return isinstance(obj, (ndarray, _Var)) or \
        hasattr(type(obj), "__cuda_array_interface__")


# The keywords of CuPy's ufunc.__call__ (cupy/_core/_kernel.pyx); `_where`
# is its private form of NumPy's `where`.
_UFUNC_KEYWORDS = ("out", "dtype", "casting", "_where")


def _ufunc_keywords(kwargs):
    """NumPy's keywords for a call of a CuPy ufunc with `kwargs`: another
    keyword than CuPy's (NumPy's order=, where=, subok=, ...) raises CuPy's
    TypeError('Wrong arguments {...}')."""
    wrong = {k: v for k, v in kwargs.items() if k not in _UFUNC_KEYWORDS}
    if wrong:
        raise TypeError("Wrong arguments %s" % wrong)
    kwargs = dict(kwargs)
    if "_where" in kwargs:
        kwargs["where"] = kwargs.pop("_where")
    return kwargs


def _given_outputs(func, args, kwargs, result):
    """What a CuPy ufunc returns: the output arrays given (positionally or
    as `out`) are returned themselves, as CuPy's ufunc returns its output
    arguments, rather than new arrays viewing them."""
    given = kwargs.get("out")
    if given is None:
        given = args[func.nin:]
    elif not isinstance(given, tuple):
        given = (given,)
    if len(given) != func.nout or \
            not all(isinstance(o, ndarray) for o in given):
        return result
    return given[0] if func.nout == 1 else tuple(given)


def delegate(func):
    """A CuPy-style function from a NumPy one: fake arrays in, fake arrays
    out (NumPy scalars become 0-d arrays), NumPy arrays refused (but see
    _METHOD_STYLE and _ARRAY_ONLY)."""
    to_array = getattr(func, "__name__", "") in _BOOL_TO_ARRAY
    array_only = getattr(func, "__name__", "") in _ARRAY_ONLY and \
        getattr(func, "__module__", "") == "numpy"
    method = _METHOD_STYLE.get(getattr(func, "__name__", ""))
    numpy_function = getattr(func, "__module__", "") == "numpy"
    reads_attribute = numpy_function and \
        _READS_ATTRIBUTE.get(getattr(func, "__name__", ""))
    ndarray_typed = _NDARRAY_TYPED.get(getattr(func, "__name__", "")) \
        if numpy_function else None
    converts_first = numpy_function and \
        getattr(func, "__name__", "") in _CONVERTS_FIRST
    name = getattr(func, "__name__", "")
    concatenates = numpy_function and name == "concatenate"
    converts_args = numpy_function and name in _CONVERTS_EACH_ARG
    converts_items = numpy_function and name in _CONVERTS_EACH_ITEM
    column_stacks = numpy_function and name == "column_stack"
    reduction = numpy_function and name in _overlap_race.REDUCTIONS
    # A ufunc's inputs are cupy arrays or scalars (its outputs may be None).
    inputs = func.nin if isinstance(func, numpy.ufunc) else 0
    # An elementwise ufunc (not a generalized one such as matmul) is one of
    # CuPy's ufuncs: its keywords and its new outputs' layout are CuPy's.
    elementwise = inputs and func.signature is None
    # The exception a NumPy operand raises, where the function names one.
    host_operand_error = getattr(func, "host_operand_error", None)

    @functools.wraps(func)
    def call(*args, **kwargs):
        if numpy_function:
            _reduction_keywords.check(name, kwargs)
        if host_operand_error is not None:
            _check_host_operands(host_operand_error, args, kwargs)
        if array_only:
            _check_array(args, kwargs)
        for arg in args[:inputs]:
            _check_ufunc_operand(arg)
        if inputs and _overlap_race.race_checked():
            _check_ufunc_outputs(name, args[inputs:], kwargs.get("out"))
        if reduction:
            _overlap_race.check_reduction_call(name, args, kwargs)
        if concatenates:
            _check_concatenate_items(args, kwargs)
        if converts_args:
            args = tuple(a if _is_array(a) else asarray(a) for a in args)
        if converts_items and args:
            args = ([a if _is_array(a) else asarray(a) for a in args[0]],) + args[1:]
        if column_stacks and args and not all(isinstance(a, ndarray) for a in args[0]):
            raise TypeError("Only cupy arrays can be column stacked")
        if converts_first and args and not _is_array(args[0]):
            args = (asarray(args[0]),) + args[1:]
        if method and args and isinstance(args[0], numpy.ndarray) and \
                hasattr(args[0], method):
            return getattr(args[0], method)(*args[1:], **kwargs)
        if method and numpy_function and args and not _is_array(args[0]):
            # As CuPy's `return a.METHOD(...)`: a NumPy scalar answers with
            # its own method, a list or a Python number has none
            # (AttributeError: 'list' object has no attribute 'sum').
            return getattr(args[0], method)(*args[1:], **kwargs)
        if reads_attribute:
            _check_operand_attribute(name, reads_attribute, args)
            if name == "tensordot" and len(args) >= 2:
                _check_tensordot_axes(args, kwargs)
        if ndarray_typed:
            _check_ndarray_typed(ndarray_typed, args)
        if elementwise:
            result = _call_numpy(func, args, _ufunc_keywords(kwargs),
                                 c_order=True)
            return _given_outputs(func, args, kwargs, result)
        result = _call_numpy(func, args, kwargs)
        return _new_from(numpy.asarray(result)) if to_array else result
    if isinstance(func, numpy.ufunc):
        # A ufunc's methods (at works in place on the array's memory) and
        # attributes, as CuPy's ufuncs have them.
        for ufunc_method in ("at", "reduce", "accumulate", "outer", "reduceat"):
            if ufunc_method == "at" and name in _scatter.UFUNC_OPS:
                # CuPy's scatter operations: its dtypes and index wrapping.
                call.at = _scatter.ufunc_at(name)
            elif name in _UFUNC_METHODS.get(ufunc_method, (name,)):
                setattr(call, ufunc_method, delegate(getattr(func, ufunc_method)))
            else:
                setattr(call, ufunc_method, _unsupported_ufunc_method(name, ufunc_method))
        for attr in ("nin", "nout", "nargs", "ntypes", "types", "identity"):
            setattr(call, attr, getattr(func, attr))
    return call


def _check_ufunc_outputs(name, positional, out):
    """Racecheck of a ufunc's output arrays (see _overlap_race)."""
    outs = tuple(positional) + (out if isinstance(out, tuple) else (out,))
    for o in outs:
        if isinstance(o, ndarray):
            _overlap_race.check_output(o._a, "cupy." + name)


# The ufuncs whose methods CuPy 13 implements (cupy/_core/_kernel.pyx): `at`
# for those created with a scatter_op (cupy/_core/_routines_math.pyx and
# _routines_logic.pyx), reduce and accumulate as sum/prod and cumsum/cumprod,
# reduceat as add's; `outer` for every ufunc. The others raise
# NotImplementedError, where NumPy's ufuncs have them all.
_UFUNC_METHODS = {
    "at": tuple(_scatter.UFUNC_OPS),
    "reduce": ("add", "multiply"),
    "accumulate": ("add", "multiply"),
    "reduceat": ("add",),
}


def _unsupported_ufunc_method(name, method):
    # CuPy names its ufuncs cupy_NAME; cupy.divide is its true_divide.
    cupy_name = "cupy_" + ("true_divide" if name == "divide" else name)

    def unsupported(*args, **kwargs):
        raise NotImplementedError(f"`{cupy_name}.{method}` is not supported yet")
    unsupported.__name__ = method
    return unsupported


class _GridMaker:
    """cupy.mgrid and cupy.ogrid: NumPy's, with cupy arrays out."""

    def __init__(self, numpy_grid):
        self._grid = numpy_grid

    def __getitem__(self, key):
        return _wrap_any(self._grid[key])


class _Concatenator:
    """cupy.r_ and cupy.c_ as CuPy's AxisConcatenator: items are cupy
    arrays, scalars or array-likes (converted); slices and strings raise
    NotImplementedError, as in CuPy."""

    def __init__(self, numpy_concatenator):
        self._concatenator = numpy_concatenator

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        host = []
        for item in items:
            if isinstance(item, (slice, str)):
                raise NotImplementedError
            host.append(item._host() if isinstance(item, ndarray)
                        else numpy.asarray(item) if not numpy.isscalar(item)
                        else item)
        return _new_from(numpy.asarray(self._concatenator[tuple(host)]))


INDEX_TRICKS = {"mgrid": _GridMaker(numpy.mgrid),
                "ogrid": _GridMaker(numpy.ogrid),
                "r_": _Concatenator(numpy.r_), "c_": _Concatenator(numpy.c_)}


def delegate_module(name, module, cupy_name=None, signatures=None):
    """A module whose functions are delegates of `module`'s; with
    `cupy_name` ('cupy.fft'), only the names CuPy's module of that name has
    (_cupy_names), others raising CuPy's AttributeError. The functions take
    the keywords of CuPy's module `signatures` (default `cupy_name`) only
    (_cupy_keywords.py)."""
    proxy = types.ModuleType(name, f"Fake CuPy's {name}: delegates of {module.__name__}.")
    # The proxy has no file of its own (else `module`'s would be reported).
    proxy.__file__ = None
    signatures = signatures or cupy_name

    def getattr_(attr):
        if cupy_name is not None:
            _cupy_names.check(cupy_name, attr)
        value = getattr(module, attr)
        if callable(value) and not isinstance(value, type):
            value = delegate(value)
            if signatures is not None:
                value = _cupy_keywords.checked(signatures, attr, value)
        setattr(proxy, attr, value)
        return value
    proxy.__getattr__ = getattr_
    return proxy


def get_array_module(*args):
    """cupy.get_array_module: the fake module when a fake array is among
    the arguments, else numpy."""
    import fake_cupy
    from fake_cupy._fusion import _Var
    for a in args:
        if isinstance(a, (ndarray, _Var)):     # a value traced by cupy.fuse
            return fake_cupy
    return numpy


def is_available():
    return True


def synchronize():
    _runtime.synchronize_all()
