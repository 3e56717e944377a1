"""cupy.testing's comparison helpers: fake arrays and NumPy arrays are both
accepted and compared on the host."""
import numpy


def _host(x):
    from fake_cupy._ndarray import ndarray
    return x.get() if isinstance(x, ndarray) else x


def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="", verbose=True):
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol,
                                  atol=atol, err_msg=err_msg, verbose=verbose)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False):
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg,
                                     verbose=verbose)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    numpy.testing.assert_array_almost_equal(_host(x), _host(y), decimal=decimal,
                                            err_msg=err_msg, verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    numpy.testing.assert_array_less(_host(x), _host(y), err_msg=err_msg,
                                    verbose=verbose)


def assert_array_almost_equal_nulp(x, y, nulp=1):
    numpy.testing.assert_array_almost_equal_nulp(_host(x), _host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    numpy.testing.assert_array_max_ulp(_host(a), _host(b), maxulp=maxulp,
                                       dtype=dtype)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    if len(xlist) != len(ylist):
        raise AssertionError(f"List size is different: {len(xlist)} != "
                             f"{len(ylist)}")
    for x, y in zip(xlist, ylist):
        numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg,
                                         verbose=verbose)


# ---- decorators of CuPy's own test suites ----------------------------------
# Written to CuPy's documented behaviour: numpy_cupy_* call the test once
# with NumPy and once with CuPy (the fake) as the keyword argument `name`
# and compare what the two return; for_*dtypes and for_orders run the test
# once per dtype or order, passed as a keyword argument.

import functools as _functools
import inspect as _inspect
import itertools as _itertools


def _drop_params(wrapper, func, names):
    """Hides the parameters the decorator supplies from pytest."""
    try:
        sig = _inspect.signature(func)
    except (TypeError, ValueError):
        return wrapper
    wrapper.__signature__ = sig.replace(parameters=[
        p for p in sig.parameters.values() if p.name not in names])
    return wrapper


def _call_both(func, args, kwargs, name, sp_name, scipy_name):
    import fake_cupy
    results = []
    for xp in (numpy, fake_cupy):
        kw = dict(kwargs)
        kw[name] = xp
        if sp_name is not None:
            from fake_cupy import _cupyx
            kw[sp_name] = _cupyx.scipy if xp is fake_cupy else __import__("scipy")
        if scipy_name is not None:
            kw[scipy_name] = _cupyx.scipy if xp is fake_cupy else __import__("scipy")
        try:
            results.append((func(*args, **kw), None))
        except Exception as e:   # compared below
            results.append((None, e))
    return results


def _check_errors(np_res, cp_res, accept_error):
    """True when both raised errors that accept_error allows (True: the
    same kind of error; an exception type or tuple: instances of it);
    raises AssertionError when only one raised, or both differently."""
    (_, np_err), (_, cp_err) = np_res, cp_res
    if np_err is None and cp_err is None:
        return False
    if np_err is not None and cp_err is not None:
        if accept_error is True:
            ok = isinstance(cp_err, type(np_err)) or \
                isinstance(np_err, type(cp_err))
        elif accept_error:
            ok = isinstance(np_err, accept_error) and \
                isinstance(cp_err, accept_error)
        else:
            ok = False
        if ok:
            return True
        raise AssertionError(f"Both raised: numpy {np_err!r}, cupy "
                             f"{cp_err!r}") from cp_err
    which, err = ("numpy", np_err) if np_err is not None else ("cupy", cp_err)
    raise AssertionError(f"Only {which} raised {err!r}") from err


def _tolerance(value, dtype):
    if isinstance(value, dict):
        if dtype in value:
            return value[dtype]
        for k, v in value.items():
            if k != "default" and numpy.dtype(k) == dtype:
                return v
        return value.get("default", 0)
    return value


def _numpy_cupy_decorator(compare, name="xp", type_check=True,
                          accept_error=False, sp_name=None, scipy_name=None,
                          contiguous_check=False):
    import fake_cupy

    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            np_res, cp_res = _call_both(func, args, kwargs, name, sp_name,
                                        scipy_name)
            if _check_errors(np_res, cp_res, accept_error):
                return
            np_out, cp_out = np_res[0], cp_res[0]
            if isinstance(cp_out, (tuple, list)) and \
                    isinstance(np_out, (tuple, list)):
                pairs = list(zip(cp_out, np_out))
                if len(cp_out) != len(np_out):
                    raise AssertionError("Different lengths of results")
            else:
                pairs = [(cp_out, np_out)]
            for c, n in pairs:
                if isinstance(n, numpy.ndarray) and not \
                        isinstance(c, fake_cupy.ndarray) and \
                        not numpy.isscalar(c) and c is not None:
                    raise AssertionError(f"cupy returned {type(c)} where "
                                         f"numpy returned numpy.ndarray")
                if type_check and hasattr(n, "dtype") and hasattr(c, "dtype") \
                        and numpy.dtype(n.dtype) != numpy.dtype(c.dtype):
                    raise AssertionError(f"ndarrays of different dtypes are "
                                         f"returned: cupy {c.dtype}, numpy "
                                         f"{n.dtype}")
                if hasattr(n, "shape") and hasattr(c, "shape") and \
                        tuple(n.shape) != tuple(c.shape):
                    raise AssertionError(f"ndarrays of different shapes: "
                                         f"cupy {c.shape}, numpy {n.shape}")
                compare(c, n)
        return _drop_params(wrapper, func,
                            {name} | {x for x in (sp_name, scipy_name) if x})
    return decorator


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True,
                        name="xp", type_check=True, accept_error=False,
                        sp_name=None, scipy_name=None, contiguous_check=True,
                        **kwargs):
    """Runs the test with NumPy and CuPy and checks that the results agree
    (assert_allclose; rtol and atol may be dicts by dtype, with
    'default')."""
    def compare(c, n):
        dtype = numpy.result_type(numpy.asarray(_host(n)))
        assert_allclose(c, n, _tolerance(rtol, dtype),
                        _tolerance(atol, dtype), err_msg, verbose)
    return _numpy_cupy_decorator(compare, name, type_check, accept_error,
                                 sp_name, scipy_name, contiguous_check)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True,
                                  name="xp", type_check=True,
                                  accept_error=False, sp_name=None,
                                  scipy_name=None):
    return _numpy_cupy_decorator(
        lambda c, n: assert_array_almost_equal(c, n, decimal, err_msg,
                                               verbose),
        name, type_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True,
                                       accept_error=False, sp_name=None,
                                       scipy_name=None):
    return _numpy_cupy_decorator(
        lambda c, n: assert_array_almost_equal_nulp(c, n, nulp),
        name, type_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp",
                             type_check=True, accept_error=False,
                             sp_name=None, scipy_name=None):
    return _numpy_cupy_decorator(
        lambda c, n: assert_array_max_ulp(c, n, maxulp, dtype),
        name, type_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp",
                           type_check=True, accept_error=False, sp_name=None,
                           scipy_name=None, strides_check=False):
    return _numpy_cupy_decorator(
        lambda c, n: assert_array_equal(c, n, err_msg, verbose),
        name, type_check, accept_error, sp_name, scipy_name)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp",
                                sp_name=None, scipy_name=None):
    def compare(c, n):
        assert_array_list_equal(c if isinstance(c, list) else [c],
                                n if isinstance(n, list) else [n],
                                err_msg, verbose)
    return _numpy_cupy_decorator(compare, name, False, False, sp_name,
                                 scipy_name)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp",
                          type_check=True, accept_error=False, sp_name=None,
                          scipy_name=None):
    return _numpy_cupy_decorator(
        lambda c, n: assert_array_less(c, n, err_msg, verbose),
        name, type_check, accept_error, sp_name, scipy_name)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """Runs the test with NumPy and CuPy; the (non-array) results must be
    equal."""
    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            np_res, cp_res = _call_both(func, args, kwargs, name, sp_name,
                                        scipy_name)
            if _check_errors(np_res, cp_res, False):
                return
            if np_res[0] != cp_res[0]:
                raise AssertionError(f"Results are different: cupy "
                                     f"{cp_res[0]!r}, numpy {np_res[0]!r}")
        return _drop_params(wrapper, func,
                            {name} | {x for x in (sp_name, scipy_name) if x})
    return decorator


def for_dtypes(dtypes, name="dtype"):
    """Runs the test once per dtype, passed as the keyword argument
    `name`."""
    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            for dtype in dtypes:
                kw = dict(kwargs)
                kw[name] = numpy.dtype(dtype).type
                try:
                    func(*args, **kw)
                except _SkipTest:
                    raise
                except Exception as e:
                    if hasattr(e, "add_note"):
                        e.add_note(f"{name} is {numpy.dtype(dtype)}")
                    raise
        return _drop_params(wrapper, func, {name})
    return decorator


class _SkipTest(Exception):
    pass


try:
    import pytest as _pytest
    _SkipTest = _pytest.skip.Exception   # noqa: F811
except ImportError:   # pragma: no cover
    pass

_float_dtypes = (numpy.float64, numpy.float32, numpy.float16)
_complex_dtypes = (numpy.complex64, numpy.complex128)
_signed_dtypes = (numpy.int8, numpy.int16, numpy.int32, numpy.int64)
_unsigned_dtypes = (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64)
_int_dtypes = _signed_dtypes + _unsigned_dtypes
_int_bool_dtypes = _int_dtypes + (numpy.bool_,)
_regular_float_dtypes = (numpy.float64, numpy.float32)


def _make_all_dtypes(no_float16, no_bool, no_complex):
    dtypes = (numpy.float64, numpy.float32) + (() if no_float16 else
                                               (numpy.float16,))
    dtypes += () if no_complex else _complex_dtypes
    dtypes += _int_dtypes if no_bool else _int_bool_dtypes
    return dtypes


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False,
                   no_complex=False):
    return for_dtypes(_make_all_dtypes(no_float16, no_bool, no_complex), name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(_regular_float_dtypes if no_float16 else _float_dtypes,
                      name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_signed_dtypes, name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_unsigned_dtypes, name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(_int_dtypes if no_bool else _int_bool_dtypes, name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_complex_dtypes, name)


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Runs the test for combinations of dtypes, one keyword argument per
    name (all combinations with full=True or CUPY_TEST_FULL_COMBINATION=1,
    else a subset where each dtype appears for each name)."""
    import os
    if full is None:
        full = os.environ.get("CUPY_TEST_FULL_COMBINATION", "0") != "0"
    types = list(types)
    if full:
        combos = list(_itertools.product(types, repeat=len(names)))
    else:
        combos = [tuple(types[(i + k) % len(types)] for k in range(len(names)))
                  for i in range(len(types))]

    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            for combo in combos:
                kw = dict(kwargs)
                kw.update({n: numpy.dtype(t).type for n, t in zip(names, combo)})
                func(*args, **kw)
        return _drop_params(wrapper, func, set(names))
    return decorator


def for_all_dtypes_combination(names=("dtyes",), no_float16=False,
                               no_bool=False, full=None, no_complex=False):
    return for_dtypes_combination(
        _make_all_dtypes(no_float16, no_bool, no_complex), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_signed_dtypes, names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_unsigned_dtypes, names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(_int_dtypes if no_bool else
                                  _int_bool_dtypes, names, full)


def for_float_dtypes_combination(names=("dtype",), no_float16=False,
                                 full=None):
    return for_dtypes_combination(_regular_float_dtypes if no_float16 else
                                  _float_dtypes, names, full)


def for_orders(orders, name="order"):
    """Runs the test once per memory order."""
    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            for order in orders:
                kw = dict(kwargs)
                kw[name] = order
                func(*args, **kw)
        return _drop_params(wrapper, func, {name})
    return decorator


def for_CF_orders(name="order"):
    return for_orders([None, "C", "F", "c", "f"], name)


def for_contiguous_axes(name="axis"):
    def decorator(func):
        @_functools.wraps(func)
        def wrapper(*args, **kwargs):
            ndim = len(getattr(args[0], "shape", ())) if args else 0
            for i in range(max(ndim, 1)):
                kw = dict(kwargs)
                kw[name] = tuple(range(i, max(ndim, 1)))
                func(*args, **kw)
        return _drop_params(wrapper, func, {name})
    return decorator


def shaped_arange(shape, xp=None, dtype=numpy.float32, order="C",
                  device=None):
    """An array of `shape` holding 1, 2, ... (booleans alternate, complex
    values are n + n*1j... as CuPy's: n - n*1j)."""
    import fake_cupy
    xp = fake_cupy if xp is None else xp
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape, dtype=numpy.int64))
    a = numpy.arange(1, size + 1, 1)
    if dtype == numpy.bool_:
        a = a % 2 == 0
    elif dtype.kind == "c":
        a = a + a * 1j
    return xp.array(a.astype(dtype).reshape(shape), order=order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32):
    import fake_cupy
    xp = fake_cupy if xp is None else xp
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape, dtype=numpy.int64))
    a = numpy.arange(size, 0, -1)
    if dtype == numpy.bool_:
        a = a % 2 == 0
    elif dtype.kind == "c":
        a = a + a * 1j
    return xp.array(a.astype(dtype).reshape(shape))


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=0,
                  order="C"):
    """Random values in [0, scale) of `dtype` (0/1 for bool), the same for
    NumPy and CuPy for one seed."""
    import fake_cupy
    xp = fake_cupy if xp is None else xp
    rs = numpy.random.RandomState(seed)
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        a = rs.randint(2, size=shape)
    elif dtype.kind == "c":
        a = rs.rand(*shape) + 1j * rs.rand(*shape)
        a *= scale
    else:
        a = rs.rand(*shape) * scale
    return xp.array(numpy.asarray(a).astype(dtype), order=order)


def shaped_sparse_random(shape, sp=None, dtype=numpy.float32, density=0.01,
                         format="coo", seed=0):
    """cupy.testing.shaped_sparse_random: as CuPy's, SciPy's random matrix
    drawn after numpy.random.seed(seed), in `dtype`, made a coo_matrix of
    cupyx.scipy.sparse (`sp`, the default) or kept SciPy's (sp=scipy.sparse;
    any other module is a ValueError), then given `format`."""
    import scipy.sparse
    from fake_cupy import _sparse
    if sp is None:
        sp = _sparse.MODULE
    n_rows, n_cols = shape
    numpy.random.seed(seed)
    a = scipy.sparse.random(n_rows, n_cols, density).astype(dtype)
    if sp is _sparse.MODULE:
        a = _sparse.coo_matrix(a)
    elif sp is not scipy.sparse:
        raise ValueError("Unknown module: {}".format(sp))
    return a.asformat(format)


def generate_matrix(shape, xp=None, dtype=numpy.float32, *, singular_values):
    """A matrix (or stack) with the given singular values."""
    import fake_cupy
    xp = fake_cupy if xp is None else xp
    sv = numpy.asarray(singular_values)
    m, n = shape[-2:]
    rs = numpy.random.RandomState(0)
    k = min(m, n)
    u, _ = numpy.linalg.qr(rs.randn(m, m))
    v, _ = numpy.linalg.qr(rs.randn(n, n))
    s = numpy.zeros((m, n))
    s[numpy.arange(k), numpy.arange(k)] = numpy.broadcast_to(sv, (k,))
    return xp.asarray((u @ s @ v).astype(dtype))


def product(parameter):
    """The cartesian product of a dict of lists, as a list of dicts."""
    keys = sorted(parameter)
    values = [parameter[k] for k in keys]
    return [dict(zip(keys, combo)) for combo in _itertools.product(*values)]


def product_dict(*parameters):
    """The cartesian product of lists of dicts, merged."""
    return [dict(_itertools.chain.from_iterable(d.items() for d in combo))
            for combo in _itertools.product(*parameters)]


def parameterize(*params, **kwargs):
    """A class decorator: one test class per dict of `params` (attributes
    set from the dict), put into the class's module; the original class is
    hidden from pytest."""
    import sys

    def decorator(cls):
        module = sys.modules[cls.__module__]
        for i, param in enumerate(params):
            label = ", ".join(f"{k}={v!r}" for k, v in sorted(param.items()))
            name = f"{cls.__name__}_param_{i}_{{{label}}}"
            attrs = dict(param)
            attrs["__test__"] = True
            attrs["__qualname__"] = name
            new = type(name, (cls,), attrs)
            new.__module__ = cls.__module__
            setattr(module, name, new)
        cls.__test__ = False
        return cls
    return decorator


def multi_gpu(gpu_num):
    """Marks a test that needs `gpu_num` devices (skipped with fewer;
    CUEMU_DEVICE_COUNT gives the fake more)."""
    import pytest
    from fake_cupy import _runtime
    return _compose(
        pytest.mark.skipif(_runtime.device_count() < gpu_num,
                           reason=f"{gpu_num} GPUs required"),
        getattr(pytest.mark, "multi_gpu"))


def _compose(*marks):
    def decorator(func):
        for mark in reversed(marks):
            func = mark(func)
        return func
    return decorator


def _slow():
    try:
        import pytest
    except ImportError:   # pragma: no cover
        return lambda f: f
    return pytest.mark.slow


slow = _slow()


def with_requires(*requirements):
    """Skips the test unless the given packages are installed in versions
    their specifiers accept ("numpy>=1.20", "numpy<2.0")."""
    import pytest
    from importlib import metadata
    from packaging.requirements import Requirement
    missing = []
    for req in requirements:
        parsed = Requirement(req)
        try:
            version = metadata.version(parsed.name)
        except metadata.PackageNotFoundError:
            missing.append(req)
            continue
        if not parsed.specifier.contains(version, prereleases=True):
            missing.append(req)
    return pytest.mark.skipif(bool(missing),
                              reason=f"requires {', '.join(requirements)}")


def installed(*specifiers):
    try:
        with_requires(*specifiers)
    except Exception:
        return False
    from importlib import metadata
    for req in specifiers:
        name = req
        for op in (">=", "<=", "==", ">", "<", "!="):
            name = name.split(op)[0]
        try:
            metadata.version(name.strip())
        except metadata.PackageNotFoundError:
            return False
    return True


def numpy_satisfies(version_range):
    from packaging.specifiers import SpecifierSet
    return numpy.__version__ in SpecifierSet(version_range)


class AssertFunctionIsCalled:
    """A context manager checking that `mock_mod` (a dotted name) is called
    `times_called` times."""

    def __init__(self, mock_mod, **kwargs):
        from unittest import mock
        self.times_called = kwargs.pop("times_called", 1)
        self.patch = mock.patch(mock_mod, **kwargs)

    def __enter__(self):
        self.handle = self.patch.__enter__()
        return self.handle

    def __exit__(self, *exc):
        self.patch.__exit__(*exc)
        if exc[0] is None:
            assert self.times_called == self.handle.call_count


def assert_warns(warning_class, *args, **kwargs):
    """cupy.testing.assert_warns (NumPy's): a context manager checking that
    `warning_class` is warned, or, given a function and its arguments,
    calls it under that check and returns its result."""
    import pytest
    if not args:
        return pytest.warns(warning_class)
    func, *args = args
    with pytest.warns(warning_class):
        return func(*args, **kwargs)
