"""Shared fixtures of the fake CuPy's tests (the cuemu plugin is loaded by
tests/python.sh with -p cuemu.pytest_plugin)."""
import gc
import os

import pytest

# CUDA_VISIBLE_DEVICES of the caller would hide or renumber the emulated
# devices (libcuemu reads it at its first device call, after this).
os.environ.pop("CUDA_VISIBLE_DEVICES", None)

import fake_cupy


@pytest.fixture
def cp():
    """The fake CuPy, with a clean default pool and immediate launches."""
    fake_cupy.cuda.set_async_mode(None)
    gc.collect()
    yield fake_cupy
    fake_cupy.cuda.set_async_mode(None)


@pytest.fixture
def deferred(cp):
    """Deferred launches (as CUEMU_ASYNC=deferred) for one test."""
    cp.cuda.set_async_mode("deferred")
    yield cp
    cp.cuda.set_async_mode(None)
