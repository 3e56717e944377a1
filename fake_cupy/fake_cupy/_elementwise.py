"""cupy.ElementwiseKernel, cupy.ReductionKernel and cupy.fuse.

As CuPy does, the two kernel classes turn their parameter lists and C
snippets into a CUDA C kernel, compile it (NVRTC, when present, judges it
as it would for CuPy; libcuemu compiles and runs it) and launch it:

- parameters are "type name" lists; a type is a NumPy dtype name or a type
  placeholder (any other identifier, such as T), bound by the dtypes of
  the arrays (and scalars) passed for it and declared in the kernel with a
  typedef; `raw` parameters are whole arrays indexed by the operation
  (x[i], with i a linear index over x's own shape, and x.size(),
  x.shape()); the others are one element per loop index, broadcast
  together, and outputs that are not given are allocated with the
  broadcast shape;
- in ElementwiseKernel's operation, `i` is the loop index and `_ind.size()`
  the loop size;
- ReductionKernel maps each input element with map_expr, folds the values
  with reduce_expr (over `a` and `b`, of reduce_type) from identity, and
  writes post_map_expr (with `a`) into each output element, over the axes
  given by axis (all by default), keepdims as NumPy.

Type rules (CuPy's): a placeholder bound to arrays of two dtypes, or a
parameter of a named type (raw or not, input or output) given an array of
another dtype, raises TypeError ("Type is mismatched"; a scalar is
converted); a placeholder of an output left unbound raises TypeError; a call with a wrong number of arguments raises TypeError,
and a loop whose size no non-raw array decides needs size=.

Where the fake differs: the generated code is the fake's own (a grid-stride
loop over CArray views with byte strides; one thread per output element of
a reduction, which plays CuPy's threads of that output one after the other:
see _reduction_body), not CuPy's text. cupy.fuse is in _fusion.py.
"""
import ctypes
import functools
import re

import numpy

from fake_cupy import _runtime
from fake_cupy._ndarray import _from_interface, ndarray

_CTYPES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char",
    "int16": "short", "uint16": "unsigned short", "int32": "int",
    "uint32": "unsigned int", "int64": "long long",
    "uint64": "unsigned long long", "float16": "float16",
    "float32": "float", "float64": "double",
    "complex64": "complex<float>", "complex128": "complex<double>",
}


def _ctype(dtype):
    name = numpy.dtype(dtype).name
    if name not in _CTYPES:
        raise TypeError(f"Unsupported type {numpy.dtype(dtype)}")
    return _CTYPES[name]


def _is_dtype_name(word):
    try:
        numpy.dtype(word)
    except (TypeError, ValueError):
        # ValueError: a C type such as "pair<T, long long>" (NumPy reads a
        # comma in it as a structured dtype's separator).
        return False
    return not (len(word) <= 2 and word.isupper())


class _Param:
    """One "[raw] type name" of a parameter list."""

    def __init__(self, text):
        words = text.split()
        self.raw = words[0] == "raw"
        if self.raw:
            words = words[1:]
        if len(words) != 2 or not re.fullmatch(r"[A-Za-z_]\w*", words[1]):
            raise ValueError(f"Syntax error: {text}")
        self.type_name, self.name = words
        self.dtype = numpy.dtype(self.type_name) \
            if _is_dtype_name(self.type_name) else None

    def __repr__(self):
        return f"<_Param {'raw ' if self.raw else ''}{self.type_name} {self.name}>"


def _parse(params):
    params = params.strip()
    if not params:
        return []
    out = [_Param(p) for p in params.split(",")]
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise ValueError(f"Parameter names must be unique: {params}")
    return out


def _carray_type(ndim):
    n = max(ndim, 1)

    class CArray(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_longlong),
                    ("shape", ctypes.c_longlong * n),
                    ("strides", ctypes.c_longlong * n)]
    return CArray


@functools.lru_cache(maxsize=None)
def _carray_struct(ndim):
    return _carray_type(ndim)


def _carray(array, shape=None, strides=None):
    """The CArray<T, ndim> of an array (or a view of it with the given
    shape and byte strides: a broadcast or a transposition)."""
    shape = tuple(array.shape if shape is None else shape)
    strides = tuple(array.strides if strides is None else strides)
    s = _carray_struct(len(shape))()
    s.data = array.data.ptr if array.size else 0
    s.size = int(numpy.prod(shape, dtype=numpy.int64))
    for d, (n, st) in enumerate(zip(shape, strides)):
        s.shape[d] = n
        s.strides[d] = st
    if not shape:
        s.shape[0], s.strides[0] = 1, 0
    return s


def _broadcast_strides(array, shape):
    """Byte strides of `array` broadcast to `shape` (0 on broadcast axes)."""
    pad = len(shape) - array.ndim
    strides = []
    for d, n in enumerate(shape):
        k = d - pad
        if k < 0 or array.shape[k] == 1 and n != 1:
            strides.append(0)
        else:
            strides.append(array.strides[k])
    return tuple(strides)


def _scalar_dtype(value):
    """The dtype a Python or NumPy scalar binds a placeholder to."""
    if isinstance(value, numpy.generic):
        return value.dtype
    if isinstance(value, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(value, int):
        return numpy.dtype(numpy.int64)
    if isinstance(value, float):
        return numpy.dtype(numpy.float64)
    if isinstance(value, complex):
        return numpy.dtype(numpy.complex128)
    raise TypeError(f"Unsupported type {type(value)}")


def _check_arguments(args):
    """CuPy's _preprocess_args: a kernel argument is an array (or has
    __cuda_array_interface__, made an array before this) or a scalar of
    a numeric type; anything else (a list, None, a string, a NumPy array)
    raises TypeError('Unsupported type <class ...>')."""
    for a in args:
        if isinstance(a, ndarray) or isinstance(a, (bool, int, float, complex)) \
                or (isinstance(a, numpy.generic) and a.dtype.kind in "biufc"):
            continue
        raise TypeError(f"Unsupported type {type(a)}")


def _bind_types(in_params, out_params, args, outs, type_map, strict=True):
    """The placeholder -> dtype map, from arrays first, then scalars.

    As CuPy's _decide_params_type, an array given for a parameter of a
    named type (raw or not, input or output) must have that very dtype
    (strict; the fake's own kernels for CuPy's reductions are not, as CuPy's
    reductions cast their out= as NumPy does)."""
    types = dict(type_map)
    for p, a in list(zip(in_params, args)) + list(zip(out_params, outs)):
        if a is None or not isinstance(a, ndarray):
            continue
        if p.dtype is not None:
            if strict and a.dtype != p.dtype:
                raise TypeError(f"Type is mismatched. {p.name} "
                                f"{a.dtype.type} {p.dtype.type}")
            continue
        bound = types.get(p.type_name)
        if bound is None:
            types[p.type_name] = a.dtype
        elif bound != a.dtype:
            raise TypeError(f"Type is mismatched. {p.name} {a.dtype} {bound}")
    for p, a in zip(in_params, args):
        if p.dtype is None and not isinstance(a, ndarray) \
                and p.type_name not in types:
            types[p.type_name] = _scalar_dtype(a)
    return types


def _resolve(p, types, kernel_name):
    if p.dtype is not None:
        return p.dtype
    if p.type_name not in types:
        raise TypeError(f"Cannot determine the type of {p.name} "
                        f"({p.type_name}) in kernel {kernel_name}")
    return numpy.dtype(types[p.type_name])


def _typedefs(types):
    return "".join(f"typedef {_ctype(dt)} {name};\n"
                   for name, dt in sorted(types.items()))


_HEADERS = ("#include <cuda_fp16.h>\n#include <cupy/carray.cuh>\n"
            "#include <cupy/complex.cuh>\n")


def _check_output(p, array, dtype):
    if not isinstance(array, ndarray):
        raise TypeError(f"Output parameter {p.name} must be a cupy.ndarray, "
                        f"not {type(array).__name__}")
    if p.raw:
        if array.dtype != dtype:
            raise TypeError(f"Type is mismatched. {p.name} {array.dtype} {dtype}")
    elif not numpy.can_cast(dtype, array.dtype, "same_kind"):
        raise TypeError(f"output (typecode '{dtype.char}') could not be "
                        f"coerced to provided output parameter (typecode "
                        f"'{array.dtype.char}') according to the casting "
                        f"rule \"same_kind\"")


def _check_name(name):
    """CuPy's check of a kernel name: a C identifier."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError(f"Invalid kernel name: \"{name}\"")


def _compile(code, name, options):
    from fake_cupy._kernel import RawKernel
    return RawKernel(code, name, options, _generated=True)


# The threads per block of a ReductionKernel's launch (one output each).
_REDUCTION_BLOCK = 128

# CuPy's threads per block of a reduction, which the fake's threads stand in
# for (see _reduction_body).
_CUPY_REDUCTION_BLOCK = 512


def _block_stride(in_size, out_size, contiguous_size):
    """CuPy's outputs per block of a reduction (its _get_block_specs): as
    many as leave each output about in_size / out_size of the block's
    threads, at least the outputs contiguous in an input (at most 32), a
    power of 2 at most the block's size."""
    reduce_block_size = max(1, in_size // max(1, out_size))
    stride = max(min(contiguous_size, 32),
                 _CUPY_REDUCTION_BLOCK // reduce_block_size)
    stride = stride // 2 + 1
    return 1 << (stride - 1).bit_length()


def _contiguous_size(in_params, ins, shape, order, n_reduced):
    """How many consecutive outputs are consecutive elements of an input
    (the most over the inputs), as CuPy counts them: the kept axes, last
    first, while their strides follow the item size (axes of length 1 do
    not count)."""
    best = 1
    for p, a in zip(in_params, ins):
        if p.raw or not isinstance(a, ndarray):
            continue
        strides = _broadcast_strides(a, shape)
        size = 1
        for d in reversed(order[n_reduced:]):
            if shape[d] == 1:
                continue
            if strides[d] != size * a.dtype.itemsize:
                break
            size *= shape[d]
        best = max(best, size)
    return best


def _reduction_body(kernel, params, in_ndim, out_ndim, inputs, outputs):
    """The kernel of a ReductionKernel, computing each output as CuPy's
    code does, operation for operation, so that results are CuPy's to the
    bit (a float16 sum of 3,000 ones is 3000, not the 2048 of a sequential
    sum).

    CuPy gives a block _block_stride outputs (a power of 2) and each output
    V = 512 / _block_stride threads: thread v folds elements _J = v, v + V,
    v + 2V... from identity (_type_reduce() when there is none, as CuPy:
    a max without identity over negative numbers is 0), then the block
    halves the V partial results in shared memory, partial v with partial
    v + V/2, then v + V/4..., the lower one on the left of reduce_expr, and
    thread v = 0 applies post_map_expr. Here one thread per output plays
    the V threads one after the other, in the order of the halving tree's
    leaves (v bit-reversed), and combines their partial results as a
    binary counter does, which performs the tree's combinations in the
    tree's operand order with log2(V) results kept. map_expr, reduce_expr
    and post_map_expr see CuPy's names with CuPy's values: _i, _j, _J, _tid,
    _in_ind, _out_ind, _block_stride, _type_reduce; post_map_expr sees the
    _J that thread 0 ends with.

    The kernels of the fake's fusion (kernel._fused) differ in two ways:
    a max or min, which has no identity, leaves a partial result of no
    element out of the combinations, as CuPy's min_max_st does; and the
    post-map is statements (declarations of the trace's values)."""
    identity = "" if kernel.identity is None else str(kernel.identity)
    skip = kernel._fused and kernel.identity is None
    user = "".join((kernel.map_expr, kernel.reduce_expr,
                    kernel.post_map_expr, kernel.preamble))
    # The multi-dimensional indices are computed only for code that reads
    # them (_in_ind.get(), _out_ind.get()).
    set_in = "        _in_ind.set(_j);\n" if "_in_ind.get" in user else ""
    set_out = "    _out_ind.set(_i);\n" if "_out_ind.get" in user else ""
    fold = ("        if (!_cuemu_has) { _s = _a; _cuemu_has = true; }\n"
            "        else _s = REDUCE(_s, _a);\n") if skip else \
        "        _s = REDUCE(_s, _a);\n"
    combine = ("        if (!_cuemu_has) _s = _cuemu_part[_cuemu_top];\n"
               "        else if (_cuemu_part_has[_cuemu_top])"
               " _s = REDUCE(_cuemu_part[_cuemu_top], _s);\n"
               "        _cuemu_has = _cuemu_has"
               " || _cuemu_part_has[_cuemu_top];\n") if skip else \
        "        _s = REDUCE(_cuemu_part[_cuemu_top], _s);\n"
    has = "    bool _cuemu_part_has[10];\n" if skip else ""
    keep_has = "      _cuemu_part_has[_cuemu_top] = _cuemu_has;\n" if skip \
        else ""
    start_has = "      bool _cuemu_has = false;\n" if skip else ""
    if kernel._fused:
        post_map, define_post = (
            f"    {{ const _type_reduce a = _s; {kernel.post_map_expr} }}\n",
            "")
    else:
        post_map, define_post = (
            "    POST_MAP(_s);\n",
            f"#define POST_MAP(a) ({kernel.post_map_expr})\n")
    return (
        f"#define REDUCE(a, b) ({kernel.reduce_expr})\n" + define_post +
        f'extern "C" __global__ void {kernel.name}('
        + ", ".join(params + [f"CIndexer<{in_ndim}> _in_ind",
                              f"CIndexer<{out_ndim}> _out_ind",
                              "int _block_stride"]) + ") {\n"
        f"  const unsigned int _block_size = {_CUPY_REDUCTION_BLOCK};\n"
        "  (void)_block_size;\n"
        "  const int _cuemu_log_stride = __popc(_block_stride - 1);\n"
        "  const IndexT _J_stride = _block_size >> _cuemu_log_stride;\n"
        "  const int _cuemu_log_threads = __popc(_J_stride - 1);\n"
        "  const ptrdiff_t _j_stride = (ptrdiff_t)_J_stride"
        " * _out_ind.size();\n"
        "  for (ptrdiff_t _i = (ptrdiff_t)blockIdx.x * blockDim.x"
        " + threadIdx.x; _i < _out_ind.size();\n"
        "       _i += (ptrdiff_t)blockDim.x * gridDim.x) {\n"
        "    _type_reduce _cuemu_part[10];\n" + has +
        "    int _cuemu_level[10], _cuemu_count = 0;\n"
        "    IndexT _cuemu_J_last = 0;\n"
        "    for (IndexT _cuemu_leaf = 0; _cuemu_leaf < _J_stride;"
        " ++_cuemu_leaf) {\n"
        "      const IndexT _J_offset = _cuemu_log_threads == 0 ? 0 :"
        " (IndexT)(__brev((unsigned int)_cuemu_leaf)"
        " >> (32 - _cuemu_log_threads));\n"
        "      const unsigned int _tid = ((unsigned int)_J_offset"
        " << _cuemu_log_stride) | (unsigned int)(_i & (_block_stride - 1));\n"
        "      (void)_tid;\n"
        f"      _type_reduce _s = _type_reduce({identity});\n"
        + start_has +
        "      IndexT _J = _J_offset;\n"
        "      for (ptrdiff_t _j = _i + (ptrdiff_t)_J_offset"
        " * _out_ind.size(); _j < _in_ind.size();\n"
        "           _j += _j_stride, _J += _J_stride) {\n"
        + set_in + "\n".join(inputs) + "\n"
        f"        _type_reduce _a = static_cast<_type_reduce>("
        f"{kernel.map_expr});\n"
        + fold +
        "      }\n"
        "      if (_J_offset == 0) _cuemu_J_last = _J;\n"
        "      int _cuemu_lv = 0;\n"
        "      while (_cuemu_count > 0"
        " && _cuemu_level[_cuemu_count - 1] == _cuemu_lv) {\n"
        "        const int _cuemu_top = --_cuemu_count;\n"
        + combine +
        "        ++_cuemu_lv;\n"
        "      }\n"
        "      const int _cuemu_top = _cuemu_count++;\n"
        "      _cuemu_part[_cuemu_top] = _s;\n"
        + keep_has +
        "      _cuemu_level[_cuemu_top] = _cuemu_lv;\n"
        "    }\n"
        "    const unsigned int _tid = (unsigned int)"
        "(_i & (_block_stride - 1));\n"
        "    const IndexT _J = _cuemu_J_last;\n"
        "    (void)_tid; (void)_J;\n"
        "    _type_reduce _s = _cuemu_part[0];\n"
        + set_out
        + "".join(f"    {decl}\n" for decl, _ in outputs)
        + post_map
        + "".join(f"    {write}\n" for _, write in outputs if write)
        + "  }\n"
        "}\n")


def _launch(kernel, n, args, block_size, stream):
    if block_size is not None and block_size <= 0:
        raise ValueError("block_size must be greater than zero")
    if n <= 0:
        return
    block = min(int(block_size or 128), 1024)
    grid = min((n + block - 1) // block, 65535 * 32)
    kernel((grid,), (block,), tuple(args), stream=stream)
    if _runtime.async_mode() == "deferred":
        # The CArray arguments hold raw addresses, which the lifetime
        # checker cannot follow: the launch runs before they can go.
        _runtime.drain()


class ElementwiseKernel:
    """cupy.ElementwiseKernel(in_params, out_params, operation,
    name='kernel', reduce_dims=True, preamble='', no_return=False,
    return_tuple=False, loop_prep='', after_loop='', options=())."""

    def __init__(self, in_params, out_params, operation, name="kernel",
                 reduce_dims=True, preamble="", no_return=False,
                 return_tuple=False, loop_prep="", after_loop="",
                 options=(), **kwargs):
        _check_name(name)
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError("Parameter names must be unique")
        if "i" in names:
            # CuPy's check: i is the loop index of the operation.
            raise ValueError("Can not use 'i' as a parameter name")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self._kernels = {}
        # CuPy's type rules for the arrays given (see _bind_types).
        self._strict_types = True

    def __call__(self, *args, size=None, block_size=None, stream=None,
                 **kwargs):
        if kwargs:
            raise TypeError(f"Wrong arguments {kwargs}")
        # Objects exposing __cuda_array_interface__ are arrays here too.
        args = tuple(_from_interface(a) for a in args)
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name!r}. "
                            f"It must be either {self.nin} or {self.nargs} "
                            f"(with outputs), but given {len(args)}.")
        _check_arguments(args)
        ins = list(args[:self.nin])
        outs = list(args[self.nin:]) or [None] * self.nout
        types = _bind_types(self.in_params, self.out_params, ins,
                            [o for o in outs], {}, self._strict_types)
        shapes = [a.shape for p, a in zip(self.in_params + self.out_params,
                                          ins + outs)
                  if isinstance(a, ndarray) and not p.raw]
        if shapes:
            try:
                shape = numpy.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError("operands could not be broadcast together "
                                 "with shapes " + " ".join(map(str, shapes))) \
                    from None
            if size is not None:
                raise ValueError("Specified 'size' can be used only if all "
                                 "of the ndarray are 'raw'.")
        elif size is None:
            raise ValueError("Loop size is undecided.")
        else:
            shape = (int(size),)
        if args[self.nin:] == () and size is None \
                and any(p.raw for p in self.out_params):
            # CuPy's _get_out_args_with_params: a raw output has no shape of
            # its own, so it is allocated only for a loop of size=.
            raise ValueError("Output array size is Undecided")
        from fake_cupy import _functions
        empty = _functions.CREATION["empty"]
        for k, (p, o) in enumerate(zip(self.out_params, outs)):
            dtype = _resolve(p, types, self.name)
            if o is None:
                outs[k] = empty(shape, dtype=dtype)
            else:
                _check_output(p, o, dtype)
                if not p.raw and o.shape != shape:
                    raise ValueError(f"Out shape is mismatched: {p.name} "
                                     f"{o.shape}, expected {shape}")
        n = int(numpy.prod(shape, dtype=numpy.int64))
        loop = _loop_shape(self.in_params + self.out_params, ins + outs,
                           shape, self.reduce_dims)
        kernel, kargs = self._build(ins, outs, shape, types, len(loop))
        kargs.append(_indexer(loop))
        _launch(kernel, n, kargs, block_size, stream)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    @property
    def _cached_codes(self):
        """The CUDA C of each compiled signature (CuPy's attribute)."""
        return {key: kernel.code for key, kernel in self._kernels.items()}

    def _build(self, ins, outs, shape, types, loop_ndim):
        params, body, kargs, sig = [], [], [], []
        for p, a, is_out in [(p, a, False) for p, a in zip(self.in_params, ins)] + \
                [(p, a, True) for p, a in zip(self.out_params, outs)]:
            ctype = _ctype(_resolve(p, types, self.name)) if p.dtype is None \
                else _ctype(p.dtype)
            tname = p.type_name if p.dtype is None else ctype
            if not isinstance(a, ndarray):
                # `raw` changes only how an array is indexed: a scalar given
                # for a raw input is a plain scalar, as in CuPy.
                if is_out:
                    raise TypeError(f"{p.name} must be a cupy.ndarray")
                dt = _resolve(p, types, self.name)
                params.append(f"{_ctype(dt)} {p.name}")
                kargs.append(_scalar_arg(a, dt))
                sig.append(("s", str(dt)))
                continue
            actual = _ctype(a.dtype)
            if p.raw:
                if p.dtype is not None and a.dtype != p.dtype:
                    raise TypeError(f"Type is mismatched. {p.name} {a.dtype} "
                                    f"{p.dtype}")
                params.append(f"CArray<{tname}, {a.ndim}> {p.name}")
                kargs.append(_carray(a))
                sig.append(("r", str(a.dtype), a.ndim))
                continue
            params.append(f"CArray<{actual}, {len(shape)}> _raw_{p.name}")
            kargs.append(_carray(a, shape, _broadcast_strides(a, shape)))
            sig.append(("a", str(a.dtype), len(shape), is_out))
            if is_out:
                if actual == ctype:
                    body.append(f"    {tname} &{p.name} = _raw_{p.name}[i];")
                else:
                    body.append(f"    {ctype} {p.name};")
            else:
                body.append(f"    const {tname} {p.name} = "
                            f"({ctype})_raw_{p.name}[i];")
        writes = [f"    _raw_{p.name}[i] = ({_ctype(a.dtype)}){p.name};"
                  for p, a in zip(self.out_params, outs)
                  if not p.raw and _ctype(a.dtype) != (
                      _ctype(_resolve(p, types, self.name)))]
        key = (tuple(sig), tuple(sorted((k, str(v)) for k, v in types.items())),
               loop_ndim)
        kernel = self._kernels.get(key)
        if kernel is None:
            # The multi-dimensional index is computed only for code that
            # reads it (_ind.get()).
            reads_index = "_ind.get" in "".join(
                (self.operation, self.loop_prep, self.after_loop,
                 self.preamble))
            code = (_HEADERS + _typedefs(types) + self.preamble + "\n"
                    f'extern "C" __global__ void {self.name}('
                    + ", ".join(params + [f"CIndexer<{loop_ndim}> _ind"])
                    + ") {\n"
                    f"  {self.loop_prep}\n"
                    "  for (long long i = (long long)blockIdx.x * blockDim.x "
                    "+ threadIdx.x; i < _ind.size();\n"
                    "       i += (long long)blockDim.x * gridDim.x) {\n"
                    + ("    _ind.set(i);\n" if reads_index else "")
                    + "\n".join(body) + "\n"
                    f"    {self.operation};\n"
                    + "\n".join(writes) + "\n"
                    "  }\n"
                    f"  {self.after_loop}\n"
                    "}\n")
            kernel = self._kernels[key] = _compile(code, self.name,
                                                   self.options)
        return kernel, kargs


_indexer_types = {}


def _indexer(shape):
    """The CIndexer<len(shape)> argument: the size and the shape of the
    loop (carray.cuh's layout; the index is each thread's own)."""
    ndim = len(shape)
    typ = _indexer_types.get(ndim)
    if typ is None:
        dims = ctypes.c_longlong * max(ndim, 1)
        typ = _indexer_types[ndim] = type(
            f"_Indexer{ndim}", (ctypes.Structure,),
            {"_fields_": [("size", ctypes.c_longlong), ("shape", dims),
                          ("index", dims)]})
    return typ(int(numpy.prod(shape, dtype=numpy.int64)),
               (ctypes.c_longlong * max(ndim, 1))(*shape))


def _loop_shape(params, arrays, shape, reduce_dims):
    """The shape _ind walks: the broadcast shape, or with `reduce_dims`
    (ElementwiseKernel's default) that shape with the dimensions merged that
    every non-raw array steps through evenly, as CuPy reduces them (the
    element order, C order, is the same)."""
    if not reduce_dims or len(shape) <= 1:
        return shape
    views = [numpy.broadcast_to(a._host(), shape)
             for p, a in zip(params, arrays)
             if isinstance(a, ndarray) and not p.raw]
    if not views:
        return shape
    strided = [v for v in views if not v.flags.c_contiguous]
    if not strided:
        return (int(numpy.prod(shape, dtype=numpy.int64)),)
    if len(shape) == 2:
        return shape
    extents, axes, last = list(shape), [], -1
    for ax in range(len(shape)):
        if extents[ax] == 1:
            continue
        if last < 0:
            last = ax
            continue
        if all(v.strides[ax] * extents[ax] == v.strides[last] for v in strided):
            extents[ax] *= extents[last]
        else:
            axes.append(last)
        last = ax
    if last >= 0:
        axes.append(last)
    if len(axes) == len(shape):
        return shape
    return tuple(extents[ax] for ax in axes)


def _scalar_arg(value, dtype):
    try:
        return numpy.array(value).astype(dtype, casting="unsafe")[()] \
            if dtype.kind != "c" else numpy.dtype(dtype).type(value)
    except (TypeError, ValueError):
        raise TypeError(f"Unsupported type {type(value)}") from None


def create_reduction_func(name, ops, routine=None, default_identity=None,
                          preamble="", sort_reduce_axis=True):
    """cupy._core.create_reduction_func(name, ops, routine): a reduction
    over one array, with the first of the type signatures `ops` ("b->b",
    ...) that the input casts to safely (and whose output is dtype=, when
    given), as a ReductionKernel of routine's (map_expr, reduce_expr,
    post_map_expr, reduce_type) over in0, a, b and out0."""
    map_expr, reduce_expr, post_map_expr, reduce_type = routine
    kernels = {}

    def reduction(a, axis=None, dtype=None, out=None, keepdims=False):
        a = _from_interface(a)
        for op in ops:
            in_t, out_t = (numpy.dtype(t) for t in op.split("->"))
            if dtype is not None and numpy.dtype(dtype) != out_t:
                continue
            if numpy.can_cast(a.dtype, in_t):
                break
        else:
            raise TypeError(f"Wrong type ({a.dtype}) of arguments for "
                            f"cupy.{name}")
        kernel = kernels.get((in_t, out_t))
        if kernel is None:
            kernel = kernels[in_t, out_t] = ReductionKernel(
                f"{in_t.name} in0", f"{out_t.name} out0", map_expr,
                reduce_expr, post_map_expr, default_identity, name=name,
                reduce_type=reduce_type or out_t.name, preamble=preamble)
            kernel._strict_types = False
        result = kernel(a.astype(in_t, copy=False), out=out, axis=axis,
                        keepdims=keepdims)
        reduction._cached_codes.update(
            {(in_t.str, out_t.str) + k: v
             for k, v in kernel._cached_codes.items()})
        return result
    reduction.__name__ = name
    reduction._cached_codes = {}
    return reduction


class ReductionKernel:
    """cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr,
    post_map_expr, identity, name='reduce_kernel', reduce_type=None,
    reduce_dims=True, preamble='', options=())."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr,
                 post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        _check_name(name)
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        if any(p.raw for p in self.out_params):
            raise NotImplementedError("raw output is not supported")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.name = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)
        self._kernels = {}
        # Whether the fake's fusion made it (see _reduction_body).
        self._fused = False
        # CuPy's type rules for the arrays given (see _bind_types).
        self._strict_types = True

    @property
    def _cached_codes(self):
        """The CUDA C of each compiled signature (CuPy's attribute)."""
        return {key: kernel.code for key, kernel in self._kernels.items()}

    def __call__(self, *args, out=None, axis=None, keepdims=False,
                 stream=None):
        args = tuple(_from_interface(a) for a in args)
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name!r}. "
                            f"It must be either {self.nin} or {self.nargs} "
                            f"(with outputs), but given {len(args)}.")
        _check_arguments(args)
        ins = list(args[:self.nin])
        outs = list(args[self.nin:])
        if out is not None:
            if outs:
                raise ValueError("cannot specify 'out' as both a positional "
                                 "and keyword argument")
            outs = [out]
        if not outs:
            outs = [None] * self.nout
        types = _bind_types(self.in_params, self.out_params, ins, outs, {},
                            self._strict_types)
        shapes = [a.shape for p, a in zip(self.in_params, ins)
                  if isinstance(a, ndarray) and not p.raw]
        if not shapes:
            raise ValueError("Input arrays are required to decide the shape "
                             "of the reduction")
        shape = numpy.broadcast_shapes(*shapes)
        ndim = len(shape)
        if axis is None:
            axes = tuple(range(ndim))
        else:
            axes = (axis,) if isinstance(axis, int) else tuple(axis)
            for a in axes:
                if not -ndim <= a < ndim:
                    raise numpy.exceptions.AxisError(a, ndim) \
                        if hasattr(numpy, "exceptions") else ValueError(
                            f"axis {a} is out of bounds for array of "
                            f"dimension {ndim}")
            axes = tuple(sorted(a % ndim for a in axes))
            if len(set(axes)) != len(axes):
                raise ValueError("duplicate value in 'axis'")
        kept = tuple(d for d in range(ndim) if d not in axes)
        out_shape = tuple(shape[d] for d in kept)
        if keepdims:
            out_shape_user = tuple(1 if d in axes else shape[d]
                                   for d in range(ndim))
        else:
            out_shape_user = out_shape
        from fake_cupy import _functions
        empty = _functions.CREATION["empty"]
        for k, (p, o) in enumerate(zip(self.out_params, outs)):
            dtype = _resolve(p, types, self.name)
            if o is None:
                outs[k] = empty(out_shape_user, dtype=dtype)
            else:
                _check_output(p, o, dtype)
                if o.shape != out_shape_user:
                    raise ValueError(f"Out shape is mismatched: {o.shape}, "
                                     f"expected {out_shape_user}")
        red_size = int(numpy.prod([shape[d] for d in axes], dtype=numpy.int64))
        out_size = int(numpy.prod(out_shape, dtype=numpy.int64))
        if red_size == 0 and self.identity is None:
            raise ValueError("zero-size array to reduction operation "
                             f"{self.name} which has no identity")
        # CuPy's order: the reduced axes first, then the kept ones, so that
        # input element _j is output _i's _J-th: _j = _J * _out_ind.size()
        # + _i (_in_ind walks this shape, _out_ind the output's).
        # A single input that is not C-contiguous is walked as CuPy walks it,
        # in the order of its memory (the reduced axes by decreasing stride):
        # that order decides which element is which _J, and so the fold's.
        if (self.nin == 1 and isinstance(ins[0], ndarray)
                and not self.in_params[0].raw and len(kept) <= 1
                and not ins[0].flags.c_contiguous):
            axes = tuple(sorted(axes, key=lambda d: -abs(ins[0].strides[d])))
        order = axes + kept
        iter_shape = tuple(shape[d] for d in order)
        params, body, kargs, sig = [], [], [], []
        for p, a in zip(self.in_params, ins):
            tname = p.type_name if p.dtype is None else _ctype(p.dtype)
            if not isinstance(a, ndarray):
                dt = _resolve(p, types, self.name)
                params.append(f"{_ctype(dt)} {p.name}")
                kargs.append(_scalar_arg(a, dt))
                sig.append(("s", str(dt)))
                continue
            if p.raw:
                if p.dtype is not None and a.dtype != p.dtype:
                    raise TypeError(f"Type is mismatched. {p.name} {a.dtype} "
                                    f"{p.dtype}")
                params.append(f"CArray<{tname}, {a.ndim}> {p.name}")
                kargs.append(_carray(a))
                sig.append(("r", str(a.dtype), a.ndim))
                continue
            strides = _broadcast_strides(a, shape)
            params.append(f"CArray<{_ctype(a.dtype)}, {ndim}> _raw_{p.name}")
            kargs.append(_carray(a, iter_shape, tuple(strides[d] for d in order)))
            ctype = _ctype(_resolve(p, types, self.name))
            body.append(f"        const {tname} {p.name} = "
                        f"({ctype})_raw_{p.name}[_j];")
            sig.append(("a", str(a.dtype), ndim))
        # As CuPy's, an output parameter is a reference to the output
        # element (post_map_expr may read it, or leave it as it was); an
        # output array of another type than the parameter's is written
        # through a converted copy.
        outputs = []
        for p, o in zip(self.out_params, outs):
            tname = p.type_name if p.dtype is None else _ctype(p.dtype)
            view_strides = tuple(o.strides[d] for d in kept) if keepdims \
                else o.strides
            params.append(f"CArray<{_ctype(o.dtype)}, {len(out_shape)}> "
                          f"_raw_{p.name}")
            kargs.append(_carray(o, out_shape, view_strides))
            if o.dtype == _resolve(p, types, self.name):
                outputs.append((f"{tname} &{p.name} = _raw_{p.name}[_i];",
                                ""))
            else:
                outputs.append((f"{tname} {p.name} = {tname}();",
                                f"_raw_{p.name}[_i] = "
                                f"({_ctype(o.dtype)}){p.name};"))
            sig.append(("o", str(o.dtype), len(out_shape)))
        if self.reduce_type is None:
            reduce_t = _ctype(_resolve(self.out_params[0], types, self.name))
        else:
            reduce_t = _ctype(numpy.dtype(self.reduce_type)) \
                if _is_dtype_name(self.reduce_type) else self.reduce_type
        index_t = "long long" if red_size > 0x7fffffff else "int"
        key = (tuple(sig), tuple(sorted((k, str(v)) for k, v in types.items())),
               len(out_shape_user), index_t)
        kernel = self._kernels.get(key)
        if kernel is None:
            code = (_HEADERS + _typedefs(types)
                    + f"typedef {index_t} IndexT;\n" + self.preamble
                    + "\n" + f"typedef {reduce_t} _type_reduce;\n"
                    + _reduction_body(self, params, ndim,
                                      len(out_shape_user), body, outputs))
            kernel = self._kernels[key] = _compile(code, self.name,
                                                   self.options)
        block_stride = _block_stride(
            int(numpy.prod(shape, dtype=numpy.int64)), out_size,
            _contiguous_size(self.in_params, ins, shape, order, len(axes)))
        kargs += [_indexer(iter_shape), _indexer(out_shape_user),
                  numpy.int32(block_stride)]
        _launch(kernel, out_size, kargs, _REDUCTION_BLOCK, stream)
        if self.nout == 1:
            return outs[0]
        return tuple(outs)


from fake_cupy._fusion import Fusion, fuse  # noqa: E402,F401 (cupy.fuse)
