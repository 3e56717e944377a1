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


@pytest.fixture
def ndi(cp):
    """The fake's cupyx.scipy.ndimage, imported as a user imports it."""
    fake_cupy.install()
    try:
        import cupyx.scipy.ndimage
        yield cupyx.scipy.ndimage
    finally:
        fake_cupy.uninstall()


# The deferred pass of tests/python.sh runs again only the tests that start a
# kernel or a process: tests/python.sh's immediate pass names them in the file
# $CUEMU_TEST_LAUNCHES_OUT, and its deferred pass keeps only them
# ($CUEMU_TEST_LAUNCHES_IN). Deferred launches change nothing in a test that
# never launches (most of the fake CuPy's array functions are NumPy's), and
# running those again took a quarter of the script's time.
_launches_out = os.environ.get("CUEMU_TEST_LAUNCHES_OUT")
_launches_in = os.environ.get("CUEMU_TEST_LAUNCHES_IN")
_launched = [False]
_launching = []


def _noting_launches(function):
    def noted(*args, **kwargs):
        _launched[0] = True
        return function(*args, **kwargs)
    return noted


if _launches_out:
    import subprocess

    from cuemu import _binding

    # A launch refused by the library still counts: the deferred pass must
    # refuse it too. A process counts because it inherits CUEMU_ASYNC.
    _binding.Kernel.launch = _noting_launches(_binding.Kernel.launch)
    subprocess.Popen.__init__ = _noting_launches(subprocess.Popen.__init__)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _launched[0] = False
    yield
    if _launched[0]:
        _launching.append(item.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if _launches_out:
        with open(_launches_out, "w") as f:
            f.writelines(nodeid + "\n" for nodeid in _launching)


def pytest_collection_modifyitems(config, items):
    if not _launches_in:
        return
    try:
        with open(_launches_in) as f:
            wanted = set(f.read().splitlines())
    except OSError as e:
        pytest.exit("conftest: cannot read %s: %s" % (_launches_in, e), 2)
    kept = [item for item in items if item.nodeid in wanted]
    if not kept:
        pytest.exit("conftest: no test of %s was collected" % _launches_in, 2)
    config.hook.pytest_deselected(
        items=[item for item in items if item.nodeid not in wanted])
    items[:] = kept
