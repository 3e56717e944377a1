"""The names CuPy 13's cupyx.scipy.sparse has: the module's and each matrix
format's, read from cupyx/scipy/sparse/__init__.py and the class files it
imports (_base.py, _data.py, _compressed.py, _csr.py, _csc.py, _coo.py,
_dia.py). The fake's matrices compute with SciPy, whose module and classes
hold more (lil, dok and bsr formats, the *_array classes, save_npz,
nonzero, trace, ...); _sparse.py refuses those with these tables, so that
code the fake runs also runs on a GPU."""

# cupyx/scipy/sparse/__init__.py (CuPy 13), with the linalg subpackage.
MODULE_NAMES = frozenset({
    "spmatrix", "coo_matrix", "csc_matrix", "csr_matrix", "dia_matrix",
    "issparse", "isspmatrix", "isspmatrix_coo", "isspmatrix_csc",
    "isspmatrix_csr", "isspmatrix_dia", "SparseWarning",
    "SparseEfficiencyWarning", "eye", "identity", "rand", "random",
    "spdiags", "diags", "bmat", "hstack", "vstack", "kron", "kronsum",
    "find", "tril", "triu", "linalg"})

# The SciPy formats CuPy has no class for: a module function asked for one
# (format='lil') and a matrix's conversion to one raise NotImplementedError,
# as CuPy's asformat does through the to<format> methods below.
MISSING_FORMATS = frozenset({"bsr", "dok", "lil"})

# spmatrix (_base.py) and _data_matrix (_data.py): every format has these.
_COMMON = frozenset({
    "A", "H", "T", "ndim", "size", "nnz", "shape", "dtype", "format",
    "data", "maxprint", "asformat", "asfptype", "astype", "conj",
    "conjugate", "copy", "count_nonzero", "diagonal", "dot", "get",
    "getH", "get_shape", "getformat", "getmaxprint", "getnnz", "maximum",
    "mean", "minimum", "multiply", "power", "reshape", "set_shape",
    "setdiag", "sum", "toarray", "tobsr", "tocoo", "tocsc", "tocsr",
    "todense", "todia", "todok", "tolil", "transpose",
    # _data.py's element-wise functions (_ufuncs).
    "arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1",
    "floor", "log1p", "rad2deg", "rint", "sign", "sin", "sinh", "sqrt",
    "tan", "tanh", "trunc"})

# _compressed_sparse_matrix (with _minmax_mixin), then csr_matrix and
# csc_matrix; coo_matrix; dia_matrix adds only its offsets.
_COMPRESSED = _COMMON | {
    "indices", "indptr", "has_canonical_format", "has_sorted_indices",
    "sorted_indices", "sort_indices", "sum_duplicates", "eliminate_zeros",
    "max", "min", "argmax", "argmin", "getrow", "getcol"}

METHODS = {
    "csr": _COMPRESSED,
    "csc": _COMPRESSED,
    "coo": _COMMON | {"row", "col", "has_canonical_format",
                      "sum_duplicates", "eliminate_zeros"},
    "dia": _COMMON | {"offsets"},
}

# Methods CuPy's classes have that raise NotImplementedError: tobsr, todok
# and tolil everywhere (csr_matrix's own, which the others reach through
# tocsr()), todia outside dia_matrix, and spmatrix.setdiag where the format
# does not override it. dia_matrix.todia gives the matrix itself, as
# CuPy's newer dia_matrix does.
NOT_IMPLEMENTED = {
    "csr": frozenset({"tobsr", "todok", "tolil", "todia"}),
    "csc": frozenset({"tobsr", "todok", "tolil", "todia", "setdiag"}),
    "coo": frozenset({"tobsr", "todok", "tolil", "todia"}),
    "dia": frozenset({"tobsr", "todok", "tolil", "setdiag"}),
}
