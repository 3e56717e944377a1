"""setup.py: builds _vecops, whose .cu sources are compiled by nvcc."""
import os
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def locate_cuda():
    """Finds CUDA_HOME from the environment, else from nvcc on the PATH."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home:
        nvcc = os.path.join(home, "bin", "nvcc")
    else:
        nvcc = shutil.which("nvcc")
        if nvcc is None:
            nvcc = "/usr/local/cuda/bin/nvcc"
        home = os.path.dirname(os.path.dirname(nvcc))
    nvcc = os.environ.get("NVCC", nvcc)
    cuda = {"home": home, "nvcc": nvcc,
            "include": os.path.join(home, "include"),
            "lib64": os.path.join(home, "lib64")}
    for key in ("include", "lib64"):
        if not os.path.exists(cuda[key]):
            raise OSError(f"CUDA {key} not found at {cuda[key]}")
    return cuda


CUDA = locate_cuda()


def customize_compiler_for_nvcc(compiler):
    """Teaches the distutils compiler to hand .cu files to nvcc."""
    compiler.src_extensions.append(".cu")
    default_compiler_so = compiler.compiler_so
    base_compile = compiler._compile

    def _compile(obj, src, ext, cc_args, extra_postargs, pp_opts):
        if os.path.splitext(src)[1] == ".cu":
            compiler.set_executable("compiler_so", CUDA["nvcc"])
            postargs = extra_postargs["nvcc"]
        else:
            postargs = extra_postargs["gcc"]
        base_compile(obj, src, ext, cc_args, postargs, pp_opts)
        compiler.compiler_so = default_compiler_so

    compiler._compile = _compile


class CudaBuildExt(build_ext):
    def build_extensions(self):
        customize_compiler_for_nvcc(self.compiler)
        build_ext.build_extensions(self)


ext = Extension(
    "_vecops",
    sources=["src/module.c", "src/vecops.cu"],
    include_dirs=[CUDA["include"], "src"],
    library_dirs=[CUDA["lib64"]],
    libraries=["cudart", "stdc++"],
    runtime_library_dirs=[CUDA["lib64"]],
    extra_compile_args={
        "gcc": ["-O2", "-std=c99"],
        "nvcc": ["-O2", "-arch=sm_90", "--ptxas-options=-v", "-c",
                 "--compiler-options", "'-fPIC'", "-std=c++17"],
    },
)

setup(name="vecops", version="0.1", ext_modules=[ext],
      py_modules=["vecops"], package_dir={"": "."},
      cmdclass={"build_ext": CudaBuildExt})
