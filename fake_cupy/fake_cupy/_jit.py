"""cupyx.jit of the fake CuPy: rawkernel, translated from Python to CUDA C.

`@jit.rawkernel()` turns a Python function into a CUDA kernel, as CuPy's
documented subset defines it. At each call the argument types are read
(an ndarray is a CArray<T, ndim> parameter; a Python bool, int, float,
complex is bool, long long, double, complex<double>; a NumPy scalar its
dtype), the function's AST is translated into CUDA C for those types
(cached by them: `cached_codes`, `cached_code`), compiled (NVRTC judges it
when present, libcuemu runs it) and launched: `kernel(grid, block, args,
shared_mem=0, stream=None)` or `kernel[grid, block](*args)`.

Supported: assignments (local variables take the type of their first
assignment and are declared at the top of the kernel, as CuPy does),
augmented assignments, `if`/`elif`/`else`, `while`, `for` over `range` or
`jit.range(..., unroll=)` (`#pragma unroll`), `break`, `continue`, `pass`,
`return` without a value; arithmetic typed as CuPy's _call_ufunc types it
(see _promote: mode 'cuda' or 'numpy'), `/` as true division, `//`
and `%` rounding as Python, `**`, comparisons (chained), `and`/`or`/`not`,
conditional expressions; `len`, `min`, `max`, `abs`, `int`, `float`,
`bool`, NumPy/CuPy scalar types as casts and their ufuncs on scalars;
x[i, j] on arrays (one index per dimension, x[()] for 0-d), x.size,
x.ndim, x.shape, x.strides; names of the enclosing Python scope (numbers
become constants); jit.threadIdx, blockIdx, blockDim, gridDim, grid(n),
gridsize(n), laneid(), warpsize, syncthreads(), syncwarp(mask=),
shfl_sync/shfl_up_sync/shfl_down_sync/shfl_xor_sync (width=),
shared_memory(dtype, size) (size None: the dynamic shared memory),
atomic_add/sub/exch/min/max/inc/dec/cas/and/or/xor(array, index, value);
functions decorated with `@jit.rawkernel(device=True)`, called from a
kernel. Each statement carries its Python line (#line), so compile errors
and kernel faults name the Python file and line. Anything else raises
NotImplementedError naming the construct and the line; an unknown name
raises NameError("Unbound name: NAME").
"""
import ast
import inspect
import numbers
import textwrap

import numpy

from fake_cupy._ndarray import ndarray

_HELPERS = r"""
template <typename T, int N>
__device__ T &_jit_at(const CArray<T, N> &a) { return *a.data_; }
template <typename T, int N, typename... I>
__device__ T &_jit_at(const CArray<T, N> &a, I... idx) {
  const long long ix[] = {(long long)idx...};
  char *p = (char *)a.data_;
  for (int d = 0; d < N; ++d) p += ix[d] * a.strides_[d];
  return *(T *)p;
}
__device__ unsigned int _jit_laneid() {
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x
          + threadIdx.x) % warpSize;
}
"""


_NOT_PY = object()       # python_value's answer for a kernel value


def _is_kernel_built_in(value):
    """Whether a value of the Python scope is one of cupyx.jit's names that
    exist only in a kernel (threadIdx, blockIdx, blockDim, gridDim,
    warpsize)."""
    from fake_cupy import _jit_api
    return isinstance(value, _jit_api._Dim3Name) or value is _jit_api.warpsize


class _Array:
    def __init__(self, dtype, ndim):
        self.dtype, self.ndim = numpy.dtype(dtype), ndim

    def key(self):
        return ("array", self.dtype.str, self.ndim)


class _Shared:
    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)


class _Tuple:
    def __init__(self, items):
        self.items = items          # [(code, type)]


class _Dim3:
    def __init__(self, name):
        self.name = name


class _Py:
    """A value of the Python scope, known when translating."""

    def __init__(self, value):
        self.value = value


def _ctype(dtype):
    from fake_cupy._elementwise import _ctype as ctype
    return ctype(dtype)


_WEAK = {int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
         bool: numpy.dtype(numpy.bool_),
         complex: numpy.dtype(numpy.complex128)}


class _Scalar:
    """A scalar expression's type: a dtype, weak for a Python constant."""

    def __init__(self, dtype, weak=None):
        self.dtype = numpy.dtype(dtype)
        self.weak = weak


# The kernel's mode while it is translated (rawkernel(mode=...)).
_MODE = ["cuda"]

# CuPy's _cuda_typerules in mode 'cuda': a constant is typed as an argument
# is, and a type casts to every type after it in this order.
_CUDA_ORDER = "?bBhHiIlLqQefdFD"
_CUDA_CONSTANT = {bool: numpy.dtype(numpy.bool_),
                  int: numpy.dtype(numpy.int32),
                  float: numpy.dtype(numpy.float32),
                  complex: numpy.dtype(numpy.complex64)}


def _promote(*types):
    """The type an operation on these operands computes in, as CuPy's
    _call_ufunc picks a homogeneous loop: constants alone are folded (a
    constant of their kind); in mode 'cuda' constants are int32, float32
    or complex64 and the result is the operand type latest in
    ?bBhHiIlLqQefdFD (uint8 + 1 is int32, int64 * 1.5 float32); in mode
    'numpy' constants are int64, float64 or complex128 and the result is
    NumPy's safe-casting promotion of the operand types."""
    weak = types[0].weak if all(t.weak is types[0].weak for t in types) \
        else None
    if weak is not None and types[0].weak is not None:
        return _Scalar(_WEAK[weak], weak)
    if _MODE[-1] == "cuda":
        dts = [_CUDA_CONSTANT[t.weak] if t.weak is not None else t.dtype
               for t in types]
        return _Scalar(max(dts, key=lambda d: _CUDA_ORDER.index(d.char)))
    return _Scalar(numpy.result_type(
        *[_WEAK[t.weak] if t.weak is not None else t.dtype for t in types]))


# CuPy's rounding functions have only the loops e->e, f->f, d->d, where
# NumPy 2's also take integers and bools.
_FLOAT_LOOPS_ONLY = {"floor", "ceil", "trunc"}


def _ufunc_operand(t):
    """An operand's dtype as CuPy's _call_ufunc reads it: a constant is
    int32, float32 or complex64 in mode 'cuda', int64, float64 or
    complex128 in mode 'numpy'."""
    if t.weak is None:
        return t.dtype
    return (_CUDA_CONSTANT if _MODE[-1] == "cuda" else _WEAK)[t.weak]


def _ufunc_loop(ufunc, operands):
    """The loop's dtypes (inputs, then the output) that CuPy's
    guess_routine picks: the first of the ufunc's loops (NumPy's list, which
    is CuPy's for these ufuncs, less the types CUDA lacks) that every
    operand casts to; in mode 'cuda' a type casts to every type at or after
    it in ?bBhHiIlLqQefdFD (so an integer or bool value gives float16 for
    the math functions, whose first loop is e->e), in mode 'numpy' as
    numpy.can_cast says. None when no loop takes them."""
    if _MODE[-1] == "cuda":
        def can_cast(a, b):
            return _CUDA_ORDER.index(a.char) <= _CUDA_ORDER.index(b.char)
    else:
        can_cast = numpy.can_cast
    for loop in ufunc.types:
        ins, out = loop.split("->")
        if any(c not in _CUDA_ORDER for c in ins + out):
            continue
        if ufunc.__name__ in _FLOAT_LOOPS_ONLY and ins[0] not in "efd":
            continue
        dtypes = [numpy.dtype(c) for c in ins + out]
        if all(can_cast(a, b) for a, b in zip(operands, dtypes)):
            return tuple(dtypes)
    return None


def _arg_type(value, mode="cuda"):
    """A kernel argument's type, as CuPy's get_ctype_from_scalar gives it:
    a NumPy scalar has its dtype; in the default mode 'cuda' a Python int
    is int32 when it fits (else int64), a float float32 and a complex
    complex64; in mode 'numpy' they are int64, float64 and complex128."""
    if isinstance(value, ndarray):
        return _Array(value.dtype, value.ndim)
    if isinstance(value, numpy.generic):
        return _Scalar(value.dtype)
    if isinstance(value, bool):
        return _Scalar(numpy.bool_)
    if mode == "cuda" and isinstance(value, (int, float, complex)):
        if isinstance(value, int):
            return _Scalar(numpy.int32 if -(1 << 31) <= value < (1 << 31)
                           else numpy.int64)
        return _Scalar(numpy.float32 if isinstance(value, float)
                       else numpy.complex64)
    for kind in (int, float, complex):
        if isinstance(value, kind):
            return _Scalar(_WEAK[kind])
    # CuPy's _JitRawKernel.__call__ words it so (a NumPy array or a list
    # passed for an array, say).
    raise TypeError(f"{type(value)} is not supported for RawKernel")


def _type_key(t):
    if isinstance(t, _Array):
        return t.key()
    return ("scalar", t.dtype.str)


class JitError(NotImplementedError):
    pass


class _Translator:
    """Translates one function for given argument types."""

    def __init__(self, func, arg_types, device, helpers):
        self.func = func
        self.device = device
        self.helpers = helpers          # shared by a kernel and its callees
        lines, self.first_line = inspect.getsourcelines(func)
        self.filename = inspect.getsourcefile(func) or "<jit>"
        tree = ast.parse(textwrap.dedent("".join(lines)))
        self.node = tree.body[0]
        if not isinstance(self.node, ast.FunctionDef):
            raise JitError("cupyx.jit.rawkernel takes a function")
        self.params = [a.arg for a in self.node.args.args]
        if len(self.params) != len(arg_types):
            raise TypeError(f"{func.__name__}() takes {len(self.params)} "
                            f"arguments, {len(arg_types)} given")
        self.env = dict(zip(self.params, arg_types))
        self.locals = {}                # name -> type, declared at the top
        self.return_type = None
        self.count = 0
        closure = inspect.getclosurevars(func)
        self.scope = dict(func.__globals__)
        self.scope.update(closure.nonlocals)
        import builtins
        self.builtins = builtins

    # ---- errors -------------------------------------------------------
    def where(self, node):
        return f"{self.filename}:{self.first_line + node.lineno - 1}"

    def unsupported(self, node, what=None):
        what = what or type(node).__name__
        return JitError(f"{self.where(node)}: {what} is not supported in a "
                        "cupyx.jit kernel")

    # ---- statements ---------------------------------------------------
    def body(self, stmts, indent):
        out = []
        for s in stmts:
            out.append(f'#line {self.first_line + s.lineno - 1} '
                       f'"{self.filename}"')
            out.extend(indent + line for line in self.stmt(s))
        return out

    def stmt(self, s):
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            raise self.unsupported(s, f"the statement {type(s).__name__}")
        return method(s)

    def stmt_Pass(self, s):
        return [";"]

    def stmt_Break(self, s):
        return ["break;"]

    def stmt_Continue(self, s):
        return ["continue;"]

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value,
                                                            str):
            return []                       # a docstring
        code, _ = self.expr(s.value)
        return [code + ";"]

    def stmt_Return(self, s):
        if s.value is None or isinstance(s.value, ast.Constant) and \
                s.value.value is None:
            return ["return;"]
        code, t = self.expr(s.value)
        if not self.device:
            raise TypeError(f"{self.where(s)}: a kernel cannot return a "
                            "value")
        if not isinstance(t, _Scalar):
            raise self.unsupported(s, "returning a non-scalar")
        if self.return_type is None:
            self.return_type = t
        return [f"return ({_ctype(self.return_type.dtype)})({code});"]

    def assign_name(self, name, code, t, node):
        current = self.env.get(name)
        if isinstance(t, _SharedDecl):
            # s = jit.shared_memory(...): the declaration, named s.
            if name in self.env:
                raise self.unsupported(node, f"re-binding {name}")
            self.env[name] = t
            return [code.replace(t.name, name)]
        if isinstance(t, (_Tuple, _Shared)):
            # Compile-time values: the name stands for the expression.
            if name in self.locals:
                raise self.unsupported(node, f"re-binding {name}")
            self.env[name] = t
            if isinstance(t, _Shared):
                return [code]
            return []
        if isinstance(t, _Py):
            raise self.unsupported(node, f"assigning a Python object to "
                                   f"{name}")
        if current is None:
            self.env[name] = self.locals[name] = _Scalar(t.dtype)
        elif not isinstance(current, _Scalar):
            raise self.unsupported(node, f"re-binding {name}")
        return [f"{name} = {code};"]

    def stmt_Assign(self, s):
        if len(s.targets) != 1:
            raise self.unsupported(s, "chained assignment")
        target = s.targets[0]
        code, t = self.expr(s.value)
        return self.assign(target, code, t, s)

    def assign(self, target, code, t, node):
        if isinstance(target, ast.Name):
            return self.assign_name(target.id, code, t, node)
        if isinstance(target, ast.Tuple):
            if not isinstance(t, _Tuple):
                raise ValueError(f"{self.where(node)}: cannot unpack a "
                                 "non-tuple value")
            if len(t.items) != len(target.elts):
                raise ValueError(f"{self.where(node)}: cannot unpack "
                                 f"{len(t.items)} values into "
                                 f"{len(target.elts)}")
            out = []
            for elt, (c, et) in zip(target.elts, t.items):
                out += self.assign(elt, c, et, node)
            return out
        if isinstance(target, ast.Subscript):
            lhs, lt = self.expr(target)
            return [f"{lhs} = ({_ctype(lt.dtype)})({code});"]
        raise self.unsupported(node, "this assignment target")

    def stmt_AugAssign(self, s):
        value = ast.BinOp(left=s.target if not isinstance(s.target, ast.Name)
                          else ast.Name(id=s.target.id, ctx=ast.Load()),
                          op=s.op, right=s.value)
        ast.copy_location(value, s)
        if isinstance(s.target, ast.Subscript):
            load = ast.Subscript(value=s.target.value, slice=s.target.slice,
                                 ctx=ast.Load())
            ast.copy_location(load, s)
            value.left = load
        code, t = self.expr(value)
        return self.assign(s.target, code, t, s)

    def stmt_If(self, s):
        cond, _ = self.expr(s.test)
        out = [f"if ({cond}) {{"] + self.body(s.body, "  ") + ["}"]
        if s.orelse:
            out += ["else {"] + self.body(s.orelse, "  ") + ["}"]
        return out

    def stmt_While(self, s):
        if s.orelse:
            raise self.unsupported(s, "while ... else")
        cond, _ = self.expr(s.test)
        return [f"while ({cond}) {{"] + self.body(s.body, "  ") + ["}"]

    def stmt_For(self, s):
        if s.orelse:
            raise self.unsupported(s, "for ... else")
        call = s.iter
        if not isinstance(call, ast.Call) or not isinstance(s.target,
                                                            ast.Name):
            raise self.unsupported(s, "for over anything but range()")
        func = self.python_value(call.func)
        from fake_cupy import _jit_api
        if func is not self.builtins.range and func is not _jit_api.range:
            raise self.unsupported(s, "for over anything but range()")
        pragma = []
        for kw in call.keywords:
            if kw.arg != "unroll" or func is self.builtins.range:
                raise self.unsupported(s, f"range's argument {kw.arg}")
            unroll = self.python_value(kw.value)
            if unroll is True:
                pragma = ["#pragma unroll"]
            elif unroll is False:
                pragma = ["#pragma unroll(1)"]
            elif isinstance(unroll, int) and unroll >= 0:
                pragma = [f"#pragma unroll({unroll})"]
            elif unroll is not None:
                raise ValueError(f"{self.where(s)}: unroll must be a bool "
                                 "or a non-negative int")
        args = [self.expr(a) for a in call.args]
        if not 1 <= len(args) <= 3:
            raise TypeError(f"{self.where(s)}: range takes 1 to 3 arguments")
        if len(args) == 1:
            args = [("0", _Scalar(numpy.int64, int))] + args
        if len(args) == 2:
            args.append(("1", _Scalar(numpy.int64, int)))
        t = _promote(*[a[1] for a in args])
        name = s.target.id
        if name not in self.env:
            self.env[name] = self.locals[name] = _Scalar(t.dtype)
        (start, _), (stop, _), (step, _) = args
        self.count += 1
        k = self.count
        ct = _ctype(self.env[name].dtype)
        head = [f"const {ct} _stop{k} = {stop}, _step{k} = {step};"]
        loop = (f"for ({name} = {start}; _step{k} > 0 ? {name} < _stop{k} "
                f": {name} > _stop{k}; {name} += _step{k}) {{")
        return ["{"] + head + pragma + [loop] + self.body(s.body, "  ") \
            + ["}", "}"]

    # ---- expressions --------------------------------------------------
    def python_value(self, node):
        """The Python value of a name or attribute chain of the scope (or
        of a constant, or of a NumPy type or numpy.dtype called on such
        values), or _NOT_PY when it is a kernel value."""
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return _NOT_PY
            if node.id in self.scope:
                return self.scope[node.id]
            if hasattr(self.builtins, node.id):
                return getattr(self.builtins, node.id)
            raise NameError(f"Unbound name: {node.id}")
        if isinstance(node, ast.Attribute):
            base = self.python_value(node.value)
            if base is _NOT_PY:
                return _NOT_PY
            if _is_kernel_built_in(base):
                return _NOT_PY              # jit.threadIdx.x: a kernel value
            try:
                return getattr(base, node.attr)
            except AttributeError:
                raise AttributeError(f"{self.where(node)}: {base!r} has no "
                                     f"attribute {node.attr}") from None
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Call) and not node.keywords:
            func = self.python_value(node.func)
            if func is numpy.dtype or isinstance(func, type) and \
                    issubclass(func, numpy.generic):
                args = [self.python_value(a) for a in node.args]
                if all(isinstance(a, (numbers.Number, numpy.generic, str,
                                      type, numpy.dtype)) for a in args):
                    return func(*args)      # cupy.dtype(t).type(cupy.inf)
        return _NOT_PY

    def constant(self, value, node):
        if isinstance(value, bool):
            return ("true" if value else "false"), _Scalar(numpy.bool_, bool)
        if isinstance(value, numbers.Integral) and not isinstance(
                value, numpy.generic):
            return f"{int(value)}LL", _Scalar(numpy.int64, int)
        if isinstance(value, float):
            return self.float_literal(value), _Scalar(numpy.float64, float)
        if isinstance(value, complex):
            value = numpy.complex128(value)
        if isinstance(value, numpy.generic) and value.dtype.kind in "biufc":
            kind = value.dtype.kind
            if kind == "c":
                code = (f"complex<double>({self.float_literal(value.real)}, "
                        f"{self.float_literal(value.imag)})")
            elif kind == "f":
                code = self.float_literal(float(value))
            elif kind == "b":
                code = "true" if value else "false"
            else:
                code = repr(value.item()) + ("ULL" if kind == "u" else "LL")
            return (f"(({_ctype(value.dtype)})({code}))",
                    _Scalar(value.dtype))
        raise self.unsupported(node, f"the Python value {value!r}")

    @staticmethod
    def float_literal(v):
        if v != v:
            return "__longlong_as_double(0x7ff8000000000000LL)"
        if v in (float("inf"), float("-inf")):
            sign = "-" if v < 0 else ""
            return f"{sign}__longlong_as_double(0x7ff0000000000000LL)"
        return repr(float(v))

    def expr(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, f"the expression "
                                   f"{type(node).__name__}")
        return method(node)

    def expr_Constant(self, node):
        return self.constant(node.value, node)

    def expr_Name(self, node):
        t = self.env.get(node.id)
        if t is not None:
            if isinstance(t, _Tuple):
                return None, t
            return node.id, t
        value = self.python_value(node)
        return self.from_python(value, node)

    def from_python(self, value, node):
        from fake_cupy import _jit_api
        if isinstance(value, _jit_api._Dim3Name):
            return value.name, _Dim3(value.name)
        if value is _jit_api.warpsize:
            return "warpSize", _Scalar(numpy.int32)
        if isinstance(value, (numbers.Number, numpy.generic)):
            return self.constant(value, node)
        return None, _Py(value)

    def expr_Attribute(self, node):
        code, t = self.expr(node.value)
        if isinstance(t, _Py):
            try:
                value = getattr(t.value, node.attr)
            except AttributeError:
                raise AttributeError(f"{self.where(node)}: {t.value!r} has "
                                     f"no attribute {node.attr}") from None
            return self.from_python(value, node)
        if isinstance(t, _Dim3):
            if node.attr not in ("x", "y", "z"):
                raise AttributeError(f"{self.where(node)}: dim3 has no "
                                     f"attribute {node.attr}")
            return f"{code}.{node.attr}", _Scalar(numpy.uint32)
        if isinstance(t, _Array):
            n = t.ndim
            if node.attr == "size":
                return f"{code}.size()", _Scalar(numpy.int64)
            if node.attr == "ndim":
                return f"{n}LL", _Scalar(numpy.int64, int)
            if node.attr in ("shape", "strides"):
                return None, _Tuple([(f"{code}.{node.attr}()[{d}]",
                                      _Scalar(numpy.int64))
                                     for d in range(n)])
        if isinstance(t, _Scalar) and t.dtype.kind == "c" and \
                node.attr in ("real", "imag"):
            return (f"{code}.{node.attr}()",
                    _Scalar(numpy.empty(0, t.dtype).real.dtype))
        raise self.unsupported(node, f"the attribute {node.attr}")

    def expr_Subscript(self, node):
        code, t = self.expr(node.value)
        index = node.slice
        items = index.elts if isinstance(index, ast.Tuple) else [index]
        if isinstance(t, _Tuple):
            k = self.python_value(index)
            if not isinstance(k, int):
                raise self.unsupported(node, "a tuple index that is not a "
                                       "constant")
            return t.items[k]
        if isinstance(t, _Shared):
            if len(items) != 1:
                raise IndexError(f"{self.where(node)}: shared memory is 1-D")
            i, _ = self.expr(items[0])
            return f"{code}[{i}]", _Scalar(t.dtype)
        if isinstance(t, _Array):
            if len(items) != t.ndim:
                raise IndexError(f"{self.where(node)}: {t.ndim}-D array "
                                 f"indexed with {len(items)} indices")
            for it in items:
                if isinstance(it, ast.Slice):
                    raise self.unsupported(node, "slicing")
            idx = [self.expr(it)[0] for it in items]
            return (f"_jit_at({', '.join([code] + idx)})",
                    _Scalar(t.dtype))
        raise self.unsupported(node, "indexing this value")

    def scalar(self, node):
        code, t = self.expr(node)
        if not isinstance(t, _Scalar):
            raise TypeError(f"{self.where(node)}: a scalar is needed here, "
                            f"not {type(t).__name__.strip('_').lower()}")
        return code, t

    _BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&",
               ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
               ast.RShift: ">>"}
    _HELPER_OPS = {ast.FloorDiv: "_fz_floor_divide", ast.Mod: "_fz_remainder",
                   ast.Pow: "_fz_power"}

    def expr_BinOp(self, node):
        a, ta = self.scalar(node.left)
        b, tb = self.scalar(node.right)
        t = _promote(ta, tb)
        ct = _ctype(t.dtype)
        op = type(node.op)
        if op is ast.Div:
            if t.dtype.kind in "biu":
                t = _Scalar(numpy.float64)
                ct = "double"
            return f"(({ct})({a}) / ({ct})({b}))", t
        if op in self._BINOPS:
            if t.dtype == numpy.bool_ and op in (ast.Add, ast.Sub, ast.Mult):
                if t.weak is None:
                    # CuPy's add, subtract and multiply have a '??->?' loop
                    # computing in0 | in1, in0 ^ in1 and in0 & in1.
                    bool_op = {ast.Add: "|", ast.Sub: "^", ast.Mult: "&"}[op]
                    return (f"((bool)((bool)({a}) {bool_op} (bool)({b})))",
                            _Scalar(numpy.bool_))
                # Two constants fold as Python's: True + True is 2.
                t = _Scalar(numpy.int64)
                ct = "long long"
            return (f"(({ct})(({ct})({a}) {self._BINOPS[op]} "
                    f"({ct})({b})))", t)
        if op in self._HELPER_OPS:
            if t.dtype.kind == "b" or t.dtype == numpy.float16:
                t = _Scalar(numpy.int8 if t.dtype.kind == "b"
                            else numpy.float32)
                ct = _ctype(t.dtype)
            return (f"{self._HELPER_OPS[op]}(({ct})({a}), ({ct})({b}))", t)
        raise self.unsupported(node, f"the operator {op.__name__}")

    def expr_UnaryOp(self, node):
        code, t = self.scalar(node.operand)
        op = type(node.op)
        if op is ast.Not:
            return f"(!({code}))", _Scalar(numpy.bool_)
        if op is ast.USub:
            return f"(-({code}))", t
        if op is ast.UAdd:
            return f"(+({code}))", t
        if op is ast.Invert:
            if t.dtype == numpy.bool_:
                return f"(!({code}))", t
            return f"(({_ctype(t.dtype)})(~({code})))", t
        raise self.unsupported(node)

    def expr_BoolOp(self, node):
        op = " && " if isinstance(node.op, ast.And) else " || "
        parts = [f"(bool)({self.scalar(v)[0]})" for v in node.values]
        return "(" + op.join(parts) + ")", _Scalar(numpy.bool_)

    _CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=",
            ast.Gt: ">", ast.GtE: ">="}

    def expr_Compare(self, node):
        values = [node.left] + node.comparators
        py = [self.python_value(v) for v in values]
        # threadIdx, warpsize and the like are kernel values, never compared
        # when the kernel is translated.
        if all(v is not _NOT_PY and not isinstance(v, numpy.generic)
               and not _is_kernel_built_in(v) for v in py):
            # Values of the Python scope: compared now, as CuPy does.
            result = True
            for op, a, b in zip(node.ops, py, py[1:]):
                if type(op) not in self._CMP:
                    raise self.unsupported(node, f"the comparison "
                                           f"{type(op).__name__}")
                result = result and eval(f"a {self._CMP[type(op)]} b")
            return ("true" if result else "false"), _Scalar(numpy.bool_,
                                                              bool)
        parts = []
        left, lt = self.scalar(values[0])
        for op, right_node in zip(node.ops, values[1:]):
            if type(op) not in self._CMP:
                raise self.unsupported(node, f"the comparison "
                                       f"{type(op).__name__}")
            right, rt = self.scalar(right_node)
            ct = _ctype(_promote(lt, rt).dtype)
            parts.append(f"(({ct})({left}) {self._CMP[type(op)]} "
                         f"({ct})({right}))")
            left, lt = right, rt
        return "(" + " && ".join(parts) + ")", _Scalar(numpy.bool_)

    def expr_IfExp(self, node):
        c, _ = self.scalar(node.test)
        a, ta = self.scalar(node.body)
        b, tb = self.scalar(node.orelse)
        t = _promote(ta, tb)
        ct = _ctype(t.dtype)
        return f"((bool)({c}) ? ({ct})({a}) : ({ct})({b}))", t

    def expr_Tuple(self, node):
        return None, _Tuple([self.expr(e) for e in node.elts])

    def expr_Call(self, node):
        from fake_cupy import _jit_api
        value = self.python_value(node)
        if isinstance(value, numpy.generic):
            return self.constant(value, node)
        func = self.python_value(node.func)
        if func is _NOT_PY:
            raise self.unsupported(node, "calling this value")
        kwargs = {kw.arg: kw.value for kw in node.keywords}
        if func in _jit_api.BUILTINS:
            return getattr(self, "call_" + func.__name__)(node, node.args,
                                                         kwargs)
        if isinstance(func, _jit_api.JitRawKernel):
            return self.call_device(node, func)
        b = self.builtins
        if func in (b.len, b.min, b.max, b.abs, b.int, b.float, b.bool):
            return getattr(self, "py_" + func.__name__)(node, node.args)
        if isinstance(func, type) and issubclass(func, numpy.generic):
            if len(node.args) != 1:
                raise TypeError(f"{self.where(node)}: {func.__name__} takes "
                                "one argument")
            code, t = self.expr(node.args[0])
            if not isinstance(t, _Scalar):
                raise TypeError(f"{self.where(node)}: cannot convert "
                                f"{type(t).__name__} to {func.__name__}")
            dt = numpy.dtype(func)
            return f"(({_ctype(dt)})({code}))", _Scalar(dt)
        if isinstance(func, numpy.ufunc) or \
                getattr(func, "__name__", None) in _ufunc_names():
            ufunc = getattr(numpy, func.__name__)
            return self.call_ufunc(node, ufunc)
        raise self.unsupported(node, f"calling {func!r}")

    def call_ufunc(self, node, ufunc):
        from fake_cupy import _fusion
        args = [self.scalar(a) for a in node.args]
        if len(args) != ufunc.nin or ufunc.nout != 1:
            raise self.unsupported(node, f"the ufunc {ufunc.__name__} here")
        operands = [_ufunc_operand(t) for _, t in args]
        loop = _ufunc_loop(ufunc, operands)
        if loop is None:
            raise TypeError(f'{self.where(node)}: "{ufunc.__name__}" does '
                            f"not support for the input types: {operands}")
        table = _fusion._UNARY if ufunc.nin == 1 else _fusion._BINARY
        form = table.get(ufunc.__name__)
        if form is None:
            raise self.unsupported(node, f"the ufunc {ufunc.__name__}")
        cast = [f"(({_fusion._compute_ctype(dt)})({c}))"
                for (c, _), dt in zip(args, loop[:-1])]
        out = loop[-1]
        code = form.format(*cast, T=_fusion._compute_ctype(loop[0]))
        return f"(({_ctype(out)})({code}))", _Scalar(out)

    def py_len(self, node, args):
        _, t = self.expr(args[0])
        if isinstance(t, _Array) and t.ndim:
            return f"{self.expr(args[0])[0]}.shape()[0]", _Scalar(numpy.int64)
        if isinstance(t, _Tuple):
            return f"{len(t.items)}LL", _Scalar(numpy.int64, int)
        raise TypeError(f"{self.where(node)}: len() of a scalar")

    def py_minmax(self, node, args, op):
        values = [self.scalar(a) for a in args]
        if len(values) < 2:
            raise self.unsupported(node, f"{'min' if op == '<' else 'max'}"
                                   " of fewer than two values")
        t = _promote(*[v[1] for v in values])
        ct = _ctype(t.dtype)
        code = f"({ct})({values[0][0]})"
        for c, _ in values[1:]:
            self.count += 1
            code = (f"([&]() {{ {ct} _a = {code}, _b = ({ct})({c}); "
                    f"return _b {op} _a ? _b : _a; }}())")
        return code, t

    def py_min(self, node, args):
        return self.py_minmax(node, args, "<")

    def py_max(self, node, args):
        return self.py_minmax(node, args, ">")

    def py_abs(self, node, args):
        code, t = self.scalar(args[0])
        if t.dtype.kind == "c":
            return f"abs({code})", _Scalar(numpy.empty(0, t.dtype).real.dtype)
        if t.dtype.kind == "b":
            return code, t
        return f"_fz_abs(({_ctype(t.dtype)})({code}))", t

    def py_cast(self, args, dtype):
        code, _ = self.scalar(args[0])
        return f"(({_ctype(dtype)})({code}))", _Scalar(dtype)

    def py_int(self, node, args):
        return self.py_cast(args, numpy.dtype(numpy.int64))

    def py_float(self, node, args):
        return self.py_cast(args, numpy.dtype(numpy.float64))

    def py_bool(self, node, args):
        return self.py_cast(args, numpy.dtype(numpy.bool_))

    # ---- cupyx.jit's functions ----------------------------------------
    def const_int(self, node, what):
        value = self.python_value(node)
        if value is None or isinstance(value, bool) or \
                not isinstance(value, numbers.Integral):
            raise TypeError(f"{self.where(node)}: {what} must be a constant "
                            "int")
        return int(value)

    def call_grid(self, node, args, kwargs):
        return self.grid_like(node, args, "grid")

    def call_gridsize(self, node, args, kwargs):
        return self.grid_like(node, args, "gridsize")

    def grid_like(self, node, args, kind):
        n = self.const_int(args[0], f"{kind}'s ndim")
        if n not in (1, 2, 3):
            raise ValueError(f"{self.where(node)}: {kind}'s ndim must be 1, "
                             f"2 or 3, not {n}")
        items = []
        for d in "xyz"[:n]:
            if kind == "grid":
                code = (f"(blockIdx.{d} * blockDim.{d} + threadIdx.{d})")
            else:
                code = f"(blockDim.{d} * gridDim.{d})"
            items.append((code, _Scalar(numpy.uint32)))
        if n == 1:
            return items[0]
        return None, _Tuple(items)

    def call_laneid(self, node, args, kwargs):
        return "_jit_laneid()", _Scalar(numpy.uint32)

    def call_syncthreads(self, node, args, kwargs):
        return "__syncthreads()", _Scalar(numpy.bool_)

    def call_syncwarp(self, node, args, kwargs):
        mask = kwargs.get("mask")
        code = self.scalar(mask)[0] if mask is not None else "0xffffffffu"
        return f"__syncwarp((unsigned int)({code}))", _Scalar(numpy.bool_)

    def shfl(self, node, args, kwargs, name):
        if len(args) != 3:
            raise TypeError(f"{self.where(node)}: {name} takes (mask, var, "
                            "val_id)")
        mask, _ = self.scalar(args[0])
        var, t = self.scalar(args[1])
        other, _ = self.scalar(args[2])
        width = kwargs.get("width")
        w = self.scalar(width)[0] if width is not None else "32"
        return (f"{name}((unsigned int)({mask}), {var}, {other}, "
                f"(int)({w}))", t)

    def call_shfl_sync(self, node, args, kwargs):
        return self.shfl(node, args, kwargs, "__shfl_sync")

    def call_shfl_up_sync(self, node, args, kwargs):
        return self.shfl(node, args, kwargs, "__shfl_up_sync")

    def call_shfl_down_sync(self, node, args, kwargs):
        return self.shfl(node, args, kwargs, "__shfl_down_sync")

    def call_shfl_xor_sync(self, node, args, kwargs):
        return self.shfl(node, args, kwargs, "__shfl_xor_sync")

    def call_shared_memory(self, node, args, kwargs):
        dtype = numpy.dtype(self.python_value(args[0]))
        size = self.python_value(args[1]) if len(args) > 1 else None
        self.count += 1
        name = f"_smem{self.count}"
        ct = _ctype(dtype)
        if size is None:
            code = (f"extern __shared__ __align__(16) unsigned char "
                    f"_dyn{self.count}[]; {ct} *{name} = ({ct} *)"
                    f"_dyn{self.count};")
        else:
            code = f"__shared__ {ct} {name}[{int(size)}];"
        # The declaration is emitted where the call is assigned.
        return code, _SharedDecl(dtype, name)

    def atomic(self, node, args, cname, nargs=3):
        if len(args) != nargs:
            raise TypeError(f"{self.where(node)}: wrong number of arguments")
        arr_code, at = self.expr(args[0])
        if isinstance(at, _Array):
            idx = args[1].elts if isinstance(args[1], ast.Tuple) \
                else [args[1]]
            if len(idx) != at.ndim:
                raise IndexError(f"{self.where(node)}: {at.ndim}-D array "
                                 f"indexed with {len(idx)} indices")
            target = "&_jit_at(" + ", ".join(
                [arr_code] + [self.expr(i)[0] for i in idx]) + ")"
        elif isinstance(at, _Shared):
            target = f"&{arr_code}[{self.expr(args[1])[0]}]"
        else:
            raise TypeError(f"{self.where(node)}: atomics take an array")
        allowed = _ATOMIC_DTYPES[cname]
        if at.dtype.char not in allowed and not (
                at.dtype == numpy.uint64 and "Q" in allowed):
            raise TypeError(
                f"{self.where(node)}: {cname} does not support {at.dtype} "
                "(CUDA has it for " + ", ".join(
                    sorted(numpy.dtype(c).name for c in allowed)) + ")")
        ct = _ctype(at.dtype)
        values = []
        for a in args[2:]:
            code, t = self.scalar(a)
            # CuPy's _astype_scalar(value, ctype, 'same_kind'): a constant
            # takes the element type; a value of another kind must cast to
            # it under NumPy's 'same_kind' rule.
            if t.weak is None and not numpy.can_cast(t.dtype, at.dtype,
                                                     "same_kind"):
                raise TypeError(f"{self.where(node)}: Cannot cast from "
                                f"'{t.dtype}' to {at.dtype} with casting "
                                "rule same_kind.")
            values.append(f"({ct})({code})")
        return f"{cname}({', '.join([target] + values)})", _Scalar(at.dtype)

    def call_device(self, node, func):
        args = [self.expr(a) for a in node.args]
        types = [t for _, t in args]
        for t in types:
            if not isinstance(t, (_Scalar, _Array)):
                raise self.unsupported(node, "passing this value to a "
                                       "device function")
        key = (id(func),) + tuple(_type_key(t) for t in types)
        entry = self.helpers.get(key)
        if entry is None:
            sub = _Translator(func.func, [_Scalar(t.dtype) if isinstance(
                t, _Scalar) else t for t in types], True, self.helpers)
            name = f"{func.func.__name__}_{len(self.helpers)}"
            code = sub.emit(name)
            entry = self.helpers[key] = (name, sub.return_type, code)
        name, rt, _ = entry
        call = f"{name}({', '.join(c for c, _ in args)})"
        return call, rt if rt is not None else _Scalar(numpy.bool_)

    # ---- the function -------------------------------------------------
    def emit(self, name):
        body = self.body(self.node.body, "  ")
        params = []
        for p, t in zip(self.params, [self.env[p] for p in self.params]):
            if isinstance(t, _Array):
                params.append(f"CArray<{_ctype(t.dtype)}, {t.ndim}> {p}")
            else:
                params.append(f"{_ctype(t.dtype)} {p}")
        decls = [f"  {_ctype(t.dtype)} {n}{{}};"
                 for n, t in self.locals.items()]
        if self.device:
            rt = "void" if self.return_type is None else \
                _ctype(self.return_type.dtype)
            head = f"__device__ {rt} {name}("
        else:
            head = f'extern "C" __global__ void {name}('
        return "\n".join([head + ", ".join(params) + ") {"] + decls + body
                         + ["}", ""])


class _SharedDecl(_Shared):
    def __init__(self, dtype, name):
        super().__init__(dtype)
        self.name = name


def _ufunc_names():
    return {name for name in dir(numpy)
            if isinstance(getattr(numpy, name), numpy.ufunc)}


# The element types CUDA's atomic functions take (NumPy type codes).
_ATOMIC_DTYPES = {
    "atomicAdd": "iIQefd", "atomicSub": "iI", "atomicExch": "iIQf",
    "atomicMin": "iIqQ", "atomicMax": "iIqQ", "atomicInc": "I",
    "atomicDec": "I", "atomicCAS": "iIQH", "atomicAnd": "iIQ",
    "atomicOr": "iIQ", "atomicXor": "iIQ",
}


def _atomic_method(cname, nargs=3):
    def call(self, node, args, kwargs):
        return self.atomic(node, args, cname, nargs)
    return call


for _py, _c, _n in [("add", "atomicAdd", 3), ("sub", "atomicSub", 3),
                    ("exch", "atomicExch", 3), ("min", "atomicMin", 3),
                    ("max", "atomicMax", 3), ("inc", "atomicInc", 3),
                    ("dec", "atomicDec", 3), ("cas", "atomicCAS", 4),
                    ("and", "atomicAnd", 3), ("or", "atomicOr", 3),
                    ("xor", "atomicXor", 3)]:
    setattr(_Translator, f"call_atomic_{_py}", _atomic_method(_c, _n))


def translate(func, arg_types, name, mode="cuda"):
    """The CUDA C of a kernel (and of the device functions it calls)."""
    from fake_cupy import _fusion
    helpers = {}
    _MODE.append(mode)
    try:
        translator = _Translator(func, arg_types, False, helpers)
        kernel = translator.emit(name)
    finally:
        _MODE.pop()
    device = [code for _, _, code in helpers.values()]
    return ("#include <cuda_fp16.h>\n#include <cupy/carray.cuh>\n"
            "#include <cupy/complex.cuh>\n" + _fusion._PREAMBLE + _HELPERS
            + "\n".join(device) + "\n" + kernel)
