#!/bin/sh
# setup.sh: makes a fresh clone ready to use on Debian (as root): installs
# the packages that are missing, then configures (once) and builds.
# Used by the README's two commands and by CI.
set -e
cd "$(dirname "$0")/.."
setup_started=$(date +%s)

# Debian packages the build and the tests need.
# The cross compiler and qemu run the aarch64 context switch test.
# libyaml reads parity case files; libffi calls host implementations.
# chromium (headless) opens cuemu-parity's HTML report in a test and takes
# a screenshot of it; the test skips without it. cmake builds the CMake
# project of tests/driver.sh (cuemu-nvcc as CMake's CUDA compiler).
# ccache keeps nvcc_kernels.sh from compiling unchanged files again. meson
# (with ninja) builds the Meson project of tests/programs_trialopts.sh, which
# skips it without them. GoogleTest (with GoogleMock) and Catch2 build the
# unit-test projects of tests/programs_trialtest*.sh, which skip them
# without them. pybind11-dev gives the pybind11 module of
# tests/programs_trialpyext_pybind.sh (which skips it without it). llvm's
# tools (with clang) compile the CUDA toolkit's libdevice into libcuemu, for
# device math with a GPU's bits (emulator/math/math.am); llvm-dev's headers
# build cuemu's LLVM plugin for clang++'s device passes, and libclang-dev's
# (libclang-14-dev on Debian 12) its clang plugin, which refuses what nvcc
# refuses across execution spaces in clang++'s units.
packages="build-essential autoconf automake libtool pkg-config check cmake ccache
  meson ninja-build libgtest-dev libgmock-dev catch2 pybind11-dev
  libxxhash-dev libyaml-dev libffi-dev clang llvm llvm-dev libclang-dev gdb binutils
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user python3 python3-pip
  python3-venv chromium"
# g++'s plugin headers build cuemu's GCC plugin (GPU semantics of shifts and
# float-to-integer conversions in device code); the package is named after
# the major version of Debian's g++.
gxx_major=$(g++ -dumpversion 2>/dev/null ||
  apt-cache depends g++ 2>/dev/null | sed -n 's/.*Depends: g++-\([0-9][0-9]*\).*/\1/p' | head -n 1)
packages="$packages gcc-${gxx_major%%.*}-plugin-dev"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  if [ "$(id -u)" != 0 ]; then
    echo "setup: run as root (or install$missing yourself)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi

# The Python that configure will use ($PYTHON, else python3 on the PATH)
# needs NumPy, pytest and pytest-xdist, and SciPy, which the fake CuPy's
# cupyx.scipy (ndimage, signal, special, ...) delegates to: public CuPy code
# imports those modules, and without SciPy the import fails. They come from
# PyPI with pip when missing.
python=${PYTHON:-python3}
if ! "$python" -c 'import numpy, scipy, pytest, xdist' >/dev/null 2>&1; then
  echo "setup: installing numpy, scipy, pytest and pytest-xdist for $python"
  "$python" -m pip install -q numpy scipy pytest pytest-xdist ||
    "$python" -m pip install -q --break-system-packages numpy scipy pytest \
      pytest-xdist
fi

# The CUDA toolkit is optional: with it, the tests also compile every test
# kernel with nvcc.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: using nvcc from /usr/local/cuda/bin"
fi

if [ ! -f Makefile ]; then
  autoreconf -fi
  ./configure
fi
make -j"$(nproc)"
echo "setup: set-up and build took $(($(date +%s) - setup_started)) s"
