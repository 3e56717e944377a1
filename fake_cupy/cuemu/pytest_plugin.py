"""The cuemu pytest plugin (entry point "cuemu.pytest_plugin", group pytest11;
from a source tree: -p cuemu.pytest_plugin; disabled by
-p no:cuemu.pytest_plugin).

With CUEMU_FAKE_CUPY=1 (or --fake-cupy) it installs the fake CuPy before
any test module or conftest imports cupy, so a suite written for CuPy runs
unchanged. It provides the `backend` fixture, and after every test that
used the fake it synchronizes the emulated device, so that a kernel fault
or a lifetime report left pending fails that test instead of a later one.
"""
import os
import sys

import pytest

from cuemu import testing as _testing


def _wants_fake(config=None):
    if os.environ.get("CUEMU_FAKE_CUPY") == "1":
        return True
    return bool(config is not None and config.getoption("fake_cupy", False))


def _install_fake():
    """Installs the fake CuPy here, and, through PYTHONPATH, in the Python
    subprocesses a test starts (cuemu/cupy_shim installs it there)."""
    import fake_cupy
    fake_cupy.install()
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "cupy_shim")
    package = os.path.dirname(os.path.dirname(os.path.abspath(
        fake_cupy.__file__)))
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    for path in (package, shim):
        if path not in paths:
            paths.insert(0, path)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)


if os.environ.get("CUEMU_FAKE_CUPY") == "1":
    _install_fake()


def pytest_addoption(parser):
    parser.addoption("--fake-cupy", action="store_true", dest="fake_cupy",
                     help="install the fake CuPy (fake_cupy) as cupy")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    if os.environ.get("CUEMU_FAKE_CUPY") == "1" or "--fake-cupy" in args:
        _install_fake()


def pytest_configure(config):
    if _wants_fake(config):
        _install_fake()
    config.addinivalue_line("markers", "gpu: needs the real CuPy and a CUDA device")
    # The marks of cupy.testing (multi_gpu, slow), as CuPy's suites use them.
    config.addinivalue_line("markers", "multi_gpu: needs several (emulated) devices")
    config.addinivalue_line("markers", "slow: a slow test")


def pytest_report_header(config):
    if "fake_cupy" in sys.modules and sys.modules["fake_cupy"].installed():
        return "cuemu: the fake CuPy is installed as cupy"
    return None


backend = _testing._backend_fixture()


@pytest.fixture(autouse=True)
def _cuemu_pending_errors():
    """Fails the test that left a kernel error or a lifetime report."""
    yield
    runtime = sys.modules.get("fake_cupy._runtime")
    if runtime is not None:
        runtime.synchronize_all("all")
