"""`import cupy` in a subprocess of a test run with CUEMU_FAKE_CUPY=1: the
cuemu pytest plugin puts this folder (cuemu/cupy_shim) on the PYTHONPATH
it hands to subprocesses, and importing this module installs the fake
CuPy, so that `import cupy` gives fake_cupy there too (CuPy's own tests
run Python subprocesses, e.g. to unpickle kernels)."""
import sys

del sys.modules["cupy"]
import fake_cupy  # noqa: E402

fake_cupy.install()
