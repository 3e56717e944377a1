"""Checked launches from Python as under compute-sanitizer (issue 13): with
CUEMU_FAKE_CUPY_CHECK, a racecheck or initcheck report lets the kernel run
to its end and the launch succeed; the report is printed once and counted
(cuemu.check_reports()), the pytest plugin fails the test whose kernels
made it, and `python -m fake_cupy` exits with status 1, as a whole C++
program does. A memcheck report still ends the launch with an error, as a
bad access stops a GPU's kernel. The helpers' check= still fail the call."""
import os
import subprocess
import sys
import textwrap

import pytest

import cuemu

# Each thread reads its neighbour's shared element with no barrier between
# the writes and the reads: a shared-memory race (RAW) in every block.
RACY = r'''
extern "C" __global__ void racy(int *done, int *seen) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  seen[blockIdx.x * blockDim.x + threadIdx.x] =
      s[(threadIdx.x + 1) % blockDim.x];
  done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
'''

OUT_OF_BOUNDS = r'''
extern "C" __global__ void past(int *x, int n) {
  x[n + threadIdx.x] = 1;
}
'''

HERE = os.path.dirname(os.path.abspath(__file__))


def _env(**extra):
    env = dict(os.environ)
    env.pop("CUEMU_QUIET", None)
    env.update(extra)
    return env


def test_a_race_lets_the_launch_finish(cp, monkeypatch, capfd):
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "race")
    monkeypatch.delenv("CUEMU_QUIET", raising=False)
    before = cuemu.check_reports()[0]
    k = cp.RawKernel(RACY, "racy")
    done = cp.zeros(4 * 32, cp.int32)
    seen = cp.zeros(4 * 32, cp.int32)
    k((4,), (32,), (done, seen))           # no exception
    cp.cuda.Device().synchronize()
    assert done.get().tolist() == [1] * 128  # every block ran to its end
    count, last = cuemu.check_reports()
    assert count > before
    assert "racecheck" in last and "racy" in last
    assert "racecheck" in capfd.readouterr().err
    cuemu.check_reports_clear()              # expected: the test passes
    assert cuemu.check_reports()[0] == 0


def test_the_helpers_check_still_fails_the_call(cp):
    import numpy
    done = numpy.zeros(32, numpy.int32)
    seen = numpy.zeros(32, numpy.int32)
    with pytest.raises(Exception, match="CHECK_REPORT|racecheck"):
        cuemu.emulate_cuda_kernel(RACY, done, seen, grid=(1,), block=(32,),
                                  check="race")
    assert cuemu.check_reports()[0] == 0     # reported by the exception


def test_memcheck_still_ends_the_launch(cp, monkeypatch):
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "mem")
    k = cp.RawKernel(OUT_OF_BOUNDS, "past")
    x = cp.zeros(64, cp.int32)
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        k((1,), (32,), (x, 64))
        cp.cuda.Device().synchronize()


def test_pytest_fails_the_racy_test_and_passes_the_other(tmp_path):
    (tmp_path / "test_user.py").write_text(textwrap.dedent('''
        import cupy
        RACY = %r
        def test_racy():
            k = cupy.RawKernel(RACY, "racy")
            done = cupy.zeros(32, cupy.int32)
            k((1,), (32,), (done, cupy.zeros(32, cupy.int32)))
            assert int(done.sum()) == 32
        def test_clean():
            assert int(cupy.arange(4).sum()) == 6
        ''' % RACY))
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "cuemu.pytest_plugin", str(tmp_path / "test_user.py")],
        env=_env(CUEMU_FAKE_CUPY="1", CUEMU_FAKE_CUPY_CHECK="race"),
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    # The plugin fails it at its end, as it does a kernel fault left
    # pending: an error at the racy test's teardown.
    assert "ERROR test_user.py::test_racy" in text, text
    assert "1 error" in text and "FAILED" not in text, text
    assert "cuemu checkers: " in text and "racy" in text, text


def test_a_program_with_a_race_exits_with_status_1(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent('''
        import cupy
        k = cupy.RawKernel(%r, "racy")
        done = cupy.zeros(32, cupy.int32)
        k((1,), (32,), (done, cupy.zeros(32, cupy.int32)))
        print("finished", int(done.sum()))
        ''' % RACY))
    out = subprocess.run(
        [sys.executable, "-m", "fake_cupy", str(tmp_path / "prog.py")],
        env=_env(CUEMU_FAKE_CUPY_CHECK="race"), capture_output=True,
        text=True, cwd=tmp_path, timeout=300)
    assert "finished 32" in out.stdout, out.stdout + out.stderr
    assert out.returncode == 1, out.stdout + out.stderr
    assert "cuemu: checkers: " in out.stderr


def test_a_report_names_the_python_line_that_made_the_array(cp, monkeypatch):
    # Reports name the line that allocated the buffer. The fake's arrays
    # were all "allocated at" CPython's ctypes (Modules/_ctypes/callproc.c),
    # the C caller of libcuemu's registration; they are made by the Python
    # line that created the array (trial pub30).
    import inspect
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "mem")
    k = cp.RawKernel(OUT_OF_BOUNDS, "past")
    x = cp.zeros(64, cp.int32); line = inspect.currentframe().f_lineno
    with pytest.raises(cp.cuda.driver.CUDADriverError) as info:
        k((1,), (32,), (x, 48))
        cp.cuda.Device().synchronize()
    message = str(info.value)
    assert "out-of-bounds" in message
    assert f"allocated at {__file__}:{line}" in message
    assert "callproc.c" not in message



# The race of RACY again (a race is reported once for each line of a
# process).
RACY_KERNEL = r'''
extern "C" __global__ void racy_kernel(int *done, int *seen) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;  // racy_kernel writes
  seen[blockIdx.x * blockDim.x + threadIdx.x] =
      s[(threadIdx.x + 1) % blockDim.x];  // racy_kernel reads
  done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
'''


def _line_of(text):
    """The line of this file that holds `text`."""
    with open(os.path.abspath(__file__)) as f:
        return f.read().split(text)[0].count("\n") + 1


def test_reports_name_the_line_of_the_users_file(cp, monkeypatch, tmp_path):
    # A report named the copy of the code in the compile cache
    # (.../fake_cupy/<key>/kernel.cu:4), a file the user never wrote. Now
    # it names the line of the Python file that holds the kernel's line
    # (the code string found there as written), a RawModule's file by its
    # own path, and the cache's copy only for code built at run time.
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "race")
    monkeypatch.delenv("CUEMU_QUIET", raising=False)
    here = os.path.abspath(__file__)

    def race_report(kernel):
        cuemu.check_reports_clear()
        done = cp.zeros(64, cp.int32)
        seen = cp.zeros(64, cp.int32)
        kernel((2,), (32,), (done, seen))
        cp.cuda.Device().synchronize()
        last = cuemu.check_reports()[1]
        cuemu.check_reports_clear()
        return last

    last = race_report(cp.RawKernel(RACY_KERNEL, "racy_kernel"))
    write, read = _line_of("// racy_kernel writes"), _line_of("// racy_kernel reads")
    assert f"at {here}:{write};" in last and f"at {here}:{read}" in last, last
    # A RawModule of the same string compiles it under the same #line (one
    # compile, and the race, reported once for its line, is not again).
    code_line = _line_of("RACY_KERNEL = r")
    assert cp.RawModule(code=RACY_KERNEL)._label == (here, code_line)
    path = tmp_path / "racy.cu"
    path.write_text(RACY.replace("racy(", "racy_file("))
    last = race_report(cp.RawModule(path=str(path)).get_function("racy_file"))
    assert f"at {path}:4;" in last, last
    built = RACY.replace("racy(", "racy_built(")        # in no file
    last = race_report(cp.RawKernel(built, "racy_built"))
    assert "fake_cupy" in last and "kernel.cu:4;" in last, last


def test_a_raw_read_past_the_end_is_not_wrapped(cp, monkeypatch):
    # CuPy's CArray::operator[](i) takes every dimension's index but the
    # first modulo its extent, and the first gets what is left: x[i + 1000]
    # on four elements reads past the array. The fake wrapped the first
    # dimension too, so such a kernel read x[i] again and memcheck saw an
    # access in bounds.
    flat = cp.ElementwiseKernel("raw T x", "T y", "y = x[i]", "read_linear")
    m = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    assert flat(m, cp.empty(12, cp.float32)).get().tolist() == list(range(12))
    t = m.T                                  # a view: its own shape's order
    assert flat(t, cp.empty(12, cp.float32)).get().tolist() == \
        m.get().T.ravel().tolist()
    monkeypatch.setenv("CUEMU_FAKE_CUPY_CHECK", "mem")
    past = cp.ElementwiseKernel("raw float32 x", "float32 y",
                                "y = x[i + 1000]", "read_past_end")
    with pytest.raises(cp.cuda.driver.CUDADriverError, match="memcheck"):
        past(cp.ones(4, cp.float32), cp.empty(4, cp.float32))
        cp.cuda.Device().synchronize()
