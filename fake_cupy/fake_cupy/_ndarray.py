"""The fake cupy.ndarray: a NumPy array over pool memory, strictly apart.

Every operation runs through NumPy on the host and its result is wrapped
again: a view of an operand keeps that operand's memory, anything else is
copied into a fresh pool allocation (so that used_bytes and addresses
behave as on a GPU). What CuPy refuses is refused: implicit conversion to
NumPy (numpy.asarray, numpy functions on a mix) and NumPy array operands.

As CuPy's kernels, the operations emit no NumPy floating-point warning
(0/0, log(0), an overflow or a cast of nan give their IEEE result
silently): every NumPy call on device arrays goes through _run_numpy.

Where the fake differs from CuPy: operations run synchronously on the host
(in deferred mode, queued kernels are run first); dtypes CuPy lacks
(strings) are not refused. An object dtype is refused (ValueError
"Unsupported dtype object", as CuPy's array creation): device memory cannot
hold Python references.
"""
import numbers
import types
import warnings

import numpy

from fake_cupy import _memory, _runtime
from fake_cupy import _index_wrap, _overlap_race
from fake_cupy._index_wrap import wrap_integer_indices
from fake_cupy import _empty_statistics, _float_to_int, _integral_power, \
    _reduction_keywords, _scalar_promotion

# The ufuncs whose 0-d NumPy array operands CuPy's __array_ufunc__ takes
# as scalars.
# CuPy dispatches a NumPy function or ufunc called on its arrays
# (numpy.sign(x), numpy.angle(x)) to its own of the same name; where the
# fake's differs from NumPy's, fake_cupy/__init__.py registers it here.
CUPY_FORMS = {}

_COMPARISONS = frozenset(("greater", "greater_equal", "less", "less_equal",
                          "equal", "not_equal"))
_NO_NUMPY = ("Implicit conversion to a NumPy array is not allowed. "
             "Please use `.get()` to construct a NumPy array explicitly.")


def _unsupported(obj):
    return TypeError(f"Unsupported type {type(obj)}")


def _check_ufunc_operand(obj):
    """CuPy's ufuncs (and the arithmetic operators, which call them) take a
    cupy array or a scalar: a list, a tuple, None or a string raises CuPy's
    TypeError, as "Universal functions only work with cupy.array or scalar"
    (no implicit copy of host data to the device). NumPy arrays and objects
    with __cuda_array_interface__ are left to the usual conversion, a value
    traced by cupy.fuse passes."""
    if isinstance(obj, (ndarray, numbers.Number, numpy.generic, numpy.ndarray)) \
            or hasattr(type(obj), "__cuda_array_interface__"):
        return
    from fake_cupy._fusion import _Var
    if not isinstance(obj, _Var):
        raise _unsupported(obj)


class ndarray:
    """cupy.ndarray(shape, dtype=float, memptr=None, strides=None,
    order='C')."""

    __slots__ = ("_a", "_mem", "_base", "__weakref__")
    __array_priority__ = 100
    # ndarray[Any, numpy.dtype[T]] in annotations, as CuPy's (cupy.typing).
    __class_getitem__ = classmethod(types.GenericAlias)

    def __init__(self, shape, dtype=float, memptr=None, strides=None,
                 order="C"):
        dtype = numpy.dtype(dtype)
        _check_no_references(dtype)
        if isinstance(shape, numbers.Integral):
            shape = (int(shape),)
        shape = tuple(int(s) for s in shape)
        nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
        if memptr is None:
            memptr = _memory.alloc(nbytes)
        if order not in ("C", "F"):
            raise ValueError("order not understood")
        offset = memptr.ptr - memptr.mem.ptr if memptr.mem.ptr else 0
        self._mem = memptr.mem
        # An array made by the constructor owns its memory as far as CuPy
        # tells (base None, flags.owndata), even over another's memptr.
        self._base = None
        self._a = _view_of(memptr.mem, offset, shape, dtype, strides, order)

    # ---- construction from NumPy results -------------------------------
    @classmethod
    def _wrap(cls, array, mem, base=None):
        self = cls.__new__(cls)
        self._a = array
        self._mem = mem
        self._base = base
        return self

    # ---- attributes ------------------------------------------------------
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    strides = property(lambda self: self._a.strides)

    @property
    def flags(self):
        """CuPy's Flags: c_contiguous, f_contiguous and owndata only."""
        from fake_cupy._flags import Flags
        return Flags(self._a.flags.c_contiguous, self._a.flags.f_contiguous,
                     self._base is None)

    @shape.setter
    def shape(self, value):
        self._a.shape = value

    @property
    def data(self):
        """The MemoryPointer to the first element (a.data.ptr)."""
        if self._mem.ptr == 0:
            return _memory.MemoryPointer(self._mem)
        return _memory.MemoryPointer(self._mem, self._a.ctypes.data - self._mem.ptr)

    @property
    def device(self):
        return _runtime.Device(self._mem.device_id)

    @property
    def base(self):
        """The array whose memory this view shows, as CuPy's views keep it:
        always the owner (a view of a view names the first array), None for
        an array that is not a view."""
        return self._base

    @property
    def flat(self):
        """A flat iterator over the array (cupy.flatiter: an integer, a slice
        or ... only, as CuPy's)."""
        from fake_cupy._flatiter import flatiter
        return flatiter(self)

    @property
    def T(self):
        return _wrap_any(self._host().T, (self,))

    @property
    def real(self):
        """A view of the real parts; the array itself when it is not complex
        (CuPy's real)."""
        if self.dtype.kind != "c":
            return self
        return _wrap_any(self._host().real, (self,))

    @real.setter
    def real(self, value):
        # CuPy copies the value into the real parts (a complex array) or the
        # whole array (any other) with a kernel: a cupy array or a scalar.
        _check_ufunc_operand(value)
        _run_numpy(numpy.copyto, (self._host().real, _unwrap(value)),
                   {"casting": "unsafe"})

    @property
    def imag(self):
        """A view of the imaginary parts; zeros of a new array when the
        array is not complex (CuPy's imag)."""
        return _wrap_any(self._host().imag, (self,))

    @imag.setter
    def imag(self, value):
        if self.dtype.kind != "c":
            raise TypeError("cupy.ndarray does not have imaginary part to set")
        _check_ufunc_operand(value)
        _run_numpy(numpy.copyto, (self._host().imag, _unwrap(value)),
                   {"casting": "unsafe"})

    def conj(self):
        """The complex conjugate; the array itself when it is not complex
        (CuPy's ndarray.conj)."""
        if self.dtype.kind != "c":
            return self
        return _call_numpy(numpy.ndarray.conj, (self,), {})

    conjugate = conj

    def _host(self):
        """The NumPy view, after queued kernels have run."""
        _runtime.drain()
        return self._a

    # ---- strictness ------------------------------------------------------
    def __array__(self, *args, **kwargs):
        raise TypeError(_NO_NUMPY)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method == "__call__" and ufunc in CUPY_FORMS:
            return CUPY_FORMS[ufunc](*inputs, **kwargs)
        if ufunc.__name__ in _COMPARISONS:
            # `numpy.float64(x) > a` reaches here with the scalar as a 0-d
            # NumPy array; CuPy turns it back into a scalar for comparisons
            # (its issue 1694), other ufuncs refuse NumPy arrays.
            inputs = tuple(x.item() if type(x) is numpy.ndarray and x.ndim == 0
                           else x for x in inputs)
        return _call_numpy(ufunc if method == "__call__" else
                           getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        for t in types:
            if not issubclass(t, ndarray) and issubclass(t, numpy.ndarray):
                raise TypeError(_NO_NUMPY)
        if func in CUPY_FORMS:
            return CUPY_FORMS[func](*args, **kwargs)
        return _call_numpy(func, args, kwargs)

    # ---- transfers -------------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """Copies to a new NumPy array (or into `out`), after the work queued
        before it; raises the error of a kernel that failed."""
        _runtime.synchronize_current()
        if out is not None:
            if not isinstance(out, numpy.ndarray):
                raise TypeError("Only numpy.ndarray can be obtained from "
                                "cupy.ndarray")
            if out.dtype != self.dtype:
                raise TypeError(f"{out.dtype} array cannot be obtained from "
                                f"{self.dtype} array")
            if out.shape != self.shape:
                raise ValueError(f"Shape mismatch. Expected shape: "
                                 f"{self.shape}, actual shape: {out.shape}")
            if not (out.flags.c_contiguous or out.flags.f_contiguous):
                raise RuntimeError("`out` cannot be specified when copying "
                                   "to non-contiguous ndarray")
            numpy.copyto(out, self._a)
            return out
        return numpy.array(self._a, order=order, copy=True)

    def set(self, arr, stream=None):
        """Copies a NumPy array of the same shape and dtype into the array."""
        if not isinstance(arr, numpy.ndarray):
            raise TypeError(f"Only numpy.ndarray can be set to cupy.ndarray (got {type(arr)})")
        if arr.dtype != self.dtype:
            raise TypeError(f"{arr.dtype} array cannot be set to {self.dtype} array")
        if arr.shape != self.shape:
            raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
        if not (self.flags.c_contiguous or self.flags.f_contiguous):
            raise RuntimeError("Cannot set to non-contiguous array")
        _memory.stage_to_device(arr.nbytes)
        numpy.copyto(self._host(), arr)

    def tolist(self):
        return self.get().tolist()

    def item(self, *args):
        _runtime.synchronize_current()
        return self._a.item(*args)

    # As CuPy's (core.pyx): the conversion of the host copy, so that it is
    # the installed NumPy's: an array of one element but some dimensions
    # (a (1, 1) loss from y.T @ log(p)) is its TypeError "only 0-dimensional
    # arrays can be converted to Python scalars" (a DeprecationWarning
    # before NumPy 2.4's), where item() took it. CuPy defines no __index__:
    # a 0-d array is no Python integer (range(x), a_list[x] and slice bounds
    # raise TypeError), though int(x) is one.
    def __float__(self):
        return float(self.get())

    def __int__(self):
        return int(self.get())

    def __complex__(self):
        return complex(self.get())

    def __bool__(self):
        # CuPy's __nonzero__ (core.pyx): an empty array is False with a
        # DeprecationWarning, where NumPy 2.4 raises; more than one element is
        # NumPy's "ambiguous" ValueError.
        if self.size == 0:
            warnings.warn("The truth value of an empty array is ambiguous. Returning "
                          "False, but in future this will result in an error. Use "
                          "`array.size > 0` to check that an array is not empty.",
                          DeprecationWarning, stacklevel=2)
            return False
        if self.size > 1:
            raise ValueError("The truth value of an array with more than one element "
                             "is ambiguous. Use a.any() or a.all()")
        return bool(self.item())

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __format__(self, spec):
        # CuPy's is format(self.get(), spec): NumPy formats a 0-d array as its
        # element and refuses a format spec for other arrays (TypeError), so
        # f"{loss:.4f}" on a (1,) loss fails as it does with CuPy.
        return format(self.get(), spec)

    # ---- the CUDA array interface and DLPack ---------------------------------
    @property
    def __cuda_array_interface__(self):
        a = self._a
        stream = _runtime.get_current_stream()
        desc = {
            "shape": a.shape,
            "typestr": a.dtype.str,
            "descr": a.dtype.descr,
            "data": (self.data.ptr if a.size else 0, False),
            "version": 3,
            "strides": None if a.flags.c_contiguous else a.strides,
            "stream": 1 if stream.ptr == 0 else stream.ptr,
        }
        return desc

    def __dlpack_device__(self):
        return (2, self._mem.device_id)  # kDLCUDA

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        from fake_cupy import _dlpack
        _runtime.drain()
        return _dlpack.export(self, max_version, dl_device, copy)

    def toDlpack(self):
        """A "dltensor" capsule (CuPy's older spelling of __dlpack__)."""
        from fake_cupy import _dlpack
        _runtime.drain()
        return _dlpack.to_capsule(self)

    # ---- methods delegated to NumPy ------------------------------------------
    def copy(self, order="C"):
        return _new_from(numpy.array(self._host(), order=order, copy=True))

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        # CuPy's _astype refuses both arguments, whatever their value.
        if casting is not None:
            raise TypeError("casting is not supported yet")
        if subok is not None:
            raise TypeError("subok is not supported yet")
        order = "K" if order is None else order.upper()
        flags = self._a.flags
        # CuPy's astype gives the array itself when nothing changes: the
        # dtype, and the layout the order asks for.
        if not copy and numpy.dtype(dtype) == self.dtype and (
                order == "K" or (order == "A" and (flags.c_contiguous or
                                                   flags.f_contiguous))
                or (order == "C" and flags.c_contiguous)
                or (order == "F" and flags.f_contiguous)):
            return self
        if _float_to_int.converts(self, dtype):
            return _new_from(_float_to_int.cast(self._host(), dtype, order))
        result = _run_numpy(self._host().astype, (dtype,),
                            {"order": order, "copy": True})
        return _new_from(result)

    def view(self, dtype=None):
        return _wrap_any(self._host().view() if dtype is None
                         else self._host().view(dtype), (self,))

    def reduced_view(self, dtype=None):
        """A view with as few dimensions as the layout allows (CuPy's): unit
        axes go, and an axis merges into the one before it when that one's
        stride is its extent times its stride; self when nothing changes.
        `dtype` (deprecated in CuPy) reinterprets the flattened memory."""
        if dtype is not None:
            import warnings
            warnings.warn("calling reduced_view with dtype is deprecated",
                          DeprecationWarning, stacklevel=2)
            return self.reshape(-1).view(dtype)
        if self.ndim <= 1:
            return self
        host = self._host()
        if host.flags.c_contiguous:
            shape, strides = [self.size], [self.itemsize]
        else:
            shape, strides = [], []
            for extent, stride in zip(host.shape, host.strides):
                if extent == 1:
                    continue
                if shape and strides[-1] == extent * stride:
                    shape[-1] *= extent
                    strides[-1] = stride
                else:
                    shape.append(extent)
                    strides.append(stride)
            if len(shape) == self.ndim:
                return self
        view = numpy.lib.stride_tricks.as_strided(host, tuple(shape),
                                                  tuple(strides))
        return _wrap_any(view, (self,))

    def fill(self, value):
        _run_numpy(self._host().fill, (_fill_value(value),), {})

    def __getitem__(self, index):
        index = wrap_integer_indices(_unwrap_index(index), self.shape)
        result = self._host()[index]
        if isinstance(result, numpy.generic) and _is_basic(index):
            # CuPy's basic indexing always gives a view: an element is a 0-d
            # array on this array's memory (NumPy gives a scalar copy).
            result = self._host()[(index if isinstance(index, tuple)
                                   else (index,)) + (Ellipsis,)]
        return _wrap_any(result, (self,))

    def __setitem__(self, index, value):
        if _is_basic_index(index) and not isinstance(value, ndarray):
            # CuPy assigns a value that is not a cupy array through fill.
            value = _fill_value(value)
        index = wrap_integer_indices(_unwrap_index(index), self.shape)
        if _is_basic_index(index) and _overlap_race.race_checked():
            # CuPy copies into the view the index makes with a kernel.
            _overlap_race.check_output(self._host()[index], "cupy.ndarray.__setitem__")
        elif _overlap_race.race_checked():
            # CuPy's scatter kernel writes each indexed element.
            _overlap_race.check_scatter(self._host(), index, _unwrap(value),
                                        "cupy.ndarray.__setitem__")
        value = _unwrap(value)
        if isinstance(value, numpy.ndarray) and \
                _float_to_int.converts(value, self.dtype):
            # CuPy's copy kernel converts on the device.
            value = _float_to_int.cast(value, self.dtype)
        _run_numpy(self._host().__setitem__, (index, value), {})

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_from_host, (self.get(),))

    def __hash__(self):
        raise TypeError("unhashable type: 'cupy.ndarray'")


def _from_host(array):
    return _new_from(array)


# Shown under CuPy's module name, as cupy.ndarray is: public code tells device
# arrays apart by type(x).__module__ == 'cupy'. Pickling goes through
# __reduce__ (_from_host), not through the class's module.
ndarray.__module__ = "cupy"


def _method(name):
    reduction = name in _overlap_race.REDUCTIONS

    def method(self, *args, **kwargs):
        _reduction_keywords.check(name, kwargs, method=True)
        if reduction:
            _overlap_race.check_reduction_call(name, (self,) + args, kwargs)
        return _call_numpy(getattr(numpy.ndarray, name), (self,) + args, kwargs)
    method.__name__ = name
    method.__doc__ = f"ndarray.{name}, as NumPy's (results are fake arrays)."
    return method


for _name in ("reshape", "ravel", "flatten", "transpose", "swapaxes", "squeeze",
              "sum", "prod", "mean", "var", "std", "max", "min", "argmax",
              "argmin", "all", "any", "cumsum", "cumprod", "dot", "nonzero", "round", "diagonal",
              "trace", "sort", "argsort", "compress",
              "choose", "ptp"):
    setattr(ndarray, _name, _method(_name))


def _take(self, indices, axis=None, out=None):
    """ndarray.take: out-of-bounds indices wrap, as CuPy's (_index_wrap.py)."""
    return _call_numpy(_index_wrap.take, (self, indices), {"axis": axis, "out": out})


def _put(self, indices, values, mode="wrap"):
    """ndarray.put, CuPy's default mode 'wrap' (_index_wrap.py)."""
    _call_numpy(_index_wrap.put, (self, indices, values), {"mode": mode})


def _repeat(self, repeats, axis=None):
    """ndarray.repeat: as CuPy's _repeat, a cupy.ndarray of repeats is refused
    (NumPy takes any array of counts); an int, a list or a tuple is taken."""
    if isinstance(repeats, ndarray):
        raise ValueError("cupy.ndaray cannot be specified as `repeats` argument.")
    return _call_numpy(numpy.ndarray.repeat, (self, repeats), {"axis": axis})


def _clip(self, min=None, max=None, out=None):
    """ndarray.clip(min=None, max=None, out=None), CuPy's signature:
    NumPy's ufunc keywords and `a_min=`/`a_max=` are TypeError naming clip
    (NumPy's message named the ufunc positive)."""
    result = _call_numpy(numpy.ndarray.clip, (self, min, max), {"out": out},
                         c_order=True)
    return result if out is None else out


_clip.__name__ = _clip.__qualname__ = "clip"
ndarray.clip = _clip
ndarray.take = _take
ndarray.put = _put
ndarray.repeat = _repeat


def _binary(name, ufunc_operand=False, ufunc=True):
    # `ufunc`: CuPy computes the operator with a ufunc, whose new output is
    # C-ordered whatever the operands' layout (see _new_from).
    # As CuPy's _should_use_rop: a forward operator whose other operand is
    # no ndarray and has a higher __array_priority__ (a sparse matrix's is
    # 101) returns that operand's reflected operator.
    reflected = "__r" + name[2:] if not name.startswith(("__r", "__i")) \
        else None
    # An in-place operator writes its left operand through CuPy's ufunc.
    in_place = "cupy." + _OPERATOR_UFUNCS.get(name[3:-2], name[3:-2]) \
        if name.startswith("__i") else None

    def op(self, other):
        if reflected and not isinstance(other, ndarray) and \
                getattr(other, "__array_priority__", 0) > \
                ndarray.__array_priority__:
            return getattr(other, reflected)(self)
        if ufunc_operand:
            _check_ufunc_operand(other)
        if in_place:
            _overlap_race.check_output(self._a, in_place)
        result = _call_numpy(getattr(numpy.ndarray, name), (self, other), {},
                             c_order=ufunc)
        # An in-place operator is the ufunc with out=self, which CuPy
        # returns: `x += 1` leaves `x` the same object.
        return self if in_place and result is not NotImplemented else result
    op.__name__ = name
    return op


# The ufunc of each operator whose name differs from its own.
_OPERATOR_UFUNCS = {"sub": "subtract", "mul": "multiply", "truediv": "true_divide",
                    "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
                    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
                    "lshift": "left_shift", "rshift": "right_shift"}


# The operators CuPy implements with a ufunc (cupy.add, ...) check their
# operand as the ufunc does; matmul and divmod are functions of their own.
_UFUNC_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                    "and", "or", "xor", "lshift", "rshift")
for _name in _UFUNC_OPERATORS + ("matmul", "divmod"):
    for _prefix in ("__", "__r", "__i"):
        _full = f"{_prefix}{_name}__"
        if hasattr(numpy.ndarray, _full):
            setattr(ndarray, _full, _binary(_full, _name in _UFUNC_OPERATORS,
                                            _name != "matmul"))
for _full in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(ndarray, _full, _binary(_full))


def _unary(name):
    # CuPy's negative, positive, absolute and invert ufuncs: C-ordered.
    def op(self):
        return _call_numpy(getattr(numpy.ndarray, name), (self,), {},
                           c_order=True)
    op.__name__ = name
    return op


for _full in ("__neg__", "__pos__", "__abs__", "__invert__"):
    setattr(ndarray, _full, _unary(_full))


# ---- wrapping and unwrapping ------------------------------------------------

def _check_no_references(dtype):
    """Device memory holds no Python objects: an object dtype (or a
    structured one with an object field) is refused with CuPy's ValueError,
    as CuPy's array creation refuses it. NumPy would store references to
    objects in the raw buffer without their reference counts, and the
    interpreter would crash on the first use of a freed one."""
    if dtype.hasobject:
        raise ValueError(f"Unsupported dtype {dtype}")


def _is_basic_index(index):
    """An index of ints, slices, Ellipsis and None only (no index arrays,
    lists or booleans): CuPy's basic indexing, a view of the array."""
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, slice) or
               (isinstance(i, numbers.Integral) and
                not isinstance(i, (bool, numpy.bool_)))
               for i in items)


def _fill_value(value):
    """The value CuPy's ndarray.fill takes: a 0-d NumPy array is its
    scalar, a non-scalar one raises CuPy's ValueError, and what is neither a
    cupy array nor a scalar (a list, a tuple, None) raises the TypeError of
    CuPy's fill kernel."""
    if isinstance(value, numpy.ndarray):
        if value.shape != ():
            raise ValueError("non-scalar numpy.ndarray cannot be used for fill")
        return value.item()
    _check_ufunc_operand(value)
    return _unwrap(value)


def _view_of(mem, offset, shape, dtype, strides, order):
    _check_no_references(dtype)
    if mem.block is None:
        return numpy.empty(shape, dtype=dtype)
    buf = mem.block.buffer
    try:
        return numpy.ndarray(shape, dtype=dtype, buffer=buf, offset=offset,
                             strides=strides, order=order)
    except TypeError:
        if not isinstance(mem, _memory.UnownedMemory):
            raise
        # CuPy does not check the array against the memory; the fake can
        # only view memory whose end it knows.
        raise ValueError(
            f"an array of {shape} {dtype} at offset {offset} does not fit in "
            f"UnownedMemory of {mem.size} bytes at {mem.ptr:#x} (the fake "
            f"can view {len(buf)} bytes there: the rest of the cupy "
            "allocation that holds the address, or the size given)") from None


def _unwrap(obj):
    """The NumPy view of a fake array; NumPy arrays (not scalars) are refused
    as operands, as CuPy refuses them."""
    if isinstance(obj, ndarray):
        return obj._host()
    if isinstance(obj, numpy.ndarray):
        raise _unsupported(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unwrap(o) for o in obj)
    return obj


def _unwrap_all(args):
    return tuple(_unwrap(a) for a in args)


def _is_basic(index):
    """Whether an index of integers (the only basic index that makes NumPy
    return a scalar) holds no array."""
    items = index if isinstance(index, tuple) else (index,)
    return all(isinstance(i, (int, numpy.integer)) and not isinstance(i, bool)
               for i in items)


def _unwrap_index(index):
    if isinstance(index, tuple):
        return tuple(_unwrap_index(i) for i in index)
    if isinstance(index, ndarray):
        return index._host()
    if isinstance(index, numpy.ndarray):
        # CuPy copies a NumPy index array to the device (core.array) and
        # accepts integer and boolean ones, as NumPy does.
        if index.dtype.kind not in "biu":
            raise IndexError(
                "arrays used as indices must be of integer or boolean type. "
                f"(actual: {index.dtype.type})")
        return index
    return index


def _new_from(array, c_order=False):
    """A fresh fake array in pool memory holding a copy of `array`, laid out
    as `array` is when it is Fortran-ordered, unless `c_order` asks for C
    order (the layout of every output a CuPy ufunc allocates)."""
    array = numpy.asarray(array)
    order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous \
        and not c_order else "C"
    out = ndarray(array.shape, array.dtype, order=order)
    if array.size:
        numpy.copyto(out._a, array)
    return out


def _owner(array, parents):
    """The parent whose memory `array` (a NumPy result) lies in, or None."""
    if not array.size:
        return None
    address = array.__array_interface__["data"][0]
    for p in parents:
        mem = p._mem
        if mem.block is not None and mem.ptr <= address < mem.ptr + mem.block.size:
            return p
    return None


def _wrap_any(result, parents=(), c_order=False):
    """Wraps what NumPy returned: arrays become fake arrays (views keep the
    parent's memory; new arrays are copied, C-ordered if `c_order`), NumPy
    scalars become 0-d arrays, tuples and lists are wrapped element by
    element, and dicts value by value (find_peaks' properties are cupy
    arrays in CuPy); other values pass through."""
    if isinstance(result, numpy.ndarray):
        parent = _owner(result, parents)
        if parent is not None:
            # CuPy's views name their first array as base (core.pyx, _view).
            base = parent._base if parent._base is not None else parent
            return ndarray._wrap(result, parent._mem, base)
        return _new_from(result, c_order)
    if isinstance(result, numpy.generic):
        return _new_from(numpy.asarray(result))
    if isinstance(result, tuple):
        return tuple(_wrap_any(r, parents, c_order) for r in result)
    if isinstance(result, list):
        return [_wrap_any(r, parents, c_order) for r in result]
    if isinstance(result, dict):
        return {k: _wrap_any(v, parents, c_order) for k, v in result.items()}
    return result


def _collect(obj, out):
    if isinstance(obj, ndarray):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _collect(o, out)
    return out


def _from_interface(obj):
    """An object exposing __cuda_array_interface__ (not a fake array) as
    the fake array viewing the same memory, as CuPy's functions take it."""
    if isinstance(obj, ndarray) or isinstance(obj, numpy.ndarray) or \
            not hasattr(type(obj), "__cuda_array_interface__"):
        return obj
    from fake_cupy import _functions
    return _functions._from_cuda_interface(obj)


def _run_numpy(func, args, kwargs):
    """Calls NumPy's `func` on host views of device arrays, as device code:
    CuPy's kernels never emit NumPy's floating-point warnings (RuntimeWarning
    for a division by zero, an overflow, an invalid operation or cast), so
    they are ignored here, and only here; NumPy's own settings
    (numpy.seterr) are left as they are for host code."""
    # Scalar operands of a ufunc or an operator take the types CuPy 13
    # gives them (_scalar_promotion.py); a power on integers takes CuPy's
    # values for negative exponents (_integral_power.py) where NumPy raises.
    # Statistics of empty and all-NaN slices are CuPy's (_empty_statistics.py).
    args = _scalar_promotion.cupy_operands(func, args, kwargs)
    func = _integral_power.FORMS.get(func, func)
    func = _empty_statistics.FORMS.get(func, func)
    with numpy.errstate(all="ignore"):
        return func(*args, **kwargs)


def _call_numpy(func, args, kwargs, c_order=False):
    """NumPy's `func` on fake arrays (unwrapped to their host views, NumPy
    arrays refused), its result wrapped again: views keep their operands'
    memory, new arrays are C-ordered if `c_order` (a ufunc's, whatever its
    operands' layout: CuPy allocates them so)."""
    args = tuple(_from_interface(a) for a in args)
    parents = tuple(_collect(args, []) + _collect(tuple(kwargs.values()), []))
    result = _run_numpy(func, _unwrap_all(args),
                        {k: _unwrap(v) for k, v in kwargs.items()})
    return _wrap_any(result, parents, c_order)
