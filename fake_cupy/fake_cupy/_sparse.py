"""cupyx.scipy.sparse (and .linalg) of the fake CuPy: sparse matrices whose
arrays are device arrays, computed by SciPy on their host views.

A matrix holds its arrays (csr/csc: `data`, `indices`, `indptr`; coo:
`data`, `row`, `col`; dia: `data`, `offsets`) as fake cupy arrays, index
arrays in int32 as CuPy's, and a SciPy matrix of the same format built on
their host views without a copy, so that writing `a.data` changes the
matrix. Operations run on the SciPy matrix and their results come back as
CuPy gives them: dense ones as cupy arrays (`todense()` too, where SciPy
gives numpy.matrix), sparse ones as matrices of this module. As in CuPy:
the constructors take a SciPy matrix (copied to the device), another of
these matrices, a 2-D cupy array, a shape, or tuples of cupy arrays (NumPy
arrays there, or a NumPy dense matrix, raise ValueError; dia_matrix alone
copies array-likes, as CuPy's does with cupy.array); data must be bool,
float32, float64, complex64 or complex128; operands that are NumPy arrays
raise TypeError; `get()` gives the SciPy matrix. The module and the
matrices hold CuPy's names only (_sparse_names.py): SciPy's others are
AttributeError, conversions to the formats CuPy lacks (lil, dok, bsr)
NotImplementedError; where SciPy gives such a format on its own (kron), it
comes back as csr. The module functions (eye, hstack, kron, bmat, ...) are
SciPy's, with the same conversions; diags and spdiags take host diagonals
and random draws from cupy generators, as CuPy's do.
cupyx.scipy.sparse.linalg is in _sparse_linalg.py."""
import functools
import inspect
import types

import numpy
import scipy.sparse
import scipy.sparse.linalg

from fake_cupy import _cupy_keywords
from fake_cupy import _sparse_names as _names
from fake_cupy._ndarray import (ndarray, _new_from, _run_numpy, _unwrap,
                                _unwrap_index, _wrap_any)

_ARRAYS = {"csr": ("data", "indices", "indptr"),
           "csc": ("data", "indices", "indptr"),
           "coo": ("data", "row", "col"),
           "dia": ("data", "offsets")}
_INDEX_ARRAYS = ("indices", "indptr", "row", "col", "offsets")
_DTYPES = "?fdFD"


def _to_host(obj):
    """An argument for SciPy: matrices become their SciPy matrix, cupy
    arrays their host view, linear operators SciPy's operators over them;
    NumPy arrays are refused."""
    if isinstance(obj, spmatrix):
        return obj._m
    if isinstance(obj, _sparse_linalg.LinearOperator):
        return obj._scipy_operator()
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_host(o) for o in obj)
    return _unwrap(obj)


def _from_host(result):
    """A SciPy result as CuPy gives it."""
    if scipy.sparse.issparse(result):
        cls = _CLASSES.get(result.format, csr_matrix)
        return cls(result)
    if isinstance(result, numpy.matrix):
        return _new_from(numpy.asarray(result))
    if isinstance(result, (tuple, list)):
        return type(result)(_from_host(r) for r in result)
    return _wrap_any(result)


def _host_call(func, *args, **kwargs):
    return _from_host(_run_numpy(func, _to_host(args),
                                 {k: _to_host(v) for k, v in kwargs.items()}))


def _device_tuple(arg1):
    """The host views of a constructor's tuple of cupy arrays, nested as
    given; anything else in it (NumPy arrays, lists) is refused."""
    out = []
    for item in arg1:
        if isinstance(item, tuple):
            out.append(_device_tuple(item))
        elif isinstance(item, ndarray):
            out.append(item._host())
        else:
            raise ValueError("the arrays of a sparse matrix's initializer "
                             f"must be cupy arrays, not {type(item).__name__}")
    return tuple(out)


def _host_array(item):
    """The host array of an array-like as cupy.array would copy it: a cupy
    array's host view, else NumPy's conversion (NumPy arrays, lists,
    scalars)."""
    if isinstance(item, ndarray):
        return item._host()
    return numpy.asarray(item)


def _host_tuple(arg1):
    """dia_matrix's (data, offsets): CuPy copies both with cupy.array, so
    NumPy arrays and lists are taken there, unlike the other formats."""
    if len(arg1) != 2:
        raise ValueError("unrecognized form for dia_matrix constructor")
    return tuple(_host_array(item) for item in arg1)


class spmatrix:
    """The base of the fake's sparse matrices (cupyx.scipy.sparse.spmatrix)."""

    format = None

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        given = {}
        if isinstance(arg1, spmatrix):
            host = arg1._synced().asformat(self.format, copy=copy)
            if not copy and arg1.format == self.format:
                given = dict(arg1._arrays)      # shared, as CuPy's
        elif scipy.sparse.issparse(arg1):
            host = arg1.asformat(self.format, copy=True)
        elif isinstance(arg1, ndarray):
            if arg1.ndim != 2:
                raise ValueError("expected a 2-D dense array")
            host = _SCIPY[self.format](arg1._host(), dtype=dtype)
        elif isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(n, (int, numpy.integer)) for n in arg1):
            host = _SCIPY[self.format](arg1, dtype=dtype or "d")
        elif isinstance(arg1, tuple):
            given = dict(zip(_ARRAYS[self.format], _flatten(arg1)))
            items = (_host_tuple(arg1) if self.format == "dia"
                     else _device_tuple(arg1))
            host = _SCIPY[self.format](items, shape=shape, dtype=dtype,
                                       copy=copy)
        else:
            raise ValueError("Unsupported initializer format")
        if dtype is not None and host.dtype != numpy.dtype(dtype):
            host = host.astype(dtype)
        if host.dtype.char not in _DTYPES:
            raise ValueError("Only bool, float32, float64, complex64 and "
                             "complex128 are supported")
        self._adopt(host, given)

    def _adopt(self, host, given=None):
        """Holds `host`'s arrays as cupy arrays and rebuilds it on their
        views. A cupy array of the initializer (`given`, by name) is held
        as it is when SciPy kept its values (same length and dtype), as
        CuPy keeps the arrays it is given."""
        arrays = {}
        for name in _ARRAYS[self.format]:
            value = getattr(host, name)
            if name in _INDEX_ARRAYS and value.dtype != numpy.int32:
                value = value.astype(numpy.int32)
            mine = (given or {}).get(name)
            if mine is not None and mine.shape == value.shape and \
                    mine.dtype == value.dtype and \
                    numpy.array_equal(mine._host(), value):
                arrays[name] = mine
            else:
                arrays[name] = _new_from(value)
        self._arrays = arrays
        self._m = self._rebuild(host.shape)

    def _rebuild(self, shape):
        """A SciPy matrix on the host views of the held arrays (SciPy's
        constructors copy them, so the views are assigned afterwards)."""
        host = _SCIPY[self.format](shape, dtype=self._arrays["data"].dtype)
        for name in _ARRAYS[self.format]:
            setattr(host, name, self._arrays[name]._host())
        return host

    def _synced(self):
        """The SciPy matrix, rebuilt if an operation of SciPy's replaced
        its arrays (sum_duplicates, sort_indices, eliminate_zeros)."""
        for name in _ARRAYS[self.format]:
            if getattr(self._m, name) is not self._arrays[name]._host():
                self._adopt(self._m)
                break
        return self._m

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _ARRAYS.get(self.format, ()):
            self._synced()
            return self._arrays[name]
        if name == "to" + str(self.format):
            return functools.partial(_own_format, self)
        cls = type(self).__name__
        if name in _names.NOT_IMPLEMENTED.get(self.format, ()):
            return functools.partial(_not_implemented, cls, name)
        if self.format in _names.METHODS and \
                name not in _names.METHODS[self.format]:
            raise AttributeError(f"'{cls}' object has no attribute '{name}'")
        value = getattr(self._synced(), name)
        if callable(value):
            return functools.partial(_host_call, value)
        return _from_host(value)

    def __setattr__(self, name, value):
        if name in _ARRAYS.get(self.format, ()):
            if not isinstance(value, ndarray):
                raise TypeError(f"{name} must be a cupy array")
            self._arrays[name] = value
            self._m = self._rebuild(self._m.shape)
        else:
            object.__setattr__(self, name, value)

    def __setitem__(self, index, value):
        """CuPy's csr and csc matrices take item assignment (its other
        formats have none). SciPy's assignment runs on the host views: an
        existing entry is written in place, a new one makes SciPy replace
        the arrays (with its SparseEfficiencyWarning, as CuPy warns), which
        the matrix then adopts."""
        if self.format not in ("csr", "csc"):
            raise TypeError(f"'{type(self).__name__}' object does not "
                            "support item assignment")
        value = value._synced() if isinstance(value, spmatrix) else \
            _host_array(value)
        _run_numpy(self._synced().__setitem__,
                   (_unwrap_index(index), value), {})
        self._synced()

    # ---- what CuPy's matrices give differently from SciPy's -------------
    shape = property(lambda self: self._m.shape)
    dtype = property(lambda self: self._m.dtype)
    ndim = property(lambda self: 2)
    T = property(lambda self: self.transpose())
    # CuPy's spmatrix keeps A and H, which SciPy 1.14 removed.
    A = property(lambda self: self.toarray())
    H = property(lambda self: self.getH())

    def asformat(self, format):
        """As CuPy's: the matrix itself for its own format (or None), else
        its to<format>() conversion, so that 'lil', 'dok' and 'bsr' raise
        NotImplementedError and an unknown format AttributeError."""
        if format is None or format == self.format:
            return self
        return getattr(self, "to" + format)()

    @property
    def nnz(self):
        return self._synced().nnz

    def getnnz(self, axis=None):
        """As CuPy's: the stored values, explicit zeros included; counts
        along an axis (SciPy's) are a ValueError in CuPy's csr, csc and coo
        matrices and NotImplementedError in its dia_matrix."""
        if axis is not None:
            if self.format == "dia":
                raise NotImplementedError(
                    "getnnz over an axis is not implemented for DIA format")
            raise ValueError(f"{type(self).__name__}.getnnz takes no axis "
                             "in CuPy")
        return self.nnz

    def get(self, stream=None):
        """The SciPy matrix (a copy on the host)."""
        return self._synced().copy()

    def todense(self, order=None, out=None):
        return _new_from(numpy.asarray(self._synced().todense(order)))

    def __repr__(self):
        return (f"<{self.shape[0]}x{self.shape[1]} sparse matrix of type "
                f"'{self.dtype.type}'\n\twith {self.nnz} stored elements in "
                f"{self.__class__._LONG} format>")

    def __len__(self):
        raise TypeError("sparse matrix length is ambiguous; use getnnz()"
                        " or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one "
                         "element is ambiguous. Use a.any() or a.all().")


def _own_format(matrix, copy=False):
    """A matrix's conversion to its own format: the matrix itself, or with
    `copy` its copy, as CuPy's tocsr() of a csr_matrix (and so on)."""
    return matrix.copy() if copy else matrix


def _not_implemented(cls, name, *args, **kwargs):
    """A method CuPy's matrix class has but does not implement."""
    if name == "setdiag":
        raise NotImplementedError(
            f"{cls}.setdiag is not implemented in CuPy (csr_matrix and "
            "coo_matrix set diagonals): convert with tocsr() first")
    raise NotImplementedError(
        f"{cls}.{name} is not implemented in CuPy: cupyx.scipy.sparse has "
        f"no {name[2:]} format for {cls}")


def _operator(name):
    def method(self, *args):
        for a in args:
            if isinstance(a, numpy.ndarray):
                raise TypeError(f"unsupported operand type for {name}: "
                                "numpy.ndarray (use cupy.asarray)")
        return _host_call(getattr(self._synced(), name), *args)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
              "__rmul__", "__matmul__", "__rmatmul__", "__truediv__",
              "__neg__", "__pow__", "__abs__", "__lt__",
              "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
    setattr(spmatrix, _name, _operator(_name))


def _getitem(self, index):
    """As CuPy's indexing (IndexMixin._asindices: cupy.asarray of each index
    array), NumPy index arrays and lists are taken as cupy ones are. Only
    csr and csc matrices have it: CuPy's coo_matrix and dia_matrix are not
    subscriptable."""
    if self.format not in ("csr", "csc"):
        raise TypeError(f"'{type(self).__name__}' object is not subscriptable")
    return _from_host(_run_numpy(self._synced().__getitem__,
                                 (_unwrap_index(index),), {}))


spmatrix.__getitem__ = _getitem
# Dense cupy arrays on the left of @ or *: their operator defers to ours.
spmatrix.__array_priority__ = 101
spmatrix.__array_ufunc__ = None


def _flatten(arg1):
    for item in arg1:
        if isinstance(item, tuple):
            yield from _flatten(item)
        elif isinstance(item, ndarray):
            yield item


class csr_matrix(spmatrix):
    format = "csr"
    _LONG = "Compressed Sparse Row"

    def multiply(self, other):
        """As CuPy's: point-wise product with a scalar, a dense cupy array
        (broadcast) or another csr_matrix, as a csr_matrix (SciPy gives coo
        for a dense operand); any other operand is a TypeError."""
        if not (numpy.isscalar(other) or isinstance(other, (ndarray, csr_matrix))):
            raise TypeError("expected scalar, dense matrix/vector or csr matrix")
        return _host_call(self._synced().multiply, other).tocsr()


class csc_matrix(spmatrix):
    format = "csc"
    _LONG = "Compressed Sparse Column"


class coo_matrix(spmatrix):
    format = "coo"
    _LONG = "COOrdinate"


class dia_matrix(spmatrix):
    format = "dia"
    _LONG = "DIAgonal"


_CLASSES = {"csr": csr_matrix, "csc": csc_matrix, "coo": coo_matrix,
            "dia": dia_matrix}
_SCIPY = {"csr": scipy.sparse.csr_matrix, "csc": scipy.sparse.csc_matrix,
          "coo": scipy.sparse.coo_matrix, "dia": scipy.sparse.dia_matrix}


def issparse(x):
    return isinstance(x, spmatrix)


isspmatrix = issparse


def _is_format(cls):
    return lambda x: isinstance(x, cls)


isspmatrix_csr = _is_format(csr_matrix)
isspmatrix_csc = _is_format(csc_matrix)
isspmatrix_coo = _is_format(coo_matrix)
isspmatrix_dia = _is_format(dia_matrix)


def _isscalarlike(x):
    return numpy.isscalar(x) or (isinstance(x, (ndarray, numpy.ndarray))
                                 and x.ndim == 0)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):
    """cupyx.scipy.sparse.diags: as CuPy's, each diagonal is made a 1-D
    array with cupy.atleast_1d, which copies NumPy arrays and lists, and the
    dtype defaults to the diagonals' common_type (float64 for integers,
    where SciPy keeps int64 and warns)."""
    if _isscalarlike(offsets):
        if len(diagonals) == 0 or _isscalarlike(diagonals[0]):
            diagonals = [diagonals]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    host = [numpy.atleast_1d(_host_array(d)) for d in diagonals]
    offsets = numpy.atleast_1d(_host_array(offsets))
    if dtype is None:
        dtype = numpy.common_type(*host)
    return _from_host(_run_numpy(scipy.sparse.diags, (host, offsets),
                                 {"shape": shape, "dtype": dtype})
                      ).asformat(format)


def spdiags(data, diags, m, n, format=None):
    """cupyx.scipy.sparse.spdiags: dia_matrix((data, diags)), which copies
    array-likes, in the format asked for."""
    return dia_matrix((data, diags), shape=(m, n)).asformat(format)


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None,
           data_rvs=None):
    """cupyx.scipy.sparse.random: as CuPy's, the positions are
    random_state.choice(m * n, k, replace=False) and the values
    data_rvs(k) (default random_state.rand) from a cupy RandomState (the
    module's, or a new one for an int seed), float32 or float64 only."""
    import fake_cupy
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dtype = numpy.dtype(dtype)
    if dtype.char not in "fd":
        raise NotImplementedError(f"type {dtype} not supported")
    k = int(density * m * n)
    if random_state is None:
        random_state = fake_cupy.random
    elif isinstance(random_state, (int, numpy.integer)):
        random_state = fake_cupy.random.RandomState(random_state)
    if data_rvs is None:
        data_rvs = random_state.rand
    index_type = numpy.int64 if m * n > numpy.iinfo(numpy.int32).max \
        else numpy.int32
    ind = random_state.choice(m * n, size=k, replace=False).astype(index_type)
    j = ind // m
    i = ind - j * m
    vals = data_rvs(k).astype(dtype)
    return coo_matrix((vals, (i, j)), shape=(m, n)).asformat(format)


def rand(m, n, density=0.01, format="coo", dtype=None, random_state=None):
    """cupyx.scipy.sparse.rand: random() without data_rvs."""
    return random(m, n, density, format, dtype, random_state)


def kron(A, B, format=None):
    """cupyx.scipy.sparse.kron: as CuPy's, the product is built as a
    coo_matrix and given `format` by asformat, so a coo_matrix by default
    (where SciPy gives bsr when B is dense enough)."""
    if format in _names.MISSING_FORMATS:
        return _host_call_in_format(scipy.sparse.kron, A, B, format=format)
    return _host_call(scipy.sparse.kron, A, B, format="coo").asformat(format)


def _host_call_in_format(func, *args, **kwargs):
    """A SciPy function of the module, called as _host_call calls it; a
    `format` argument naming a format CuPy lacks (lil, dok, bsr) raises
    NotImplementedError, as CuPy's functions end in asformat(format)."""
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):
        bound = None
    if bound is not None and \
            bound.arguments.get("format") in _names.MISSING_FORMATS:
        raise NotImplementedError(
            f"{func.__name__}(format={bound.arguments['format']!r}): "
            "cupyx.scipy.sparse has no such format (csr, csc, coo or dia)")
    return _host_call(func, *args, **kwargs)


def _module(name, scipy_module, own, cupy_names=None):
    """A module of `own` names, the rest SciPy's functions with the
    conversions; with `cupy_names`, a SciPy name outside that set (the
    module's names in CuPy) raises AttributeError, as in CuPy."""
    module = types.ModuleType(name, f"Fake CuPy's {name}.")
    module.__dict__.update(own)

    def getattr_(attr):
        if cupy_names is not None and attr not in cupy_names and \
                not attr.startswith("__"):
            raise AttributeError(f"module '{name}' has no attribute '{attr}'")
        value = getattr(scipy_module, attr)
        if callable(value) and not isinstance(value, type):
            value = functools.wraps(value)(functools.partial(
                _host_call_in_format, value))
            # CuPy's keywords only (_cupy_keywords.py).
            value = _cupy_keywords.checked(name, attr, value)
        setattr(module, attr, value)
        return value
    module.__getattr__ = getattr_
    return module


from fake_cupy import _sparse_linalg  # noqa: E402 (it uses this module)

# CuPy's cupyx.scipy.sparse.linalg (cupyx/scipy/sparse/linalg/__init__.py,
# CuPy 13, and bicgstab from CuPy 14): SciPy's bicg, qmr, lgmres, gcrotmk,
# tfqmr, eigs, expm, inv, ... are not there, so code calling them stops on
# a GPU.
_LINALG_NAMES = frozenset(_sparse_linalg.PUBLIC) | {
    "lobpcg", "norm", "lsmr", "spsolve_triangular", "bicgstab"}
linalg = _module("cupyx.scipy.sparse.linalg", scipy.sparse.linalg,
                 _sparse_linalg.PUBLIC, _LINALG_NAMES)
# CuPy's cupyx.scipy.sparse (_sparse_names.py): SciPy's lil, dok and bsr
# formats, its *_array classes, save_npz, block_diag, ... are not there.
MODULE = _module("cupyx.scipy.sparse", scipy.sparse, {
    "diags": diags, "spdiags": spdiags, "random": random, "rand": rand,
    "kron": kron,
    "spmatrix": spmatrix, "csr_matrix": csr_matrix, "csc_matrix": csc_matrix,
    "coo_matrix": coo_matrix, "dia_matrix": dia_matrix, "issparse": issparse,
    "isspmatrix": isspmatrix, "isspmatrix_csr": isspmatrix_csr,
    "isspmatrix_csc": isspmatrix_csc, "isspmatrix_coo": isspmatrix_coo,
    "isspmatrix_dia": isspmatrix_dia, "linalg": linalg}, _names.MODULE_NAMES)
MODULE.__path__ = []


def __getattr__(name):
    """This module's other names (eye, diags, ...) are the public module's."""
    return getattr(MODULE, name)
