"""cupyx.scipy.sparse: matrices whose arrays are device arrays.

The fake's cupyx.scipy.sparse was SciPy's module behind the generic
delegates: `cupyx.scipy.sparse.csr_matrix(scipy_matrix)` gave back a SciPy
matrix of host arrays, and a sparse matrix-vector product with a cupy vector
(the most common use in public code: an SpMV benchmark, spring networks,
finite-element solves) stopped with "Implicit conversion to a NumPy array is
not allowed". CuPy's matrices hold cupy arrays (`data`, `indices`, `indptr`,
`row`, `col`), take cupy operands, give cupy results (`toarray()` and
`todense()` alike) and convert to SciPy only through `get()`."""
import numpy
import pytest
import scipy.sparse

import fake_cupy
from fake_cupy import _sparse as sparse


def _scipy_matrix(fmt="csr", n=6, seed=1):
    return scipy.sparse.random(n, n, density=0.4, format=fmt,
                               dtype=numpy.float64, random_state=seed)


def test_from_scipy_matrix_holds_device_arrays(cp):
    host = _scipy_matrix()
    a = sparse.csr_matrix(host)
    assert sparse.issparse(a) and sparse.isspmatrix_csr(a)
    assert not sparse.issparse(host)
    assert a.shape == host.shape and a.nnz == host.nnz and a.format == "csr"
    for name in ("data", "indices", "indptr"):
        assert isinstance(getattr(a, name), cp.ndarray)
    assert a.indices.dtype == numpy.int32 and a.indptr.dtype == numpy.int32
    back = a.get()
    assert scipy.sparse.issparse(back)
    numpy.testing.assert_array_equal(back.toarray(), host.toarray())


def test_products_with_device_operands_give_device_arrays(cp):
    host = _scipy_matrix()
    a = sparse.csr_matrix(host)
    x = numpy.arange(6.0)
    y = a @ cp.asarray(x)
    assert isinstance(y, cp.ndarray) and y.shape == (6,)
    numpy.testing.assert_allclose(y.get(), host @ x)
    numpy.testing.assert_allclose(a.dot(cp.asarray(x)).get(), host @ x)
    numpy.testing.assert_allclose((a * cp.asarray(x)).get(), host @ x)
    m = numpy.arange(12.0).reshape(6, 2)
    numpy.testing.assert_allclose((a @ cp.asarray(m)).get(), host @ m)
    numpy.testing.assert_allclose((cp.asarray(m.T) @ a).get(), m.T @ host)
    dense = a.toarray()
    assert isinstance(dense, cp.ndarray)
    assert isinstance(a.todense(), cp.ndarray)
    numpy.testing.assert_array_equal(dense.get(), host.toarray())


def test_numpy_operands_are_refused(cp):
    a = sparse.csr_matrix(_scipy_matrix())
    with pytest.raises(TypeError):
        a @ numpy.ones(6)
    with pytest.raises(ValueError):
        sparse.csr_matrix(numpy.eye(3))
    with pytest.raises(ValueError):
        sparse.csr_matrix((numpy.ones(2), numpy.array([0, 1]),
                           numpy.array([0, 1, 2])), shape=(2, 2))


def test_sparse_results_stay_sparse(cp):
    host = _scipy_matrix()
    a = sparse.csr_matrix(host)
    for result, expected in ((a + a, host + host), (a @ a, host @ host),
                             (a * 2.0, host * 2.0), (a.T, host.T),
                             (a - a.T, host - host.T)):
        assert sparse.issparse(result)
        assert isinstance(result.data, cp.ndarray)
        numpy.testing.assert_allclose(result.toarray().get(),
                                      expected.toarray())
    assert sparse.isspmatrix_csc(a.tocsc()) and sparse.isspmatrix_coo(a.tocoo())
    s = a.sum(axis=0)
    assert isinstance(s, cp.ndarray) and s.shape == (1, 6)
    numpy.testing.assert_allclose(s.get(), numpy.asarray(host.sum(axis=0)))
    total = a.sum()
    assert isinstance(total, cp.ndarray) and total.shape == ()


def test_constructor_forms_and_shared_data(cp):
    data = cp.asarray([1.0, 2.0, 3.0])
    indices = cp.asarray([0, 2, 1], dtype=cp.int32)
    indptr = cp.asarray([0, 2, 3], dtype=cp.int32)
    a = sparse.csr_matrix((data, indices, indptr), shape=(2, 3))
    numpy.testing.assert_array_equal(a.toarray().get(),
                                     [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    # As in CuPy, the matrix's data is the device array given (no copy),
    # and writing it through the attribute changes the matrix.
    assert a.data is data
    a.data *= 2
    numpy.testing.assert_array_equal(a.toarray().get()[0], [2.0, 0.0, 4.0])
    coo = sparse.coo_matrix((cp.asarray([5.0, 6.0]),
                             (cp.asarray([0, 1]), cp.asarray([1, 0]))),
                            shape=(2, 2))
    assert isinstance(coo.row, cp.ndarray)
    numpy.testing.assert_array_equal(coo.toarray().get(), [[0, 5], [6, 0]])
    assert sparse.csr_matrix(a).data is a.data
    assert sparse.csr_matrix(a, copy=True).data is not a.data
    dense = sparse.csr_matrix(cp.asarray([[0.0, 1.5], [2.5, 0.0]]))
    assert dense.nnz == 2
    empty = sparse.csc_matrix((3, 4), dtype=numpy.float32)
    assert empty.shape == (3, 4) and empty.dtype == numpy.float32
    with pytest.raises(ValueError):
        sparse.csr_matrix(cp.asarray([[1, 0], [0, 1]], dtype=cp.int64))


def test_module_functions_and_linalg(cp):
    eye = sparse.eye(4, format="csr")
    assert sparse.isspmatrix_csr(eye)
    d = sparse.diags([cp.asarray([1.0, 2.0, 3.0])], [0])
    numpy.testing.assert_array_equal(d.toarray().get(), numpy.diag([1.0, 2, 3]))
    stacked = sparse.vstack([eye, eye])
    assert sparse.issparse(stacked) and stacked.shape == (8, 4)
    from fake_cupy._sparse import linalg
    host = _scipy_matrix(n=5) + 5 * scipy.sparse.eye(5)
    b = numpy.arange(5.0)
    x = linalg.spsolve(sparse.csr_matrix(host), cp.asarray(b))
    assert isinstance(x, cp.ndarray)
    numpy.testing.assert_allclose(x.get(), scipy.sparse.linalg.spsolve(host.tocsr(), b))
    x, info = linalg.cg(sparse.csr_matrix(host @ host.T), cp.asarray(b))
    assert info == 0 and isinstance(x, cp.ndarray)


def test_installed_import_paths():
    fake_cupy.install()
    try:
        import cupy
        import cupyx
        import cupyx.scipy.sparse
        import cupyx.scipy.sparse.linalg
        from cupyx.scipy.sparse import csr_matrix
        a = csr_matrix(_scipy_matrix())
        y = a @ cupy.ones(6)
        assert isinstance(y, cupy.ndarray)
        assert cupyx.scipy.sparse.linalg.spsolve is not None
        assert cupyx.scipy.sparse.issparse(a)
    finally:
        fake_cupy.uninstall()


def test_spsolve_keeps_a_column_right_hand_side(cp):
    # SciPy's spsolve returns a vector for b of shape (n, 1); CuPy's solves
    # column by column and returns (n, 1) in A's dtype, so `A @ x - b` stays
    # (n, 1) (a Poisson benchmark's b is a column read from a .mat file).
    host = (_scipy_matrix(n=5) + 5 * scipy.sparse.eye(5)).tocsr()
    a = sparse.csr_matrix(host.astype(numpy.float32))
    b = cp.arange(5.0).reshape(5, 1)
    x = sparse.linalg.spsolve(a, b)
    assert x.shape == (5, 1) and x.dtype == numpy.float32
    numpy.testing.assert_allclose(x.get()[:, 0],
                                  scipy.sparse.linalg.spsolve(host, numpy.arange(5.0)),
                                  rtol=1e-5)
    assert (a @ x - b).shape == (5, 1)
    with pytest.raises(TypeError):
        sparse.linalg.spsolve(host, b)
    with pytest.raises(TypeError):
        sparse.linalg.spsolve(a, numpy.ones(5))


def test_diagonal_constructors_copy_host_diagonals(cp):
    # CuPy's dia_matrix copies its (data, offsets) with cupy.array, and diags
    # makes each diagonal cupy.atleast_1d, so NumPy arrays and lists are
    # taken there (a Schrodinger-equation script builds its Laplacian with
    # spdiags(numpy_data, numpy_offsets, N, N) and its potential with
    # diags(numpy_array)); the fake refused them as operands. Integer
    # diagonals give float64, CuPy's common_type, without SciPy's warning.
    import warnings
    n = 5
    host = numpy.array([numpy.ones(n), -2 * numpy.ones(n), numpy.ones(n)])
    d = sparse.spdiags(host, numpy.array([-1, 0, 1]), n, n)
    assert sparse.isspmatrix_dia(d) and isinstance(d.data, cp.ndarray)
    expect = scipy.sparse.spdiags(host, numpy.array([-1, 0, 1]), n, n).toarray()
    numpy.testing.assert_array_equal(d.toarray().get(), expect)
    m = sparse.dia_matrix((host, [-1, 0, 1]), shape=(n, n))
    assert isinstance(m.offsets, cp.ndarray)
    numpy.testing.assert_array_equal(m.toarray().get(), expect)
    v = sparse.diags(numpy.arange(1.0, n + 1))
    numpy.testing.assert_array_equal(v.toarray().get(), numpy.diag(numpy.arange(1.0, n + 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = sparse.diags([1, -2, 1], [-1, 0, 1], shape=(n, n))
    assert t.dtype == numpy.float64
    numpy.testing.assert_array_equal(t.toarray().get(), expect)
    mixed = sparse.diags([numpy.ones(n - 1), cp.full(n, -2.0), [1.0] * (n - 1)], [-1, 0, 1],
                         format="csr")
    assert sparse.isspmatrix_csr(mixed)
    numpy.testing.assert_array_equal(mixed.toarray().get(), expect)
    with pytest.raises(ValueError):
        sparse.dia_matrix((host, [-1, 0, 1]))
    # The other formats still take device arrays only, as CuPy's do.
    with pytest.raises(ValueError):
        sparse.coo_matrix((numpy.ones(2), (numpy.array([0, 1]), numpy.array([1, 0]))))


def test_dense_left_operand_defers_to_the_sparse_matrix(cp):
    # CuPy's ndarray operators call the other operand's reflected method
    # when its __array_priority__ is higher and it is no ndarray
    # (_should_use_rop); sparse matrices have 101. `dense + A` is dense,
    # `dense * A` a matrix product (spmatrix's * is @). The fake's ufunc
    # operand check raised "Unsupported type <class ...csr_matrix>".
    host = _scipy_matrix(n=4)
    a = sparse.csr_matrix(host)
    d = numpy.arange(16.0).reshape(4, 4)
    for got, want in ((cp.asarray(d) + a, d + host.toarray()),
                      (cp.asarray(d) - a, d - host.toarray()),
                      (cp.asarray(d) * a, d @ host.toarray()),
                      (cp.asarray(d) @ a, d @ host.toarray())):
        assert isinstance(got, cp.ndarray)
        numpy.testing.assert_allclose(got.get(), want)
    with pytest.raises(TypeError):
        cp.asarray(d) + [1.0]


def test_compressed_matrices_take_item_assignment(cp):
    # CuPy's csr and csc matrices take A[i, j] = v and row/column slices
    # (boundary rows of a finite-element matrix), as SciPy's do; the fake's
    # had no __setitem__. Changing the structure warns as both do.
    host = scipy.sparse.eye(4, format="csr") * 2.0
    a = sparse.csr_matrix(host)
    data = a.data
    a[1, 1] = 5.0                       # an existing entry: written in place
    assert a.data is data and float(a.data[1]) == 5.0
    with pytest.warns(scipy.sparse.SparseEfficiencyWarning):
        a[0, 3] = cp.asarray(7.0)
    with pytest.warns(scipy.sparse.SparseEfficiencyWarning):
        a[2, :] = 0
    expect = numpy.diag([2.0, 5.0, 2.0, 2.0])
    expect[0, 3] = 7.0
    expect[2, :] = 0
    numpy.testing.assert_array_equal(a.toarray().get(), expect)
    assert isinstance(a.indices, cp.ndarray) and a.indices.dtype == numpy.int32
    c = sparse.csc_matrix(host)
    with pytest.warns(scipy.sparse.SparseEfficiencyWarning):
        c[:, 0] = cp.asarray([[1.0], [1.0], [1.0], [1.0]])
    numpy.testing.assert_array_equal(c.toarray().get()[:, 0], numpy.ones(4))
    with pytest.raises(TypeError):
        sparse.coo_matrix(host)[0, 0] = 1.0


def test_random_matrices_draw_from_cupy_generators(cp):
    # CuPy's cupyx.scipy.sparse.random takes a cupy RandomState (or a seed)
    # and draws with it (choice for the positions, rand for the values);
    # the fake handed it to SciPy, which raised "cannot be used to seed a
    # numpy.random.RandomState instance". It gives float32 or float64
    # only (NotImplementedError otherwise) in COO unless format= says.
    a = sparse.random(6, 5, density=0.5, random_state=cp.random.RandomState(1))
    assert sparse.isspmatrix_coo(a) and a.nnz == 15 and a.dtype == numpy.float64
    assert isinstance(a.data, cp.ndarray) and a.row.dtype == numpy.int32
    b = sparse.random(6, 5, density=0.5, random_state=3, format="csr", dtype=cp.float32)
    c = sparse.rand(6, 5, density=0.5, random_state=3, format="csr", dtype=cp.float32)
    assert sparse.isspmatrix_csr(b) and b.dtype == numpy.float32
    numpy.testing.assert_array_equal(b.toarray().get(), c.toarray().get())
    dense = b.toarray().get()
    assert numpy.count_nonzero(dense) == 15 and ((dense >= 0) & (dense < 1)).all()
    d = sparse.random(4, 4, density=0.5, data_rvs=lambda k: cp.full(k, 2.0))
    numpy.testing.assert_array_equal(d.data.get(), numpy.full(8, 2.0))
    with pytest.raises(NotImplementedError):
        sparse.random(4, 4, dtype=cp.complex128)
    with pytest.raises(ValueError):
        sparse.random(4, 4, density=1.5)


def test_csr_multiply_gives_csr_as_cupys(cp):
    # CuPy's csr_matrix.multiply takes a scalar, a dense cupy array (a row,
    # a column or a matrix, broadcast) or another csr_matrix and returns a
    # csr_matrix (SciPy gives coo for a dense operand, so `.indptr` of the
    # result failed); any other operand is CuPy's TypeError.
    host = _scipy_matrix(n=4)
    a = sparse.csr_matrix(host)
    w = numpy.arange(4.0)
    for other, want in ((cp.asarray(w).reshape(1, 4), host.multiply(w.reshape(1, 4))),
                        (cp.asarray(w).reshape(4, 1), host.multiply(w.reshape(4, 1))),
                        (cp.asarray(numpy.ones((4, 4)) * 3), host * 3),
                        (a, host.multiply(host)), (2.5, host * 2.5)):
        got = a.multiply(other)
        assert sparse.isspmatrix_csr(got), type(got)
        assert isinstance(got.indptr, cp.ndarray)
        numpy.testing.assert_allclose(got.toarray().get(), want.toarray())
    with pytest.raises(TypeError):
        a.multiply(sparse.csc_matrix(host))


def test_indexing_takes_host_index_arrays(cp):
    # CuPy's sparse indexing converts each index array with cupy.asarray
    # (IndexMixin._asindices), so NumPy index arrays and lists are taken as
    # for cupy arrays; the fake refused NumPy ones as operands.
    host = _scipy_matrix(n=5)
    a = sparse.csr_matrix(host)
    rows = numpy.array([0, 3, -1])
    for index, want in ((rows, host[rows]), ((slice(None), rows), host[:, rows]),
                        ((rows, numpy.array([1, 2, 0])), host[rows, numpy.array([1, 2, 0])]),
                        ([4, 1], host[[4, 1]])):
        got = a[index]
        assert isinstance(got, (cp.ndarray, sparse.spmatrix))
        got = got.toarray().get() if sparse.issparse(got) else got.get()
        want = want.toarray() if scipy.sparse.issparse(want) else numpy.asarray(want)
        numpy.testing.assert_array_equal(numpy.asarray(got).ravel(), want.ravel())
