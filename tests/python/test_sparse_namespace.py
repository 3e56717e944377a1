"""cupyx.scipy.sparse holds CuPy's names, and its matrices CuPy's methods.

The fake's module passed any name of SciPy's through, and its matrices any
method of SciPy's: `lil_matrix`, `bsr_matrix`, `dok_matrix`, the `*_array`
classes, `save_npz`, `block_diag`, or `A.tolil()`, `A.nonzero()`,
`coo.max()` ran on the fake and stopped on a GPU. CuPy 13's
cupyx/scipy/sparse/__init__.py exports the classes spmatrix, coo_matrix,
csc_matrix, csr_matrix and dia_matrix, the predicates issparse, isspmatrix
and isspmatrix_{coo,csc,csr,dia}, the warnings SparseWarning and
SparseEfficiencyWarning, and the functions eye, identity, rand, random,
spdiags, diags, bmat, hstack, vstack, kron, kronsum, find, tril and triu;
any other name is an AttributeError there. Its matrices' tobsr, todok and
tolil (and todia outside dia_matrix) raise NotImplementedError, as does
setdiag on csc_matrix and dia_matrix (spmatrix's own)."""
import numpy
import pytest
import scipy.sparse

import fake_cupy
from fake_cupy import _sparse as sparse

module = sparse.MODULE

CUPY_NAMES = (
    "spmatrix", "coo_matrix", "csc_matrix", "csr_matrix", "dia_matrix",
    "issparse", "isspmatrix", "isspmatrix_coo", "isspmatrix_csc",
    "isspmatrix_csr", "isspmatrix_dia", "SparseWarning",
    "SparseEfficiencyWarning", "eye", "identity", "rand", "random",
    "spdiags", "diags", "bmat", "hstack", "vstack", "kron", "kronsum",
    "find", "tril", "triu", "linalg")

SCIPY_ONLY = (
    "lil_matrix", "bsr_matrix", "dok_matrix", "csr_array", "coo_array",
    "csc_array", "dia_array", "lil_array", "sparray", "isspmatrix_lil",
    "isspmatrix_bsr", "isspmatrix_dok", "save_npz", "load_npz",
    "block_diag", "block_array", "diags_array", "eye_array",
    "random_array", "expand_dims")


def _matrix(fmt):
    host = scipy.sparse.random(5, 5, density=0.5, format="csr",
                               random_state=3) + scipy.sparse.eye(5)
    return sparse._CLASSES[fmt](host.asformat(fmt))


@pytest.mark.parametrize("name", CUPY_NAMES)
def test_cupy_names_are_present(name):
    assert getattr(module, name) is not None


@pytest.mark.parametrize("name", SCIPY_ONLY)
def test_scipy_only_names_are_absent(name):
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(module, name)


def test_construction_functions_give_device_matrices(cp):
    a = module.eye(4, format="csr")
    assert isinstance(a, sparse.csr_matrix)
    assert isinstance(module.identity(3, format="csc"), sparse.csc_matrix)
    b = module.kron(a, module.identity(2, format="csr"), format="csr")
    assert b.shape == (8, 8) and isinstance(b, sparse.spmatrix)
    assert module.kronsum(a, a, format="csr").shape == (16, 16)
    # CuPy's kron builds a coo_matrix; SciPy's gives bsr for a dense B.
    dense_b = sparse.csr_matrix(cp.ones((2, 2)))
    assert isinstance(module.kron(a, dense_b), sparse.coo_matrix)
    with pytest.raises(NotImplementedError, match="bsr"):
        module.kron(a, dense_b, format="bsr")
    assert module.hstack([a, a]).shape == (4, 8)
    assert module.bmat([[a, None], [None, a]]).shape == (8, 8)
    m = _matrix("csr")
    lower = module.tril(m, format="csr")
    assert isinstance(lower, sparse.csr_matrix)
    numpy.testing.assert_array_equal(lower.toarray().get(),
                                     numpy.tril(m.toarray().get()))
    assert isinstance(module.triu(m), sparse.spmatrix)
    row, col, data = module.find(m)
    assert isinstance(row, cp.ndarray) and isinstance(data, cp.ndarray)
    assert len(data) == m.nnz


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("method", ["tobsr", "todok", "tolil"])
def test_formats_cupy_lacks_are_not_implemented(fmt, method):
    a = _matrix(fmt)
    with pytest.raises(NotImplementedError, match=method):
        getattr(a, method)()
    with pytest.raises(NotImplementedError):
        a.asformat(method[2:])


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_todia_is_dia_matrix_own(fmt):
    # csr_matrix.todia raises NotImplementedError, and the others reach it
    # through tocsr(); a dia_matrix gives itself.
    with pytest.raises(NotImplementedError):
        _matrix(fmt).todia()
    d = _matrix("dia")
    assert d.todia() is d and d.asformat("dia") is d
    assert d.todia(copy=True) is not d


def test_asformat_is_cupys(cp):
    a = _matrix("csr")
    assert a.asformat("csr") is a and a.asformat(None) is a
    assert a.tocsr() is a and a.tocsr(copy=True) is not a
    assert isinstance(a.asformat("coo"), sparse.coo_matrix)
    with pytest.raises(AttributeError):
        a.asformat("xyz")


@pytest.mark.parametrize("fmt", ["csc", "dia"])
def test_setdiag_is_not_implemented_where_cupy_lacks_it(fmt, cp):
    with pytest.raises(NotImplementedError, match="setdiag"):
        _matrix(fmt).setdiag(cp.ones(5))


@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_setdiag_works_where_cupy_has_it(fmt, cp):
    a = _matrix(fmt)
    a.setdiag(cp.full(5, 7.0))
    numpy.testing.assert_array_equal(a.diagonal().get(), numpy.full(5, 7.0))


@pytest.mark.parametrize("fmt,name", [
    ("csr", "nonzero"), ("csr", "trace"), ("csr", "prune"),
    ("csr", "resize"), ("csr", "nanmax"), ("csr", "check_format"),
    ("csc", "real"), ("coo", "max"), ("coo", "argmin"), ("coo", "getrow"),
    ("coo", "tensordot"), ("dia", "min"), ("dia", "eliminate_zeros"),
    ("dia", "getcol")])
def test_methods_cupy_lacks_are_absent(fmt, name):
    a = _matrix(fmt)
    with pytest.raises(AttributeError,
                       match=f"'{fmt}_matrix' object has no attribute '{name}'"):
        getattr(a, name)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_getnnz_takes_no_axis(fmt):
    # CuPy's getnnz counts all stored values; SciPy's per-axis counts are
    # ValueError there (NotImplementedError for dia_matrix).
    a = _matrix(fmt)
    assert a.getnnz() == a.nnz
    error = NotImplementedError if fmt == "dia" else ValueError
    with pytest.raises(error):
        a.getnnz(axis=0)


@pytest.mark.parametrize("fmt", ["coo", "dia"])
def test_coo_and_dia_are_not_subscriptable(fmt):
    # CuPy's IndexMixin is the compressed formats' alone; SciPy's dia_matrix
    # gave an AttributeError for __getitem__.
    with pytest.raises(TypeError, match=f"'{fmt}_matrix' object is not subscriptable"):
        _matrix(fmt)[0, 1]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_methods_cupy_has_keep_working(fmt, cp):
    a = _matrix(fmt)
    dense = a.toarray().get()
    numpy.testing.assert_allclose(a.sum(axis=0).get().ravel(), dense.sum(0))
    numpy.testing.assert_allclose(float(a.mean()), dense.mean())
    numpy.testing.assert_allclose(a.power(2).toarray().get(), dense ** 2)
    numpy.testing.assert_allclose(a.sqrt().toarray().get(), numpy.sqrt(dense))
    numpy.testing.assert_allclose(a.A.get(), dense)
    numpy.testing.assert_allclose(a.H.toarray().get(), dense.T)
    assert a.count_nonzero() == numpy.count_nonzero(dense)
    assert a.getformat() == fmt and a.get_shape() == (5, 5)
    for target in ("csr", "csc", "coo"):
        numpy.testing.assert_allclose(a.asformat(target).toarray().get(),
                                      dense)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_compressed_methods_keep_working(fmt, cp):
    a = _matrix(fmt)
    dense = a.toarray().get()
    assert float(a.max()) == dense.max()
    assert int(a.argmax()) == dense.argmax()
    numpy.testing.assert_allclose(a.getrow(1).toarray().get(), dense[1:2])
    numpy.testing.assert_allclose(a.getcol(2).toarray().get(), dense[:, 2:3])
    a.sum_duplicates()
    a.sort_indices()
    assert a.has_sorted_indices and a.has_canonical_format
    assert a.sorted_indices().nnz == a.nnz


def test_coo_methods_keep_working(cp):
    a = _matrix("coo")
    a.sum_duplicates()
    a.eliminate_zeros()
    assert a.has_canonical_format
    assert isinstance(a.row, cp.ndarray)


def test_installed_import_refuses_scipy_only_names():
    fake_cupy.install()
    try:
        import cupyx.scipy.sparse
        with pytest.raises(AttributeError):
            cupyx.scipy.sparse.lil_matrix
        with pytest.raises(ImportError):
            from cupyx.scipy.sparse import dok_matrix  # noqa: F401
        from cupyx.scipy.sparse import csr_matrix, kronsum  # noqa: F401
    finally:
        fake_cupy.uninstall()


def test_module_functions_refuse_formats_cupy_lacks():
    with pytest.raises(NotImplementedError, match="lil"):
        module.eye(3, format="lil")
    with pytest.raises(NotImplementedError, match="dok"):
        module.identity(3, "d", "dok")


def test_csgraph_holds_connected_components_only(cp):
    # CuPy 13's cupyx.scipy.sparse.csgraph has connected_components alone;
    # the fake's was SciPy's module behind the generic delegates, which
    # refused its own sparse matrices ("graph should have two dimensions").
    fake_cupy.install()
    try:
        import cupyx.scipy.sparse.csgraph as csgraph
        with pytest.raises(AttributeError, match="'shortest_path'"):
            csgraph.shortest_path
        dense = numpy.zeros((6, 6))
        dense[0, 3] = dense[3, 5] = dense[1, 2] = 1.0
        graph = sparse.csr_matrix(cp.asarray(dense))
        n, labels = csgraph.connected_components(graph, directed=False)
        assert n == 3 and isinstance(labels, cp.ndarray)
        assert labels.dtype == numpy.int32
        numpy.testing.assert_array_equal(labels.get(), [0, 1, 1, 0, 2, 0])
        assert csgraph.connected_components(cp.asarray(dense),
                                            return_labels=False) == 3
        n, _ = csgraph.connected_components(graph, connection="strong")
        assert n == 6
        with pytest.raises(ValueError, match="connection"):
            csgraph.connected_components(graph, connection="both")
        with pytest.raises(ValueError):
            csgraph.connected_components(dense)
        with pytest.raises(numpy.linalg.LinAlgError, match="square"):
            csgraph.connected_components(cp.ones((2, 3)))
    finally:
        fake_cupy.uninstall()


def test_testing_shaped_sparse_random(cp):
    # cupy.testing.shaped_sparse_random raised "cupyx.scipy.sparse is not
    # emulated"; CuPy's draws SciPy's random matrix after seeding NumPy and
    # gives it as a coo_matrix of cupyx.scipy.sparse, or SciPy's own.
    a = cp.testing.shaped_sparse_random((6, 5), density=0.5, format="csr",
                                        seed=4)
    assert isinstance(a, sparse.csr_matrix) and a.dtype == numpy.float32
    host = cp.testing.shaped_sparse_random((6, 5), scipy.sparse,
                                           density=0.5, format="csr", seed=4)
    assert scipy.sparse.issparse(host) and host.format == "csr"
    numpy.testing.assert_array_equal(a.toarray().get(), host.toarray())
    assert a.nnz == 15
    with pytest.raises(ValueError, match="Unknown module"):
        cp.testing.shaped_sparse_random((2, 2), numpy)
