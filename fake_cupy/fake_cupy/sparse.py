"""cupy.sparse: CuPy 13's deprecated name of cupyx.scipy.sparse, whose
names it answers with a DeprecationWarning (cupy/sparse/__init__.py)."""
import warnings


def __getattr__(name):
    from fake_cupy import _sparse
    # The import system's questions (__path__, ...) are this module's own.
    if not name.startswith("__") and hasattr(_sparse.MODULE, name):
        warnings.warn("cupy.sparse is deprecated. Use cupyx.scipy.sparse "
                      "instead.", DeprecationWarning, stacklevel=2)
        return getattr(_sparse.MODULE, name)
    raise AttributeError(f"module 'cupy.sparse' has no attribute {name!r}")
