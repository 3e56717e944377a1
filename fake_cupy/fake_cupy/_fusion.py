"""cupy.fuse: one kernel from a Python function over ufunc calls.

As CuPy's fusion does, the first call with a given signature (the dtype and
number of dimensions of each array argument, the type of each scalar) runs
the function once on tracing variables instead of arrays. Every ufunc the
function calls (cupy.sin, x + y, x += y, ...) and cupy.where add one line of
CUDA C to the kernel's body, with the ufunc's loop types as NumPy resolves
them (the fake's arrays follow NumPy's type promotion, so a fused function
gives the dtypes the unfused one gives). The trace becomes an
ElementwiseKernel (named kernel_name=, else the function's name), or, when
the function ends in a reduction (cupy.sum, prod, max, min, amax, amin, all,
any, with axis= and dtype=, or the methods x.sum(), prod, max, min, all and
any; as in CuPy, both forms refuse keepdims=True with NotImplementedError), a
ReductionKernel whose map expression is the traced elementwise part and whose
post-map expression holds what the function does with the reduced value.
That kernel is compiled once and launched for each later call with the same
signature (broadcasting and output allocation are ElementwiseKernel's).

- Array arguments are kernel parameters; scalar arguments (Python or NumPy
  scalars) too, typed as CuPy types them (int: int64, float: float64,
  complex: complex128, bool: bool; a NumPy scalar: its dtype), though in
  type promotion a Python scalar is weak, as NumPy's; constants in the
  function (x * 2) are parameters of the same kind.
- `x += y` (and the other in-place operators, and ufunc(..., out=x)) on an
  array argument writes the result back into that array, as in CuPy.
- The function may return one value, a tuple of values, or None (for a
  function that only updates its arguments).
- As in CuPy, a call whose arguments hold no cupy.ndarray calls the function
  itself (on NumPy arrays or scalars), and arguments of other types raise
  TypeError.
- What the tracer does not know (a ufunc without a CUDA C form here, a
  second reduction, an array used after its reduction, indexing, a Python
  `if` on a traced value) raises TypeError or NotImplementedError naming
  it.
"""
import functools
import numbers
import re

import numpy

from fake_cupy._ndarray import ndarray

# CUDA C helpers with NumPy's semantics where C's differ (floor division
# and remainder round towards minus infinity, maximum propagates NaN, an
# integer division by zero gives 0), overloaded for each C type; sign is
# CuPy 13's (0 for NaN, a complex value's by its real part, else imaginary).
_PREAMBLE = r"""
#define _FZ_INTEGRAL(T) \
__device__ T _fz_maximum(T a, T b) { return a > b ? a : b; } \
__device__ T _fz_minimum(T a, T b) { return a < b ? a : b; } \
__device__ bool _fz_isnan(T) { return false; } \
__device__ bool _fz_isinf(T) { return false; } \
__device__ bool _fz_isfinite(T) { return true; }
#define _FZ_GCD(T) \
__device__ T _fz_gcd(T a, T b) { a = _fz_abs(a); b = _fz_abs(b); \
  while (b != 0) { T r = a % b; a = b; b = r; } return a; } \
__device__ T _fz_lcm(T a, T b) { T g = _fz_gcd(a, b); \
  return g == 0 ? (T)0 : _fz_abs((T)(a / g * b)); }
#define _FZ_INT(T) \
__device__ T _fz_floor_divide(T a, T b) { if (b == 0) return 0; \
  T q = a / b; if (a % b != 0 && ((a < 0) != (b < 0))) --q; return q; } \
__device__ T _fz_remainder(T a, T b) { if (b == 0) return 0; \
  T r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; } \
__device__ T _fz_power(T a, T b) { T r = 1; \
  if (b < 0) return a == -1 ? ((b & 1) ? -1 : 1) : a == 1 ? 1 : 0; \
  while (b) { if (b & 1) r *= a; a *= a; b >>= 1; } return r; } \
_FZ_INTEGRAL(T) \
__device__ T _fz_sign(T a) { return (T)((a > 0) - (a < 0)); } \
__device__ T _fz_abs(T a) { return a < 0 ? (T)-a : a; } \
__device__ T _fz_reciprocal(T a) { return a == 0 ? 0 : (T)(1 / a); } \
_FZ_GCD(T)
#define _FZ_UINT(T) \
__device__ T _fz_floor_divide(T a, T b) { return b == 0 ? 0 : a / b; } \
__device__ T _fz_remainder(T a, T b) { return b == 0 ? 0 : a % b; } \
__device__ T _fz_power(T a, T b) { T r = 1; \
  while (b) { if (b & 1) r *= a; a *= a; b >>= 1; } return r; } \
_FZ_INTEGRAL(T) \
__device__ T _fz_sign(T a) { return (T)(a > 0); } \
__device__ T _fz_abs(T a) { return a; } \
__device__ T _fz_reciprocal(T a) { return a == 0 ? 0 : (T)(1 / a); } \
_FZ_GCD(T)
#define _FZ_FLT(T) \
__device__ T _fz_floor_divide(T a, T b) { if (b == 0) return a / b; \
  T m = fmod(a, b); T d = (a - m) / b; \
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1; \
  T f = floor(d); if (d - f > (T)0.5) f += 1; return f; } \
__device__ T _fz_remainder(T a, T b) { T m = fmod(a, b); if (b == 0) return m; \
  if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign((T)0, b); \
  return m; } \
__device__ T _fz_power(T a, T b) { return pow(a, b); } \
__device__ T _fz_maximum(T a, T b) { return a != a ? a : b != b ? b : a > b ? a : b; } \
__device__ T _fz_minimum(T a, T b) { return a != a ? a : b != b ? b : a < b ? a : b; } \
__device__ bool _fz_isnan(T a) { return isnan(a); } \
__device__ bool _fz_isinf(T a) { return isinf(a); } \
__device__ bool _fz_isfinite(T a) { return isfinite(a); } \
__device__ T _fz_sign(T a) { return (T)((a > 0) - (a < 0)); } \
__device__ T _fz_abs(T a) { return fabs(a); } \
__device__ T _fz_reciprocal(T a) { return (T)1 / a; } \
__device__ T _fz_logaddexp(T a, T b) { if (a == b) return a + log((T)2); \
  T d = a - b; if (d != d) return d; \
  return (a > b ? a : b) + log1p(exp(-fabs(d))); } \
__device__ T _fz_logaddexp2(T a, T b) { if (a == b) return a + 1; \
  T d = a - b; if (d != d) return d; \
  return (a > b ? a : b) + log1p(exp2(-fabs(d))) / log((T)2); } \
__device__ T _fz_heaviside(T a, T b) { \
  return a != a ? a : a < 0 ? (T)0 : a > 0 ? (T)1 : b; } \
__device__ T _fz_modf_frac(T a) { T i; return modf(a, &i); } \
__device__ T _fz_modf_int(T a) { T i; modf(a, &i); return i; } \
__device__ T _fz_frexp_mantissa(T a) { int e; return frexp(a, &e); } \
__device__ int _fz_frexp_exponent(T a) { int e; frexp(a, &e); return e; }
_FZ_INT(signed char) _FZ_INT(short) _FZ_INT(int) _FZ_INT(long long)
_FZ_UINT(unsigned char) _FZ_UINT(unsigned short) _FZ_UINT(unsigned int)
_FZ_UINT(unsigned long long)
_FZ_FLT(float) _FZ_FLT(double)
__device__ bool _fz_maximum(bool a, bool b) { return a || b; }
__device__ bool _fz_minimum(bool a, bool b) { return a && b; }
template <typename T> __device__ complex<T> _fz_power(complex<T> a,
                                                      complex<T> b) {
  return pow(a, b);
}
template <typename T> __device__ T _fz_abs(complex<T> a) { return abs(a); }
template <typename T> __device__ complex<T> _fz_sign(complex<T> a) {
  T r = a.real(), i = a.imag();
  return complex<T>(r == 0 ? (T)((i > 0) - (i < 0)) : (T)((r > 0) - (r < 0)), 0);
}
"""

# The C form of each ufunc, over its inputs {0}, {1} already cast to the
# loop's input types; "bool" entries are used when the loop is on bools.
_BINARY = {
    "add": "{0} + {1}", "subtract": "{0} - {1}", "multiply": "{0} * {1}",
    "divide": "{0} / {1}", "true_divide": "{0} / {1}",
    "floor_divide": "_fz_floor_divide({0}, {1})",
    "remainder": "_fz_remainder({0}, {1})", "power": "_fz_power({0}, {1})",
    "maximum": "_fz_maximum({0}, {1})", "minimum": "_fz_minimum({0}, {1})",
    "fmax": "fmax({0}, {1})", "fmin": "fmin({0}, {1})",
    "arctan2": "atan2({0}, {1})", "hypot": "hypot({0}, {1})",
    "copysign": "copysign({0}, {1})", "nextafter": "nextafter({0}, {1})",
    "fmod": "fmod({0}, {1})", "float_power": "_fz_power({0}, {1})",
    "logaddexp": "_fz_logaddexp({0}, {1})",
    "logaddexp2": "_fz_logaddexp2({0}, {1})",
    "heaviside": "_fz_heaviside({0}, {1})",
    "gcd": "_fz_gcd({0}, {1})", "lcm": "_fz_lcm({0}, {1})",
    "equal": "{0} == {1}", "not_equal": "{0} != {1}", "less": "{0} < {1}",
    "less_equal": "{0} <= {1}", "greater": "{0} > {1}",
    "greater_equal": "{0} >= {1}",
    "logical_and": "(bool)({0}) && (bool)({1})",
    "logical_or": "(bool)({0}) || (bool)({1})",
    "logical_xor": "(bool)({0}) != (bool)({1})",
    "bitwise_and": "{0} & {1}", "bitwise_or": "{0} | {1}",
    "bitwise_xor": "{0} ^ {1}", "left_shift": "{0} << {1}",
    "right_shift": "{0} >> {1}",
}
_BOOL_BINARY = {"add": "{0} || {1}", "multiply": "{0} && {1}",
                "bitwise_and": "{0} && {1}", "bitwise_or": "{0} || {1}",
                "bitwise_xor": "{0} != {1}"}
_UNARY = {
    "negative": "-{0}", "positive": "+{0}", "absolute": "_fz_abs({0})",
    "fabs": "fabs({0})", "sign": "_fz_sign({0})", "square": "{0} * {0}",
    "reciprocal": "_fz_reciprocal({0})", "sqrt": "sqrt({0})",
    "cbrt": "cbrt({0})", "exp": "exp({0})", "exp2": "exp2({0})",
    "expm1": "expm1({0})", "log": "log({0})", "log2": "log2({0})",
    "log10": "log10({0})", "log1p": "log1p({0})", "sin": "sin({0})",
    "cos": "cos({0})", "tan": "tan({0})", "arcsin": "asin({0})",
    "arccos": "acos({0})", "arctan": "atan({0})", "sinh": "sinh({0})",
    "cosh": "cosh({0})", "tanh": "tanh({0})", "arcsinh": "asinh({0})",
    "arccosh": "acosh({0})", "arctanh": "atanh({0})",
    "floor": "floor({0})", "ceil": "ceil({0})", "trunc": "trunc({0})",
    "rint": "rint({0})", "isnan": "_fz_isnan({0})", "isinf": "_fz_isinf({0})",
    "isfinite": "_fz_isfinite({0})", "logical_not": "!(bool)({0})",
    "invert": "~{0}", "conjugate": "conj({0})", "signbit": "signbit({0})",
    "deg2rad": "{0} * ({T})(3.14159265358979323846 / 180)",
    "radians": "{0} * ({T})(3.14159265358979323846 / 180)",
    "rad2deg": "{0} * ({T})(180 / 3.14159265358979323846)",
    "degrees": "{0} * ({T})(180 / 3.14159265358979323846)",
}
# cupyx.scipy.special's ufuncs (SciPy's in the fake), on real values.
_SPECIAL = {
    "erf": "erf({0})", "erfc": "erfc({0})", "erfinv": "erfinv({0})",
    "erfcinv": "erfcinv({0})", "gammaln": "lgamma({0})",
    "expit": "({T})1 / (({T})1 + exp(-{0}))", "j0": "j0({0})",
    "j1": "j1({0})", "y0": "y0({0})", "y1": "y1({0})",
}
_UNARY.update(_SPECIAL)
_BOOL_UNARY = {"invert": "!{0}", "absolute": "{0}", "positive": "{0}"}
# The ufuncs with two outputs: the C form of each.
_SEVERAL = {
    "divmod": ("_fz_floor_divide({0}, {1})", "_fz_remainder({0}, {1})"),
    "modf": ("_fz_modf_frac({0})", "_fz_modf_int({0})"),
    "frexp": ("_fz_frexp_mantissa({0})", "_fz_frexp_exponent({0})"),
}

# Reductions: the NumPy function, the C fold over a and b, and identity.
_REDUCTIONS = {
    "sum": (numpy.sum, "a + b", "0"), "prod": (numpy.prod, "a * b", "1"),
    "max": (numpy.max, "_fz_maximum(a, b)", None),
    "amax": (numpy.max, "_fz_maximum(a, b)", None),
    "min": (numpy.min, "_fz_minimum(a, b)", None),
    "amin": (numpy.min, "_fz_minimum(a, b)", None),
    "all": (numpy.all, "a && b", "true"), "any": (numpy.any, "a || b", "false"),
}

# CuPy's names of the module functions above in its fusion's messages.
_CUPY_NAMES = {"max": "amax", "min": "amin"}


def _refuse_keepdims(name, keepdims):
    """CuPy's cupy.sum, prod, amax, amin, all and any check keepdims first
    when they are called in a fusion (so do the methods, which call
    them)."""
    if keepdims:
        raise NotImplementedError(
            f"cupy.{_CUPY_NAMES.get(name, name)} does not support "
            "`keepdims` in fusion yet.")


def _compute_ctype(dtype):
    """The C type the trace computes a dtype's values in (float16 in
    float, as CuPy does through __half's conversions)."""
    from fake_cupy._elementwise import _ctype
    if dtype == numpy.float16:
        return "float"
    return _ctype(dtype)


def _scalar_param_dtype(value):
    from fake_cupy._elementwise import _scalar_dtype
    return _scalar_dtype(value)


class _Var:
    """A traced value: a kernel parameter, a temporary, or the reduced
    value of a reduction. `weak` is the Python type of a Python scalar
    parameter (weak in type promotion), else None."""

    __array_priority__ = 200

    def __init__(self, trace, dtype, expr, ndim, param=None, weak=None,
                 stage=0):
        self._trace = trace
        self.dtype = numpy.dtype(dtype)
        self._expr = expr
        self.ndim = ndim
        self._param = param
        self._weak = weak
        self._stage = stage
        self._is_array = False

    # Operators are NumPy's ufuncs, traced by __array_ufunc__.
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__":
            raise NotImplementedError(
                f"cupy.fuse: {ufunc.__name__}.{method} is not supported")
        return self._trace.ufunc(ufunc, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name in _REDUCTIONS:
            _refuse_keepdims(name, kwargs.get("keepdims"))
            return self._trace.reduce(name, *args, **kwargs)
        if name == "where":
            return self._trace.where(*args, **kwargs)
        if name == "clip":
            return self._trace.clip(*args, **kwargs)
        if name in ("real", "imag"):
            return self._trace.part(self._trace.operand(args[0]), name)
        raise NotImplementedError(
            f"cupy.fuse: {name} cannot be fused (only ufuncs, where, clip "
            "and the reductions sum, prod, max, min, all and any)")

    # CuPy's fusion traces x.sum(...) as cupy.sum(x, ...): the methods take
    # the module functions' arguments (dtype= only for sum and prod) and
    # refuse keepdims=True as they do.
    def _reduction(name):
        def method(self, axis=None, dtype=None, out=None, keepdims=False):
            return self._reduce(name, axis, dtype, out, keepdims)
        method.__name__ = name
        return method

    def _reduction_without_dtype(name):
        def method(self, axis=None, out=None, keepdims=False):
            return self._reduce(name, axis, None, out, keepdims)
        method.__name__ = name
        return method

    def _reduce(self, name, axis, dtype, out, keepdims):
        _refuse_keepdims(name, keepdims)
        if out is not None:
            raise NotImplementedError("cupy.fuse: out= of a reduction")
        return self._trace.reduce(name, self, axis=axis, dtype=dtype)

    sum = _reduction("sum")
    prod = _reduction("prod")
    max = _reduction_without_dtype("max")
    min = _reduction_without_dtype("min")
    all = _reduction_without_dtype("all")
    any = _reduction_without_dtype("any")
    del _reduction, _reduction_without_dtype

    def astype(self, dtype, copy=True):
        return self._trace.cast(self, numpy.dtype(dtype))

    def __bool__(self):
        raise TypeError("cupy.fuse: a traced value has no truth value "
                        "(use cupy.where instead of if)")

    def __getitem__(self, index):
        if self._is_array and self._param is not None and _is_basic(index):
            return self._trace.indexed(self, index)
        raise NotImplementedError("cupy.fuse: indexing a traced value is "
                                  "not supported")

    def __setitem__(self, index, value):
        """x[...] = y and x[:] = y on an array argument, as CuPy's fusion
        copies y into x (same_kind casting); other indexes are refused with
        CuPy's ValueError."""
        if index is not Ellipsis and index != slice(None):
            raise ValueError("The fusion supports `[...]` or `[:]`.")
        value = self._trace.operand(value)
        self._trace.assign(self, self._trace.cast(value, value.dtype))

    def __repr__(self):
        return f"<cupy.fuse variable {self._expr} ({self.dtype})>"

    @property
    def real(self):
        return self._trace.part(self, "real")

    @property
    def imag(self):
        return self._trace.part(self, "imag")

    def conj(self):
        return numpy.conjugate(self)


def _operator(ufunc, reflected=False):
    if reflected:
        return lambda self, other: ufunc(other, self)
    return lambda self, other: ufunc(self, other)


def _inplace(ufunc):
    def method(self, other):
        return ufunc(self, other, out=self)
    return method


for _name, _uf in [("add", numpy.add), ("sub", numpy.subtract),
                   ("mul", numpy.multiply), ("truediv", numpy.true_divide),
                   ("floordiv", numpy.floor_divide), ("mod", numpy.remainder),
                   ("pow", numpy.power), ("and", numpy.bitwise_and),
                   ("or", numpy.bitwise_or), ("xor", numpy.bitwise_xor),
                   ("lshift", numpy.left_shift),
                   ("rshift", numpy.right_shift)]:
    setattr(_Var, f"__{_name}__", _operator(_uf))
    setattr(_Var, f"__r{_name}__", _operator(_uf, True))
    setattr(_Var, f"__i{_name}__", _inplace(_uf))
for _name, _uf in [("eq", numpy.equal), ("ne", numpy.not_equal),
                   ("lt", numpy.less), ("le", numpy.less_equal),
                   ("gt", numpy.greater), ("ge", numpy.greater_equal)]:
    setattr(_Var, f"__{_name}__", _operator(_uf))
_Var.__neg__ = lambda self: numpy.negative(self)
_Var.__pos__ = lambda self: numpy.positive(self)
_Var.__abs__ = lambda self: numpy.absolute(self)
_Var.__invert__ = lambda self: numpy.invert(self)
_Var.__hash__ = object.__hash__


def _is_basic(index):
    """Whether `index` is a basic index: ints, slices, None, Ellipsis."""
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, slice)
               or isinstance(i, (int, numpy.integer))
               and not isinstance(i, (bool, numpy.bool_)) for i in items)


class _Indexed:
    """A view of argument `source` by a basic index, taken at each call."""

    def __init__(self, source, index):
        self.source, self.index = source, index

    def __call__(self, args):
        return args[self.source][self.index]


class _Trace:
    """The parameters and statements of one traced call."""

    def __init__(self, name):
        self.name = name
        self.params = []        # (C name, dtype, is_array)
        self.values = []        # the constants' values, after the arguments
        self.stmts = []         # the elementwise part
        self.post = []          # after the reduction
        self.writes = []        # (param name, dtype, expression)
        self.reduction = None   # (name, axis, dtype, expr)
        self.count = 0
        self.indexed_sources = set()    # arguments the function indexes

    def param(self, value):
        if isinstance(value, ndarray):
            name = f"_p{len(self.params)}"
            self.params.append((name, value.dtype, True))
            var = _Var(self, value.dtype, name, value.ndim, param=name)
            var._is_array = True
            return var
        if value is None:
            return None
        dtype = _scalar_param_dtype(value)
        name = f"_p{len(self.params)}"
        self.params.append((name, dtype, False))
        weak = None if isinstance(value, numpy.generic) else type(value)
        return _Var(self, dtype, name, 0, param=name, weak=weak)

    def indexed(self, var, index):
        """An argument indexed with a basic index (ints, slices, None,
        Ellipsis): a parameter of its own, the view args[k][index] taken
        at each call (_Indexed in `values`)."""
        # The index's effect on the number of dimensions, read on a
        # zero-stride byte array of large extents (no memory).
        extent = 1 << (60 // max(var.ndim, 1))
        probe = numpy.broadcast_to(numpy.empty((), numpy.uint8),
                                   (extent,) * var.ndim)
        try:
            ndim = probe[index].ndim
        except IndexError as e:
            raise IndexError(f"cupy.fuse: {e}") from None
        name = f"_p{len(self.params)}"
        self.params.append((name, var.dtype, True))
        self.values.append(_Indexed(int(var._param[2:]), index))
        self.indexed_sources.add(var._param)
        view = _Var(self, var.dtype, name, ndim, param=name)
        view._is_array = True
        return view

    def operand(self, value):
        """A traced value for an operand: a constant becomes a parameter."""
        if isinstance(value, _Var):
            if value._trace is not self:
                raise TypeError("cupy.fuse: a value of another fused call")
            return value
        if isinstance(value, (numbers.Number, numpy.generic)):
            var = self.param(value)
            self.values.append(value)
            return var
        raise TypeError(f"cupy.fuse: unsupported operand type "
                        f"{type(value).__name__} (only the function's "
                        "arguments and scalars)")

    def _temp(self, dtype, expr, ndim, stage):
        name = f"_t{self.count}"
        self.count += 1
        from fake_cupy._elementwise import _ctype
        (self.post if stage else self.stmts).append(
            f"const {_ctype(dtype)} {name} = ({_ctype(dtype)})({expr});")
        return _Var(self, dtype, name, ndim, stage=stage)

    def _stage(self, vars_):
        """0 for the elementwise part, 1 for what follows the reduction
        (its value and scalar parameters only)."""
        if self.reduction is None:
            return 0
        late = [v._stage == 1 or v._param is not None and not v._is_array
                for v in vars_]
        if all(late):
            return 1
        if any(v._stage for v in vars_):
            raise NotImplementedError(
                "cupy.fuse: an array argument, or a value computed before "
                "the reduction, used with the reduced value")
        return 0

    def _cast(self, var, dtype):
        ctype = _compute_ctype(dtype)
        if var.dtype == dtype and ctype != "float":
            return var._expr
        return f"(({ctype})({var._expr}))"

    def ufunc(self, ufunc, inputs, kwargs):
        out = kwargs.pop("out", None)
        dtype = kwargs.pop("dtype", None)
        casting = kwargs.pop("casting", "same_kind")
        if kwargs:
            raise NotImplementedError(
                f"cupy.fuse: {ufunc.__name__}'s arguments {sorted(kwargs)}")
        vars_ = [self.operand(x) for x in inputs]
        types = tuple(v._weak or v.dtype for v in vars_)
        try:
            if dtype is not None:
                loop = ufunc.resolve_dtypes(
                    types + (numpy.dtype(dtype),) * ufunc.nout,
                    casting=casting)
            else:
                loop = ufunc.resolve_dtypes(types + (None,) * ufunc.nout)
        except (TypeError, numpy.exceptions.DTypePromotionError) as e:
            raise TypeError(f"cupy.fuse: {ufunc.__name__} of {types}: {e}") \
                from None
        in_types, out_types = loop[:ufunc.nin], loop[ufunc.nin:]
        name = ufunc.__name__
        if name in _SPECIAL and dtype is None and \
                not isinstance(types[0], type) and types[0].kind != "c":
            # cupyx.scipy.special's loops as CuPy resolves them (_special.py).
            from fake_cupy._special import cupy_loop
            cupy = cupy_loop(name, types[0])
            if cupy is not None:
                in_types, out_types = cupy[:1], cupy[1:]
        if ufunc.nout == 1:
            is_bool = all(t == numpy.bool_ for t in in_types)
            table = _UNARY if ufunc.nin == 1 else _BINARY
            bool_table = _BOOL_UNARY if ufunc.nin == 1 else _BOOL_BINARY
            form = bool_table.get(name) if is_bool else None
            forms = (form or table.get(name),)
        else:
            forms = _SEVERAL.get(name, (None,))
        if None in forms or name in _SPECIAL and in_types[0].kind == "c":
            raise NotImplementedError(
                f"cupy.fuse: the ufunc {name} has no CUDA C form here"
                + (" for complex values" if None not in forms else ""))
        args = [self._cast(v, t) for v, t in zip(vars_, in_types)]
        stage = self._stage(vars_)
        ndim = max(v.ndim for v in vars_)
        results = [self._temp(t, f.format(*args, T=_compute_ctype(in_types[0])),
                              ndim, stage) for f, t in zip(forms, out_types)]
        if out is not None:
            targets = out if isinstance(out, tuple) else (out,)
            results = [r if t is None else self.assign(t, r)
                       for t, r in zip(targets, results)]
        return results[0] if len(results) == 1 else tuple(results)

    def assign(self, target, value):
        """ufunc(..., out=target) and the in-place operators."""
        if not isinstance(target, _Var) or target._param is None \
                or not target.ndim and target._weak is not None:
            raise TypeError("cupy.fuse: out= must be an array argument")
        if target._stage or value._stage:
            raise NotImplementedError("cupy.fuse: out= after the reduction")
        if not numpy.can_cast(value.dtype, target.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc output from {value.dtype} "
                            f"to {target.dtype} with casting rule 'same_kind'")
        cast = self._temp(target.dtype, value._expr, target.ndim, 0)
        self.writes = [w for w in self.writes if w[0] != target._param]
        self.writes.append((target._param, target.dtype, cast._expr))
        target._expr = cast._expr
        return target

    def cast(self, var, dtype):
        return self._temp(dtype, self._cast(var, dtype), var.ndim,
                          self._stage([var]))

    def unary_c(self, var, form, dtype):
        return self._temp(dtype, form.format(var._expr), var.ndim,
                          self._stage([var]))

    def part(self, var, which):
        """cupy.real, cupy.imag and the properties, as CuPy's fusion
        computes them (its ufuncs cupy_real and cupy_imag): a complex
        value's part in the real type, else the value itself (real) or
        zero (imag) in its own dtype."""
        if var.dtype.kind == "c":
            return self.unary_c(var, which + "({0})",
                                numpy.empty(0, var.dtype).real.dtype)
        return self.unary_c(var, "{0}" if which == "real" else "0", var.dtype)

    def loop_ufunc(self, name, loops, forms, x, out=None, dtype=None):
        """One of CuPy's own ufuncs (cupyx.rsqrt, cupy.angle) on a traced
        value: its loop is `dtype`'s, else the first of `loops` (type
        characters, or "in->out" where the output type differs) that x's
        dtype casts to safely, as CuPy's ufuncs choose. `forms` maps the
        loop's input kind to the C form over {0} ({T}: its C type)."""
        var = self.operand(x)
        pairs = [(t[0], t[-1]) for t in loops]
        if dtype is not None:
            want = numpy.dtype(dtype).char
            fits = [p for p in pairs if p[0] == want]
            if not fits:
                raise TypeError(f"ufunc '{name}' not supported for the "
                                f"input types with dtype {numpy.dtype(dtype)}")
        else:
            fits = [p for p in pairs if numpy.can_cast(var.dtype, p[0], "safe")]
            if not fits:
                raise TypeError(f"ufunc '{name}' not supported for the "
                                f"input type {var.dtype}")
        loop, loop_out = numpy.dtype(fits[0][0]), numpy.dtype(fits[0][1])
        expr = forms[loop.kind].format(self._cast(var, loop),
                                       T=_compute_ctype(loop))
        result = self._temp(loop_out, expr, var.ndim, self._stage([var]))
        if out is not None:
            return self.assign(out, result)
        return result

    def where(self, cond, x=None, y=None):
        if x is None or y is None:
            raise NotImplementedError("cupy.fuse: where with one argument")
        vars_ = [self.operand(v) for v in (cond, x, y)]
        dtype = numpy.result_type(*[v._weak(0) if v._weak else
                                    numpy.empty(0, v.dtype)
                                    for v in vars_[1:]])
        expr = (f"(bool)({vars_[0]._expr}) ? {self._cast(vars_[1], dtype)}"
                f" : {self._cast(vars_[2], dtype)}")
        return self._temp(dtype, expr, max(v.ndim for v in vars_),
                          self._stage(vars_))

    def clip(self, a, a_min, a_max, out=None, **kwargs):
        return numpy.minimum(numpy.maximum(a, a_min), a_max)

    def reduce(self, name, a, axis=None, dtype=None, out=None, **kwargs):
        if out is not None or kwargs:
            raise NotImplementedError(
                f"cupy.fuse: {name}'s arguments out=/{sorted(kwargs)}")
        if self.reduction is not None:
            raise NotImplementedError("cupy.fuse: a second reduction in one "
                                      "fused function")
        var = self.operand(a)
        if var._stage:
            raise NotImplementedError("cupy.fuse: a reduction of a reduced "
                                      "value")
        func, _, _ = _REDUCTIONS[name]
        result_dtype = (func(numpy.zeros(1, var.dtype)) if dtype is None
                        else func(numpy.zeros(1, var.dtype), dtype=dtype)).dtype
        if result_dtype == numpy.bool_ and var.dtype.kind == "c":
            # all/any of complex values: whether each is non-zero.
            mapped = f"({var._expr} != {_compute_ctype(var.dtype)}(0))"
        else:
            mapped = self._cast(var, result_dtype)
        self.reduction = (name, axis, result_dtype, mapped)
        ndim = 0 if axis is None else var.ndim
        return _Var(self, result_dtype, "a", ndim, stage=1)


def _c_name(dtype):
    return numpy.dtype(dtype).name


class _Compiled:
    """The kernel of one traced signature and how to call it."""

    def __init__(self, trace, results, nargs):
        from fake_cupy._elementwise import (ElementwiseKernel,
                                            ReductionKernel, _ctype)
        self.values = trace.values
        self.nargs = nargs
        self.single = not isinstance(results, tuple)
        # None for a function returning None, () for one returning ().
        self.empty = () if isinstance(results, tuple) else None
        results = () if results is None else \
            (results if isinstance(results, tuple) else (results,))
        outs = []
        for r in results:
            if not isinstance(r, _Var):
                raise TypeError(f"cupy.fuse: {trace.name} returned "
                                f"{type(r).__name__}, not a traced value")
            outs.append(r)
        self.none = not outs
        code = "\n".join(list(trace.stmts) + list(trace.post)
                         + [r._expr for r in outs]
                         + [e for _, _, e in trace.writes]
                         + ([trace.reduction[3]] if trace.reduction else []))
        # An argument used only through its indexed views is raw: it does
        # not take part in the broadcast (its views do).
        raw = {n for n in trace.indexed_sources
               if not re.search(rf"\b{n}\b", code)}
        in_params = ", ".join(("raw " if n in raw else "")
                              + f"{_c_name(dt)} {n}"
                              for n, dt, _ in trace.params)
        self.write_params = [n for n, _, _ in trace.writes]
        self.reduction = trace.reduction
        if trace.reduction is None:
            out_params = [f"{_c_name(r.dtype)} _out{k}"
                          for k, r in enumerate(outs)]
            out_params += [f"{_c_name(dt)} _w{n}" for n, dt, _ in trace.writes]
            body = list(trace.stmts)
            body += [f"_out{k} = {r._expr};" for k, r in enumerate(outs)]
            body += [f"_w{n} = {e};" for n, _, e in trace.writes]
            self.kernel = ElementwiseKernel(
                in_params, ", ".join(out_params), "\n    ".join(body),
                name=trace.name, preamble=_PREAMBLE)
            return
        if trace.writes:
            raise NotImplementedError("cupy.fuse: an in-place update in a "
                                      "function with a reduction")
        if len(outs) != 1:
            raise NotImplementedError("cupy.fuse: a function with a "
                                      "reduction returns one value")
        name, axis, rdtype, expr = trace.reduction
        _, fold, identity = _REDUCTIONS[name]
        if rdtype == numpy.float16:
            rdtype = numpy.dtype(numpy.float32)     # folded in float
        rtype = _ctype(rdtype)
        signature = ", ".join(f"const {_ctype(dt)} {n}"
                              for n, dt, _ in trace.params if n not in raw)
        preamble = (_PREAMBLE + f"__device__ {rtype} _fz_map({signature}) "
                    "{\n  " + "\n  ".join(trace.stmts)
                    + f"\n  return ({rtype})({expr});\n}}\n")
        args = ", ".join(n for n, _, _ in trace.params if n not in raw)
        post = list(trace.post) + [f"_out0 = {outs[0]._expr};"]
        self.axis = axis
        self.kernel = ReductionKernel(
            in_params, f"{_c_name(outs[0].dtype)} _out0", f"_fz_map({args})",
            fold, " ".join(post), identity, name=trace.name,
            reduce_type=_c_name(rdtype), preamble=preamble)
        # A fused max or min has no identity: the fold leaves out partial
        # results of no element, as CuPy's min_max_st; the post-map is the
        # trace's statements (see _reduction_body).
        self.kernel._fused = True

    def __call__(self, args):
        args = list(args)
        args += [v(args) if isinstance(v, _Indexed) else v
                 for v in self.values]
        if self.reduction is not None:
            return self.kernel(*args, axis=self.axis)
        written = [args[int(n[2:])] for n in self.write_params]
        if not written:
            if self.none:
                return self.empty
            result = self.kernel(*args)
            return result if self.single or isinstance(result, tuple) \
                else (result,)
        import fake_cupy
        shape = numpy.broadcast_shapes(
            *[a.shape for a in args if isinstance(a, ndarray)])
        outs = [fake_cupy.empty(shape, dtype=p.dtype)
                for p in self.kernel.out_params[:self.kernel.nout
                                               - len(written)]]
        self.kernel(*args, *outs, *written)
        if self.none:
            return self.empty
        if self.single:
            return outs[0]
        return tuple(outs)


_ACCEPTABLE = (ndarray, numpy.generic, numbers.Number, type(None))


class Fusion:
    """The function cupy.fuse returns."""

    def __init__(self, func, name=None):
        self.func = func
        self.name = name or getattr(func, "__name__", "fusion")
        self._cache = {}
        functools.update_wrapper(self, func)

    def __call__(self, *args):
        if not any(isinstance(a, ndarray) for a in args):
            # CuPy: no cupy.ndarray among the arguments, the function
            # itself runs (on NumPy arrays, say).
            return self.func(*args)
        for a in args:
            if not isinstance(a, _ACCEPTABLE):
                raise TypeError(
                    f"Invalid argument type for '{self.name}': ("
                    + ", ".join(repr(type(x)) for x in args) + ")")
        key = tuple((a.dtype.char, a.ndim) if isinstance(a, ndarray)
                    else (type(a), getattr(a, "dtype", None)) for a in args)
        compiled = self._cache.get(key)
        if compiled is None:
            trace = _Trace(self.name)
            params = [trace.param(a) for a in args]
            results = self.func(*params)
            compiled = self._cache[key] = _Compiled(trace, results, len(args))
        return compiled([a for a in args if a is not None])

    def clear_cache(self):
        self._cache = {}

    def __repr__(self):
        return f"<Fusion '{self.name}'>"


def fuse(*args, **kwargs):
    """cupy.fuse: `@cupy.fuse`, `@cupy.fuse()` or
    `@cupy.fuse(kernel_name=...)`."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])

    def decorator(func):
        return Fusion(func, kwargs.get("kernel_name"))
    return decorator
