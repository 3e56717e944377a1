"""cupy.random.Generator, its bit generators and default_rng.

CuPy's Generator (cupy/random/_generator_api.pyx) draws from a cuRAND
device generator: XORWOW (the default of default_rng), MRG32k3a or
Philox4x3210 (cupy/random/_bit_generator.pyx), each seeded through
numpy.random.SeedSequence. Its methods are NumPy's names with CuPy's own
arguments: the distribution parameters are Python ints and floats or cupy
arrays only (a NumPy scalar, a list or a NumPy array raises TypeError, where
NumPy's Generator takes them), geometric, hypergeometric, logseries, poisson
and binomial answer int64 without a dtype argument, standard_normal and
standard_gamma refuse dtypes other than float32 and float64, and
standard_exponential samples by inversion only (method='zig', NumPy's
default, raises NotImplementedError).
The fake checks the arguments as CuPy does and draws the numbers from a NumPy
Generator seeded from the same SeedSequence: the values are not CuPy's.
"""
import numpy

from fake_cupy._ndarray import _new_from, ndarray
from fake_cupy._random_state import _host


class BitGenerator:
    """cupy.random.BitGenerator(seed=None): the seed goes to
    numpy.random.SeedSequence (a cupy array is copied to the host first)."""

    def __init__(self, seed=None):
        if isinstance(seed, numpy.random.SeedSequence):
            self._seed_seq = seed
        else:
            if isinstance(seed, ndarray):
                seed = seed.get()
            self._seed_seq = numpy.random.SeedSequence(seed)

    def random_raw(self, size=None, output=True):
        raise NotImplementedError("Not implemented in base BitGenerator")


class _CuRandGenerator(BitGenerator):
    """A cuRAND device generator of `size` threads (CuPy's default size
    depends on the device; the fake keeps the number only)."""

    def __init__(self, seed=None, *, size=-1):
        super().__init__(seed)
        self._size = size
        self._numpy = numpy.random.Generator(self._NUMPY_BIT_GENERATOR(self._seed_seq))

    def random_raw(self, size=None, output=True):
        """32 random bits per element, as int32 (CuPy's random_raw)."""
        shape = size if size is not None else ()
        bits = self._numpy.bit_generator.random_raw(int(numpy.prod(shape, dtype=numpy.int64)))
        out = _new_from(numpy.asarray(bits, dtype=numpy.uint64)
                        .astype(numpy.uint32).view(numpy.int32).reshape(shape))
        return out if output else None


class XORWOW(_CuRandGenerator):
    """cupy.random.XORWOW(seed=None, *, size=-1): cuRAND's XORWOW."""
    _NUMPY_BIT_GENERATOR = numpy.random.PCG64


class MRG32k3a(_CuRandGenerator):
    """cupy.random.MRG32k3a(seed=None, *, size=-1): cuRAND's MRG32k3a."""
    _NUMPY_BIT_GENERATOR = numpy.random.PCG64


class Philox4x3210(_CuRandGenerator):
    """cupy.random.Philox4x3210(seed=None, *, size=-1): cuRAND's Philox."""
    _NUMPY_BIT_GENERATOR = numpy.random.Philox


def _parameter(value, name, dtype, error=TypeError):
    """A distribution parameter as CuPy's Generator takes it: a cupy array
    (cast to `dtype`) or a Python int or float (type(value) exactly: a NumPy
    scalar, a list or a NumPy array is refused), as a host array."""
    if isinstance(value, ndarray):
        return value.get().astype(dtype, copy=False)
    if type(value) in (float, int):
        return numpy.asarray(value, dtype)
    raise error(f"{name} is required to be a cupy.ndarray or a scalar")


def _size_tuple(size, default):
    """CuPy's size rule: None gives `default`, an int one dimension."""
    if size is None:
        return default
    return size if isinstance(size, tuple) else (size,)


def _check_output_array(dtype, size, out, check_only_c_cont=False):
    """CuPy's checks of out= (borrowed there from NumPy's)."""
    dtype = numpy.dtype(dtype)
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cupy.ndarray")
    if out.dtype.char != dtype.char:
        raise TypeError("Supplied output array has the wrong type. "
                        f"Expected {dtype.name}, got {out.dtype.name}")
    if not out.flags.c_contiguous and (check_only_c_cont or not out.flags.f_contiguous):
        raise ValueError("Supplied output array is not contiguous, writable or aligned.")
    if size is not None:
        try:
            tup_size = tuple(size)
        except TypeError:
            tup_size = (size,)
        if tup_size != out.shape:
            raise ValueError("size must match out.shape when used together")


def _result(values, dtype, out=None):
    """`values` (host) as a cupy array of `dtype`, written into `out` when
    given (cast as CuPy's elementwise copy casts)."""
    values = numpy.asarray(values).astype(dtype, copy=False)
    if out is None:
        return _new_from(values)
    out[...] = _new_from(values.astype(out.dtype, copy=False))
    return out


class Generator:
    """cupy.random.Generator(bit_generator): CuPy's methods and arguments.
    NumPy's others (normal, choice, shuffle, permutation, ...) are absent, as
    in CuPy, where code calls the module functions for them."""

    def __init__(self, bit_generator):
        self.bit_generator = bit_generator

    def __getattr__(self, name):
        raise AttributeError("'cupy.random._generator_api.Generator' object "
                             f"has no attribute '{name}'")

    @property
    def _numpy(self):
        # CuPy takes any bit_generator here and launches its first kernel
        # with bit_generator.state(); a NumPy one fails there.
        if not isinstance(self.bit_generator, _CuRandGenerator):
            raise TypeError(
                "cupy.random.Generator needs a cupy.random bit generator (XORWOW, "
                f"MRG32k3a or Philox4x3210), not {type(self.bit_generator).__name__}")
        return self.bit_generator._numpy

    def random(self, size=None, dtype=numpy.float64, out=None):
        if out is not None:
            _check_output_array(dtype, size, out)
        floating = numpy.float64 if numpy.dtype(dtype).char == "d" else numpy.float32
        values = self._numpy.random(_size_tuple(size, ()), dtype=floating)
        return _result(values, dtype, out)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=numpy.float64):
        from fake_cupy._functions import asarray
        low, high = asarray(low).get(), asarray(high).get()
        if size is None:
            size = numpy.broadcast(low, high).shape
        floating = numpy.float64 if numpy.dtype(dtype).char == "d" else numpy.float32
        y = self._numpy.random(size, dtype=floating)
        return _result(low + (high - low) * y, dtype)

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        lo, hi1 = (0, int(low)) if high is None else (int(low), int(high))
        if not endpoint:
            hi1 -= 1
        if lo > hi1:
            raise ValueError("low >= high")
        name = numpy.dtype(dtype).name
        if lo < numpy.iinfo(dtype).min:
            raise ValueError(f"low is out of bounds for {name}")
        if hi1 > numpy.iinfo(dtype).max:
            raise ValueError(f"high is out of bounds for {name}")
        values = self._numpy.integers(lo, hi1, size=_size_tuple(size, ()),
                                      dtype=numpy.dtype(dtype), endpoint=True)
        return _result(values, dtype)

    def beta(self, a, b, size=None, dtype=numpy.float64):
        a, b = _parameter(a, "a", numpy.float64), _parameter(b, "b", numpy.float64)
        size = _size_tuple(size, numpy.broadcast(a, b).shape)
        return _result(self._numpy.beta(a, b, size), dtype)

    def chisquare(self, df, size=None):
        df = _parameter(df, "df", numpy.float64)
        return _result(self._numpy.chisquare(df, _size_tuple(size, df.shape)), numpy.float64)

    def dirichlet(self, alpha, size=None):
        alpha = _parameter(alpha, "alpha", numpy.float64)
        size = alpha.shape if size is None else _size_tuple(size, None) + alpha.shape
        y = self._numpy.standard_gamma(alpha, size)
        return _result(y / y.sum(axis=-1, keepdims=True), numpy.float64)

    def exponential(self, scale=1.0, size=None):
        return self.standard_exponential(size) * scale

    def f(self, dfnum, dfden, size=None):
        dfnum = _parameter(dfnum, "dfnum", numpy.float64)
        dfden = _parameter(dfden, "dfden", numpy.float64)
        size = _size_tuple(size, numpy.broadcast(dfnum, dfden).shape)
        return _result(self._numpy.f(dfnum, dfden, size), numpy.float64)

    def geometric(self, p, size=None):
        p = _parameter(p, "p", numpy.float64)
        return _result(self._numpy.geometric(p, _size_tuple(size, p.shape)), numpy.int64)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        ngood = _parameter(ngood, "ngood", numpy.int64)
        nbad = _parameter(nbad, "nbad", numpy.int64)
        nsample = _parameter(nsample, "nsample", numpy.int64)
        size = _size_tuple(size, numpy.broadcast(ngood, nbad, nsample).shape)
        values = self._numpy.hypergeometric(ngood, nbad, nsample, size)
        return _result(values, numpy.int64)

    def logseries(self, p, size=None):
        p = _parameter(p, "p", numpy.float64)
        return _result(self._numpy.logseries(p, _size_tuple(size, p.shape)), numpy.int64)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="inv", out=None):
        if method == "zig":
            raise NotImplementedError("Ziggurat method is not supported")
        if out is not None:
            _check_output_array(dtype, size, out)
        values = self._numpy.standard_exponential(_size_tuple(size, ()), method="inv")
        return _result(values, dtype, out)

    def poisson(self, lam=1.0, size=None):
        lam = _parameter(lam, "lam", numpy.float64)
        return _result(self._numpy.poisson(lam, _size_tuple(size, lam.shape)), numpy.int64)

    def power(self, a, size=None):
        a = _parameter(a, "a", numpy.float64)
        return _result(self._numpy.power(a, _size_tuple(size, a.shape)), numpy.float64)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        if out is not None:
            _check_output_array(dtype, size, out)
            dtype = out.dtype
        if numpy.dtype(dtype).char not in "fd":
            raise TypeError(f"Unsupported dtype {numpy.dtype(dtype).name} for standard_normal")
        values = self._numpy.standard_normal(_size_tuple(size, ()), dtype=dtype)
        return _result(values, dtype, out)

    def gamma(self, shape, scale=1.0, size=None):
        if size is None:
            size = numpy.broadcast(_host(shape), _host(scale)).shape
        y = self.standard_gamma(shape, size)
        y *= scale
        return y

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        if shape is None:
            raise TypeError("shape must be real number, not NoneType")
        shape = _parameter(shape, "shape", numpy.float64, ValueError)
        size = _size_tuple(size, shape.shape if out is None else out.shape)
        if out is not None:
            _check_output_array(dtype, size, out, True)
        if numpy.dtype(dtype).char not in "fd":
            raise TypeError("Unsupported dtype float64 for standard_gamma")
        return _result(self._numpy.standard_gamma(shape, size), dtype, out)

    def binomial(self, n, p, size=None):
        if isinstance(n, ndarray):
            n = n.get().astype(numpy.int64)
        elif type(n) in (float, int):
            n = numpy.asarray(n, numpy.int64)
        else:
            raise TypeError("n is required to be a cupy.ndarray or a scalar")
        if isinstance(p, ndarray):
            p = p.get().astype(numpy.float64)
        elif type(p) is float:
            p = numpy.asarray(p, numpy.float64)
        else:
            raise TypeError("p is required to be a cupy.ndarray or a scalar")
        size = _size_tuple(size, numpy.broadcast(n, p).shape)
        return _result(self._numpy.binomial(n, p, size), numpy.int64)


def default_rng(seed=None):
    """cupy.random.default_rng: a Generator over XORWOW(seed); a bit
    generator is wrapped, a Generator returned as it is."""
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    if isinstance(seed, Generator):
        return seed
    return Generator(XORWOW(seed))
