"""`import cupyx` in a subprocess of a test run with CUEMU_FAKE_CUPY=1 (see
cupy_shim/cupy/__init__.py): the fake's cupyx."""
import sys

del sys.modules["cupyx"]
import fake_cupy  # noqa: E402

fake_cupy.install()
