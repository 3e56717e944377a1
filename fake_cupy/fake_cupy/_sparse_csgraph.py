"""cupyx.scipy.sparse.csgraph of the fake CuPy: CuPy 13's module holds
connected_components alone (cupyx/scipy/sparse/csgraph/__init__.py), so
SciPy's other graph functions (shortest_path, minimum_spanning_tree, ...)
are AttributeError here, as on a GPU. The components are SciPy's, computed
on the host view of the graph as a csr_matrix of this fake."""
import types

import numpy
import scipy.sparse.csgraph

from fake_cupy._ndarray import _new_from


def connected_components(csgraph, directed=True, connection="weak",
                         return_labels=True):
    """As CuPy's: the graph is made a csr_matrix (a cupy array or another
    of the fake's matrices; a NumPy array is the constructor's ValueError),
    a graph that is not square is LinAlgError, and the labels are an int32
    cupy array numbering the components by their smallest node."""
    from fake_cupy import _sparse
    if connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    if connection.lower() == "weak":
        directed = False
    if not _sparse.isspmatrix_csr(csgraph):
        csgraph = _sparse.csr_matrix(csgraph)
    if csgraph.shape[0] != csgraph.shape[1]:
        raise numpy.linalg.LinAlgError(
            "Last 2 dimensions of the array must be square")
    n, labels = scipy.sparse.csgraph.connected_components(
        csgraph.get(), directed=directed, connection=connection.lower())
    if not return_labels:
        return int(n)
    return int(n), _new_from(labels.astype(numpy.int32))


MODULE = types.ModuleType("cupyx.scipy.sparse.csgraph",
                          "Fake CuPy's cupyx.scipy.sparse.csgraph.")
MODULE.connected_components = connected_components
