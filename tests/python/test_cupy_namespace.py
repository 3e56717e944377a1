"""The fake's cupy, cupy.linalg, cupy.fft and cupy.random answer the names
CuPy has and refuse NumPy's others, as CuPy's modules do.

The names are those of CuPy 13.6.0 and 14.2.0 (fake_cupy/_cupy_names.py,
with how they were read). The fake answered every NumPy 2 name as
cupy.NAME, so code calling cupy.frompyfunc, cupy.einsum_path,
cupy.geomspace or cupy.insert ran on the fake and stopped on a GPU with
"AttributeError: module 'cupy' has no attribute 'frompyfunc'"."""
import numpy
import pytest

from fake_cupy import _cupy_names

# CuPy's names the fake does not provide yet: CuPy 14's make_aligned_dtype. This set is exact: a name added to the
# fake must leave it.
_NOT_YET = {
    "cupy": {
        "make_aligned_dtype",
    },
    "cupy.linalg": set(),
    "cupy.fft": set(),
    "cupy.random": set(),
}


def _modules(cp):
    return {"cupy": (cp, numpy), "cupy.linalg": (cp.linalg, numpy.linalg),
            "cupy.fft": (cp.fft, numpy.fft), "cupy.random": (cp.random, numpy.random)}


def _answers(module, name):
    try:
        getattr(module, name)
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("key", ["cupy", "cupy.linalg", "cupy.fft", "cupy.random"])
def test_numpys_names_that_no_cupy_release_has_are_refused(cp, key):
    fake, host = _modules(cp)[key]
    refused = [n for n in dir(host)
               if not n.startswith("_") and n not in _cupy_names.NAMES[key]]
    assert refused, "NumPy has names that CuPy lacks"
    answered = [n for n in refused if _answers(fake, n)]
    assert answered == []
    for name in refused:
        with pytest.raises(AttributeError,
                           match=f"^module '{key}' has no attribute '{name}'"):
            getattr(fake, name)


@pytest.mark.parametrize("key", ["cupy", "cupy.linalg", "cupy.fft", "cupy.random"])
def test_cupys_names_are_answered(cp, key):
    fake, _ = _modules(cp)[key]
    missing = {n for n in _cupy_names.NAMES[key] if not _answers(fake, n)}
    assert missing == _NOT_YET[key]


def test_cupy_has_names_that_the_old_list_of_gaps_took_for_numpys_only(cp):
    # CuPy 13 defines real_if_close (cupy/_math/misc.py), loadtxt and
    # genfromtxt (cupy/_creation/from_data.py): they stay.
    x = cp.real_if_close(cp.asarray([1.0 + 1e-20j, 2.0]))
    assert x.dtype == numpy.float64
    for name in ("loadtxt", "genfromtxt", "fromfunction", "savetxt"):
        assert _answers(cp, name)
    # CuPy 14's additions stay, as the fake keeps CuPy 14's spellings.
    assert cp.concat([cp.arange(2), cp.arange(1)]).shape == (3,)
    assert _answers(cp.linalg, "eig") and _answers(cp, "bool")
    # CuPy's own messages, with a pointer where CuPy has the name elsewhere.
    with pytest.raises(AttributeError, match=r"^module 'cupy' has no attribute "
                       r"'errstate' \(CuPy's error state is cupyx.errstate\)$"):
        cp.errstate
    for name in ("matrix_norm", "vector_norm", "vecdot", "multi_dot"):
        with pytest.raises(AttributeError,
                           match=f"^module 'cupy.linalg' has no attribute '{name}'$"):
            getattr(cp.linalg, name)


def test_numpy1_names_that_cupy_13_keeps(cp):
    assert cp.Inf == numpy.inf and cp.NINF == -numpy.inf and numpy.isnan(cp.NaN)
    assert cp.float_ is numpy.float64 and cp.complex_ is numpy.complex128
    assert cp.singlecomplex is numpy.complex64 and cp.RankWarning is numpy.exceptions.RankWarning
    x = cp.asarray([[3, 1], [2, 4]])
    with pytest.warns(DeprecationWarning, match="Please use `prod` instead"):
        assert int(cp.product(x)) == 24
    with pytest.warns(DeprecationWarning, match="Please use `all` instead"):
        assert not bool(cp.alltrue(x > 1))
    with pytest.warns(DeprecationWarning, match=r"use cupy.sort\(a, axis=0\)"):
        assert cp.msort(x).get().tolist() == [[2, 1], [3, 4]]
    # NumPy 2 removed these without a replacement; CuPy keeps a function that
    # says so, so the name is there and a call fails on a GPU too.
    with pytest.raises(RuntimeError, match="removed in NumPy v2.\nUse `ast.literal_eval`"):
        cp.safe_eval("1")


# cupyx and its cupyx.scipy modules (fake_cupy/_cupyx_names.py). The fake's
# cupyx.scipy modules delegate to SciPy's, and answered every SciPy name:
# a program that tried `from cupyx.scipy.special import factorial` and fell
# back to NumPy on ImportError took its CuPy path on the fake only.
#
# CuPy's names the fake does not provide yet. This set is exact: a name
# added to the fake must leave it.
_CUPYX_NOT_YET = {
    "cupyx": {"DeviceSynchronized", "GeneralizedUFunc", "allow_synchronize",
              "cusparse", "get_runtime_info", "lapack", "linalg", "optimizing"},
    "cupyx.scipy.sparse": {
        "block_array", "block_diag", "coo_array", "csc_array", "csr_array",
        "dia_array", "diags_array", "eye_array", "get_index_dtype",
        "matrix_transpose", "permute_dims", "random_array",
        "safely_cast_index_arrays", "sparray", "swapaxes"},
    "cupyx.scipy.sparse.linalg": {"matrix_power"},
    "cupyx.scipy.spatial": {"delaunay_2d"},
    "cupyx.scipy.spatial.distance": {
        "check_soft_dependencies", "cuvs_available", "pylibraft_available"},
}

_CUPYX_MODULES = sorted(k for k in _cupy_names.NAMES if k.startswith("cupyx"))


@pytest.fixture
def cupyx_modules(cp):
    """Imports the fake's cupyx modules by CuPy's names: key -> module."""
    import importlib
    from fake_cupy import _install
    installed = _install.installed()
    if not installed:
        cp.install()
    try:
        yield {key: importlib.import_module(key) for key in _CUPYX_MODULES}
    finally:
        if not installed:
            cp.uninstall()


@pytest.mark.parametrize("key", _CUPYX_MODULES)
def test_cupyx_answers_cupys_names(cupyx_modules, key):
    module = cupyx_modules[key]
    missing = {n for n in _cupy_names.NAMES[key] if not _answers(module, n)}
    assert missing == _CUPYX_NOT_YET.get(key, set())
    assert {n for n in dir(module) if not n.startswith("_")} <= _cupy_names.NAMES[key]


@pytest.mark.parametrize("key", [k for k in _CUPYX_MODULES if k.startswith("cupyx.scipy.")])
def test_cupyx_scipy_refuses_scipys_other_names(cupyx_modules, key):
    import importlib
    host = importlib.import_module("scipy" + key[len("cupyx.scipy"):])
    refused = [n for n in dir(host)
               if not n.startswith("_") and n not in _cupy_names.NAMES[key]]
    module = cupyx_modules[key]
    assert [n for n in refused if _answers(module, n)] == []
    for name in refused:
        with pytest.raises(AttributeError,
                           match=f"^module '{key}' has no attribute '{name}'$"):
            getattr(module, name)


def test_a_missing_cupyx_name_takes_the_import_error_path(cupyx_modules):
    # The pattern of a program that uses CuPy's function where there is one.
    with pytest.raises(ImportError, match="cannot import name 'factorial' "
                       "from 'cupyx.scipy.special'"):
        from cupyx.scipy.special import factorial  # noqa: F401
    from cupyx.scipy.special import gammaln, sph_harm  # noqa: F401
    with pytest.raises(ModuleNotFoundError, match="No module named 'cupyx.scipy.optimize'"):
        import cupyx.scipy.optimize  # noqa: F401
    import cupyx
    for name in ("numpy", "sys", "nonexistent"):
        with pytest.raises(AttributeError, match=f"^module 'cupyx' has no attribute '{name}'$"):
            getattr(cupyx, name)
    with pytest.raises(AttributeError, match="^module 'cupyx.scipy' has no attribute 'optimize'$"):
        cupyx.scipy.optimize
    assert cupyx.scipy.stats.zscore is cupyx_modules["cupyx.scipy.stats"].zscore


def test_cupyx_special_keeps_the_beta_distribution_names_scipy_removed(cp, cupyx_modules):
    special = cupyx_modules["cupyx.scipy.special"]
    import scipy.special
    a, b = 2.0, 3.0
    x = numpy.array([0.1, 0.5, 0.9], dtype=numpy.float32)
    p = special.btdtr(a, b, cp.asarray(x))
    assert p.dtype == numpy.float32
    numpy.testing.assert_allclose(p.get(), scipy.special.betainc(a, b, x), rtol=1e-6)
    back = special.btdtri(a, b, p.astype(numpy.float64))
    assert back.dtype == numpy.float64
    numpy.testing.assert_allclose(back.get(), x, rtol=1e-5)
    with pytest.raises(TypeError, match="cupyx_scipy_btdtr"):
        special.btdtr(a, b, cp.asarray(x.astype(numpy.complex64)))


def test_cupyx_signal_keeps_the_wavelets_scipy_removed(cp, cupyx_modules):
    signal = cupyx_modules["cupyx.scipy.signal"]
    # The Ricker wavelet's closed form at its centre and one width away.
    w = signal.ricker(5, 1.0)
    amplitude = 2 / (numpy.sqrt(3) * numpy.pi ** 0.25)
    assert w.dtype == numpy.float64 and w.shape == (5,)
    numpy.testing.assert_allclose(w.get()[[1, 2]], [0.0, amplitude], atol=1e-15)
    m = signal.morlet2(8, 2.0)
    assert m.dtype == numpy.complex128
    numpy.testing.assert_allclose(abs(m.get()), abs(m.get()[::-1]))
    h = signal.qmf(cp.asarray([1.0, 2.0, 3.0], dtype=cp.float32))
    assert h.dtype == numpy.float32 and h.get().tolist() == [3.0, -2.0, 1.0]
    with pytest.raises(TypeError):
        signal.qmf(numpy.ones(3))
    # A unit impulse gives each width's wavelet, reversed, around its middle.
    impulse = cp.zeros(11)
    impulse[5] = 1.0
    out = signal.cwt(impulse, signal.ricker, [1, 2])
    assert out.shape == (2, 11) and out.dtype == numpy.float64
    numpy.testing.assert_allclose(out.get()[1, 5], signal.ricker(11, 2).get()[5])


def test_numpy1_scalar_type_helpers_that_cupy_13_keeps(cp):
    # NumPy 1.26's answers, which CuPy 13 reproduces on NumPy 2.
    assert cp.obj2sctype(numpy.float32) is numpy.float32
    assert cp.obj2sctype(numpy.floating) is numpy.floating
    assert cp.obj2sctype(numpy.zeros(2, "i2")) is numpy.int16
    assert cp.obj2sctype("f8") is numpy.float64
    assert cp.obj2sctype(cp, default="none") == "none"
    assert cp.issubsctype("f4", numpy.floating) and not cp.issubsctype(int, float)
    assert cp.issubclass_(numpy.int32, numpy.integer) and not cp.issubclass_(1, int)
    assert cp.sctype2char("float32") == "f" and cp.sctype2char(complex) == "D"
    with pytest.raises(ValueError, match="unrecognized type"):
        cp.sctype2char(cp)
    assert cp.issctype(numpy.int8) and cp.issctype(numpy.dtype("c8"))
    assert not cp.issctype(numpy.object_) and not cp.issctype(1.0)


def test_byte_bounds_spans_a_strided_view(cp):
    a = cp.arange(24, dtype=cp.float32).reshape(4, 6)
    low, high = cp.byte_bounds(a)
    assert (low, high) == (a.data.ptr, a.data.ptr + 24 * 4)
    # A reversed column view: its lowest element is the last row's.
    v = a[::-1, 2]
    low, high = cp.byte_bounds(v)
    assert low == a.data.ptr + 2 * 4 and high == a.data.ptr + (3 * 6 + 2 + 1) * 4


def test_cupyx_distance_functions_that_scipy_lacks(cp, cupyx_modules):
    import scipy.spatial
    import scipy.stats
    distance = cupyx_modules["cupyx.scipy.spatial.distance"]
    u = numpy.array([0.1, 0.2, 0.3, 0.4])
    v = numpy.array([0.25, 0.25, 0.25, 0.25])
    h = distance.hellinger(cp.asarray(u), cp.asarray(v))
    assert isinstance(h, cp.ndarray) and h.shape == () and h.dtype == numpy.float64
    expected = numpy.sqrt(((numpy.sqrt(u) - numpy.sqrt(v)) ** 2).sum() / 2)
    numpy.testing.assert_allclose(float(h), expected)
    kl = distance.kl_divergence(cp.asarray(u.astype(numpy.float32)), cp.asarray(v))
    assert kl.dtype == numpy.float32
    numpy.testing.assert_allclose(float(kl), scipy.stats.entropy(u, v), rtol=1e-6)
    x = numpy.array([[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]])
    y = numpy.array([[1.0, 1.0], [-2.0, 0.5]])
    for p in (1.0, 2.0, numpy.inf):
        d = distance.distance_matrix(cp.asarray(x), cp.asarray(y), p)
        assert isinstance(d, cp.ndarray) and d.shape == (3, 2)
        numpy.testing.assert_allclose(d.get(), scipy.spatial.distance_matrix(x, y, p))
    with pytest.raises(ValueError, match="x contains 2-dimensional vectors but y "
                       "contains 3-dimensional vectors"):
        distance.distance_matrix(cp.asarray(x), cp.ones((2, 3)))


def test_cupy_sparse_is_the_deprecated_name_of_cupyx_scipy_sparse(cp, cupyx_modules):
    import cupy.sparse
    with pytest.warns(DeprecationWarning, match="Use cupyx.scipy.sparse instead"):
        m = cupy.sparse.csr_matrix(cp.eye(2))
    assert isinstance(m, cupyx_modules["cupyx.scipy.sparse"].csr_matrix)
    with pytest.raises(AttributeError, match="^module 'cupy.sparse' has no attribute 'nope'$"):
        cupy.sparse.nope


def test_who_prints_the_arrays_of_a_dictionary_in_cupys_table(cp, capsys):
    x = cp.arange(2.0)
    cp.who({"x": x, "y": cp.arange(3.0), "z": x, "txt": "Some str", "idx": 5})
    header = "Name " + " " * 10 + " Shape " + " " * 10 + " Bytes " + " " * 10 + " Type"
    assert capsys.readouterr().out.splitlines() == [
        header, "=" * (len(header) + 5), "",
        "x" + " " * 15 + "2" + " " * 16 + "16" + " " * 15 + "float64",
        "y" + " " * 15 + "3" + " " * 16 + "24" + " " * 15 + "float64",
        "z (x)" + " " * 11 + "2" + " " * 16 + "16" + " " * 15 + "float64",
        "", "Upper bound on total bytes  =       40"]
