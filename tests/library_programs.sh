# Shared steps of the tests of cuemu's CUDA libraries (programs_cudalibs.sh,
# programs_cufft.sh, programs_cusolver.sh, programs_cusparse.sh), sourced
# after the wrapper sets srcdir. Each step takes the library by its link name (cufft) and
# its display name (cuFFT); failures go through test_tools.sh's fail.

. "$srcdir/tests/test_tools.sh"

# library_setup LIB NAME HEADER [FOLDER [ALONE]]: checks cuemu-nvcc and the
# toolkit's HEADER, builds and runs tests/programs/FOLDER (LIB by default)
# with programs.sh, its programs combined in one build but those that
# ALONE names (PROGRAMS_COMBINE and PROGRAMS_ALONE, programs.sh), and
# makes a work folder, where programs/NAME runs program NAME again
# (PROGRAMS_KEEP). Sets lib, lib_name, dir, builddir_abs, nvcc, toolkit,
# work and failed; exits 77 where a tool is missing.
library_setup() {
  lib=$1
  lib_name=$2
  folder=${4:-$1}
  alone=${5:-}
  builddir=${CUEMU_BUILDDIR:-.}
  dir=$srcdir/tests/programs/$folder
  builddir_abs=$(cd "$builddir" && pwd)
  nvcc=$builddir_abs/cuemu-nvcc
  [ -x "$nvcc" ] || tool_missing "programs_$folder.sh" "$nvcc is not built"
  # NVIDIA's header is the one programs include.
  toolkit=${CUDA_PATH:-/usr/local/cuda}
  if [ ! -f "$toolkit/include/$3" ]; then
    tool_missing "programs_$folder.sh" \
      "the CUDA toolkit's $3 is not in $toolkit/include"
  fi

  work=$builddir_abs/tests/tmp/programs_$folder.$$
  mkdir -p "$work" || exit 1
  PROGRAMS_COMBINE=1 PROGRAMS_ALONE=$alone PROGRAMS_KEEP=$work/programs \
    sh "$srcdir/tests/programs.sh" "$dir"
  status=$?
  if [ "$status" -eq 77 ]; then
    rm -rf "$work"
    exit 77
  fi
  failed=0
  [ "$status" -eq 0 ] || failed=1
}

# library_path_link SOURCE [LABEL]: the library a program links is
# cuemu's, also when NVIDIA's libLIB.so is named by its path; SOURCE
# prints PASS, and LABEL ("a program" by default) names it in messages.
library_path_link() {
  label=${2:-a program}
  if "$nvcc" "$1" -o "$work/version_cu" \
    "$toolkit/lib64/lib$lib.so" >"$work/build.log" 2>&1; then
    # cuemu-toolkit's lib64/lib$lib.so is a filter library of cuemu's
    # (emulator/libs/libs.am), which ldd lists beside it; NVIDIA's must not be.
    if ldd "$work/version_cu" | grep -q "libcuemu_$lib.so" &&
      ! ldd "$work/version_cu" | grep "lib$lib\\.so" | grep -vq "/cuemu-toolkit/lib64/lib$lib\\.so "; then
      echo "PASS: NVIDIA's lib$lib.so by its path links cuemu's $lib_name"
    else
      fail "NVIDIA's lib$lib.so by its path: $(ldd "$work/version_cu" | grep -i "$lib")"
    fi
    if "$work/version_cu" | grep -qx PASS; then
      echo "PASS: $label linked through the path runs"
    else
      fail "$label linked through the path: $("$work/version_cu" 2>&1 | head -5)"
    fi
  else
    fail "cuemu-nvcc with $toolkit/lib64/lib$lib.so: $(head -5 "$work/build.log")"
  fi
}

# library_host_link LINE...: the host compiler links the C program made of
# the LINEs (exiting 0 when the library answers) with the cuemu toolkit's
# lib64, where -lLIB is a linker script naming cuemu's library.
library_host_link() {
  lib64=$builddir_abs/.libs/cuemu-toolkit/lib64
  printf '%s\n' "$@" >"$work/version.c"
  if "${CC:-cc}" "$work/version.c" -o "$work/version" -L"$lib64" "-l$lib" \
    >"$work/cc.log" 2>&1 && "$work/version"; then
    echo "PASS: a host-compiler link with the cuemu toolkit's -l$lib runs"
  else
    fail "host-compiler link with -l$lib: $(head -3 "$work/cc.log")"
  fi
}

# library_cmake TARGET: the CMake project in tests/programs/LIB/cmake links
# CUDA::LIB from FindCUDAToolkit on the cuemu toolkit; TARGET prints PASS.
library_cmake() {
  if command -v cmake >/dev/null 2>&1; then
    cmake_build=$work/cmake
    if cmake -S "$dir/cmake" -B "$cmake_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
      -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/cmake.log" 2>&1 &&
      cmake --build "$cmake_build" >>"$work/cmake.log" 2>&1 &&
      "$cmake_build/$1" | grep -qx PASS; then
      echo "PASS: CMake's CUDA::$lib links cuemu's $lib_name"
    else
      fail "CMake with CUDA::$lib: $(tail -5 "$work/cmake.log")"
    fi
  else
    echo "SKIP: CMake: cmake is not installed"
  fi
}

# library_nvcc LABEL SOURCE OPTION...: one program of the folder, SOURCE,
# built with nvcc and the real toolkit's library (tests/nvcc_kernels.sh
# compiles every program with nvcc); LABEL names it in the messages.
library_nvcc() {
  label=$1
  source=$2
  shift 2
  NVCC=$(find_nvcc)
  if [ -n "$NVCC" ]; then
    if (cd "$dir" && nvcc_build "programs_$folder.sh:$label" "$NVCC" \
      -arch=sm_90 "$source" -o "$work/nv_program" "$@") >"$work/nv.log" 2>&1
    then
      echo "PASS: $label builds and links with nvcc and NVIDIA's $lib_name"
    else
      fail "$label with nvcc: $(head -5 "$work/nv.log")"
    fi
  else
    echo "SKIP: nvcc build: no nvcc"
  fi
}

# library_refused WHAT COMMAND...: the command must fail with one message
# naming WHAT (a library cuemu does not emulate) as not emulated.
library_refused() {
  what=$1
  shift
  if "$@" >"$work/refused.log" 2>&1; then
    fail "$what: the link succeeded"
  elif grep -q -e "$what.* is not emulated" "$work/refused.log"; then
    echo "PASS: $what is refused: $(grep -m1 'not emulated' "$work/refused.log" | cut -c1-90)..."
  else
    fail "$what: no message naming it as not emulated: $(head -3 "$work/refused.log")"
  fi
}

# library_finish: removes the work folder; the status says whether every
# step passed.
library_finish() {
  rm -rf "$work"
  [ "$failed" -eq 0 ]
}
