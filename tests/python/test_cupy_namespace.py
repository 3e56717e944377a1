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

# CuPy's names the fake does not provide yet: CuPy 13's own versions of
# NumPy 1's type functions that NumPy 2 removed, CuPy's helpers without a
# NumPy counterpart, CuPy 13's deprecated cupy.sparse (cupyx.scipy.sparse)
# and CuPy 14's make_aligned_dtype. This set is exact: a name added to the
# fake must leave it.
_NOT_YET = {
    "cupy": {
        "byte_bounds", "issctype", "issubclass_", "issubsctype",
        "make_aligned_dtype", "obj2sctype", "sctype2char", "sparse", "who",
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
