"""CuPy's own one-input ufuncs, where NumPy has no such function or where
NumPy's answer differs from CuPy's: cupyx.rsqrt, cupy.sign and cupy.angle.

Each is CuPy's ufunc object (cupy/_core/_kernel.pyx): its loops, in CuPy's
order, pick the first whose input type the operand casts to safely (or the
one `dtype=` names), the operand is a cupy array or a scalar (a list, a
tuple or a NumPy array raises CuPy's TypeError), a new output is C-ordered,
and `out=` takes the result with `casting`. The values are computed on the
host by a function given the operand in the loop's input type."""
import numpy


class OwnUfunc:
    """A ufunc with loops `types` ("in->out" strings, CuPy's order) whose
    values `host` computes on a NumPy array of the loop's input dtype.
    `fuse(var, out, dtype)` traces it inside cupy.fuse; without it the ufunc
    is refused there, naming `public_name`."""

    nin, nout, nargs = 1, 1, 2

    def __init__(self, name, public_name, types, host, fuse=None):
        self.__name__ = name
        self._public_name = public_name
        self.types = list(types)
        self._host_function = host
        self._fuse = fuse

    def _loop(self, dtype_in, dtype):
        loops = [(numpy.dtype(t[0]), numpy.dtype(t[-1])) for t in self.types]
        if dtype is not None:
            want = numpy.dtype(dtype)
            for loop in loops:
                if loop[0] == want:
                    return loop
            raise TypeError(f"ufunc '{self.__name__}' not supported for the "
                            f"input types with dtype {want}")
        for loop in loops:
            if numpy.can_cast(dtype_in, loop[0], "safe"):
                return loop
        raise TypeError(f"ufunc '{self.__name__}' not supported for the "
                        f"input type {dtype_in}")

    def _compute(self, x, dtype=None):
        x = numpy.asarray(x)
        loop_in, loop_out = self._loop(x.dtype, dtype)
        return numpy.asarray(self._host_function(x.astype(loop_in))).astype(loop_out)

    def __call__(self, x, out=None, dtype=None, casting="same_kind"):
        import fake_cupy
        from fake_cupy._fusion import _Var
        from fake_cupy._ndarray import _call_numpy, _check_ufunc_operand
        if isinstance(x, _Var):
            if self._fuse is None:
                raise NotImplementedError(
                    f"cupy.fuse: {self._public_name} cannot be fused here")
            return self._fuse(x, out, dtype)
        _check_ufunc_operand(x)
        result = _call_numpy(self._compute, (x,), {"dtype": dtype},
                             c_order=True)
        if out is None:
            return result
        fake_cupy.copyto(out, result, casting=casting)
        return out

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"


def _rsqrt_host(x):
    """1/sqrt(x); float16 is computed in float32 and rounded once, as
    CuPy's float16 arithmetic does."""
    work = numpy.float32 if x.dtype == numpy.float16 else x.dtype
    return 1 / numpy.sqrt(x.astype(work))


_RSQRT_TYPES = ["e->e", "f->f", "d->d", "F->F", "D->D"]

# cupyx.rsqrt (cupyx/_rsqrt.py).
rsqrt = OwnUfunc(
    "cupyx_rsqrt", "cupyx.rsqrt", _RSQRT_TYPES, _rsqrt_host,
    fuse=lambda x, out, dtype: x._trace.loop_ufunc(
        "cupyx_rsqrt", [t[0] for t in _RSQRT_TYPES],
        {"f": "rsqrt({0})", "c": "({T})1 / sqrt({0})"}, x, out, dtype))


def _sign_of(values):
    """(v > 0) - (v < 0) as CuPy's kernel computes it: 0 for NaN."""
    return (values > 0).astype(numpy.int8) - (values < 0).astype(numpy.int8)


def _sign_host(x):
    """CuPy 13's cupy_sign (cupy/_math/misc.py): -1, 0 or 1 by comparisons,
    so NaN gives 0 (NumPy: NaN); a complex value gives the sign of its real
    part, or of its imaginary part where the real part is 0, as a complex
    number (NumPy 2: z / |z|)."""
    if x.dtype.kind == "c":
        return numpy.where(x.real == 0, _sign_of(x.imag), _sign_of(x.real))
    if x.dtype.kind == "u":
        return x > 0
    return _sign_of(x)


# CuPy's loops: no bool loop, so a bool array takes the int8 one (NumPy's
# sign refuses bool).
sign = OwnUfunc(
    "cupy_sign", "cupy.sign",
    ["b->b", "B->B", "h->h", "H->H", "i->i", "I->I", "l->l", "L->L",
     "q->q", "Q->Q", "e->e", "f->f", "d->d", "F->F", "D->D"], _sign_host,
    fuse=lambda x, out, dtype: x._trace.ufunc(
        numpy.sign, (x,), {k: v for k, v in (("out", out), ("dtype", dtype))
                           if v is not None}))

_ANGLE_TYPES = ["?->d", "e->e", "f->f", "d->d", "F->f", "D->d"]


def _angle_host(scale, straight):
    """CuPy's cupy_angle / cupy_angle_deg (cupy/_core/_routines_math.pyx):
    arg(z) for a complex value (times 180/pi, in double, for degrees), and
    `in0 >= 0 ? 0 : pi` for a real one, so NaN gives pi and -0.0 gives 0
    (NumPy's arctan2: NaN and pi)."""
    def host(x):
        if x.dtype.kind == "c":
            # arg() in the loop's precision, correctly rounded (NumPy's
            # float32 arctan2 can be an ulp off), then scaled in double.
            arg = numpy.angle(x.astype(numpy.complex128)).astype(x.real.dtype)
            return arg.astype(numpy.float64) * scale
        return numpy.where(x >= 0, 0.0, straight)
    return host


def _angle_fuse(name, straight, scale):
    """cupy.fuse's form of the ufunc: arg() of a complex value (scaled in
    double), `x >= 0 ? 0 : straight` of a real one."""
    real = f"({{0}} >= 0 ? ({{T}})0 : ({{T}})({straight}))"
    forms = {"b": real, "f": real, "c": f"(double)arg({{0}}){scale}"}
    return lambda x, out, dtype: x._trace.loop_ufunc(
        name, _ANGLE_TYPES, forms, x, out, dtype)


_angle = OwnUfunc("cupy_angle", "cupy.angle", _ANGLE_TYPES,
                  _angle_host(1, numpy.pi),
                  fuse=_angle_fuse("cupy_angle", "M_PI", ""))
_angle_deg = OwnUfunc("cupy_angle_deg", "cupy.angle", _ANGLE_TYPES,
                      _angle_host(180.0 / numpy.pi, 180.0),
                      fuse=_angle_fuse("cupy_angle_deg", "180.0",
                                       " * (180.0 / M_PI)"))


def angle(z, deg=False):
    """cupy.angle (cupy/_math/arithmetic.py): the ufunc cupy_angle_deg or
    cupy_angle on z."""
    return _angle_deg(z) if deg else _angle(z)
