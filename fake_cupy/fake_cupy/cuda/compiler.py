"""cupy.cuda.compiler of the fake CuPy: its error type, and NVRTC itself
(when the toolkit's libnvrtc is present) through compile_using_nvrtc."""
from fake_cupy._errors import CompileException, JitifyException


def compile_using_nvrtc(source, options=(), arch=None, filename="kern.cu",
                        name_expressions=None, log_stream=None,
                        cache_in_memory=False, jitify=False):
    """Compiles `source` with NVRTC, with CuPy's options (the emulated
    device's architecture unless `arch` names one, CuPy's headers and the
    toolkit's include folder); returns the PTX. Raises CompileException
    with NVRTC's log, or RuntimeError without NVRTC."""
    from fake_cupy import _kernel, _nvrtc
    if not _nvrtc.available():
        raise RuntimeError("NVRTC (libnvrtc.so) is not available")
    options = tuple(options)
    if arch is not None:
        options += (f"-arch={arch}",)
    result = _kernel._check_with_nvrtc(source, options,
                                       tuple(name_expressions or ()),
                                       filename, None, False)
    if log_stream is not None:
        log_stream.write(result.log)
    return result.ptx


__all__ = ["CompileException", "JitifyException", "compile_using_nvrtc"]
