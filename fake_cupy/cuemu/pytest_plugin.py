"""The cuemu pytest plugin (entry point "cuemu.pytest_plugin", group pytest11;
from a source tree: -p cuemu.pytest_plugin; disabled by
-p no:cuemu.pytest_plugin).

With CUEMU_FAKE_CUPY=1 (or --fake-cupy) it installs the fake CuPy before
any test module or conftest imports cupy, so a suite written for CuPy runs
unchanged. It provides the `backend` fixture, and after every test that
used the fake it synchronizes the emulated device, so that a kernel fault
or a lifetime report left pending fails that test instead of a later one,
as do the racecheck and initcheck reports its kernels made (under
CUEMU_FAKE_CUPY_CHECK they let the launch succeed, as compute-sanitizer's
do).
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


def _check_reports():
    """The checkers' report count and last report, when libcuemu is loaded."""
    binding = sys.modules.get("cuemu._binding")
    if binding is None or getattr(binding, "_lib", None) is None:
        return None
    return binding.check_reports()


@pytest.fixture(autouse=True)
def _cuemu_pending_errors():
    """Fails the test that left a kernel error or a lifetime report, or
    whose kernels made racecheck or initcheck reports (under
    CUEMU_FAKE_CUPY_CHECK those let the launch succeed, as under
    compute-sanitizer; they are counted and fail the test here, and are
    then forgotten, so that they do not change the exit status again)."""
    before = _check_reports()
    yield
    runtime = sys.modules.get("fake_cupy._runtime")
    if runtime is not None:
        runtime.synchronize_all("all")
    after = _check_reports()
    if after is not None and after[0] > (before[0] if before else 0):
        sys.modules["cuemu._binding"].check_reports_clear()
        count = after[0] - (before[0] if before else 0)
        pytest.fail(f"cuemu checkers: {count} report{'s' if count > 1 else ''}"
                    f" in this test's kernels (each printed on stderr the "
                    f"first time; the last printed: {after[1]})",
                    pytrace=False)
