#!/bin/sh
# driver.sh: cuemu-nvcc as a drop-in for nvcc (issue 13): programs of
# several files (.cu, .cpp, .c) built in one command and file by file,
# relocatable device code (-rdc=true; -dc, -dlink and a -lib archive), nvcc's
# options and errors, an error in a header named by its file and line, a
# plain Makefile project (NVCC=cuemu-nvcc) and a CMake project
# (CMAKE_CUDA_COMPILER=cuemu-nvcc). Each program checks itself and prints
# PASS. With nvcc present, the multi-file sources also compile with it.
# Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
nvcc=$(cd "$builddir" && pwd)/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing driver.sh "$nvcc is not built"

work=$(cd "$builddir" && pwd)/tests/tmp/driver.$$
mkdir -p "$work" || exit 1
failed=0



m=$srcdir/tests/driver/multi
r=$srcdir/tests/driver/rdc

# ---- Several files in one command, and file by file ----------------------------
# No options, as cuemu-run builds them: the compile cache gives each file's
# object to the compiles file by file and to cuemu-run (a whole compile of
# these files is the one command's). nvcc's options are tested below.
step multi-one "$nvcc" -o multi1 "$m/main.cu" "$m/kernels.cu" \
  "$m/gold.cpp" "$m/util.c" && passes "multi-file program, one command" ./multi1
step multi-c1 "$nvcc" -c "$m/main.cu" &&
  step multi-c2 "$nvcc" -c -o kernels.o "$m/kernels.cu" &&
  step multi-c3 "$nvcc" -c "$m/gold.cpp" &&
  step multi-c4 "$nvcc" -c "$m/util.c" &&
  step multi-link "$nvcc" -o multi2 main.o kernels.o gold.o \
    util.o &&
  passes "multi-file program, compiled file by file" ./multi2
run=$(cd "$builddir" && pwd)/cuemu-run
if [ -x "$run" ] && "$run" "$m/main.cu" "$m/kernels.cu" "$m/gold.cpp" \
  "$m/util.c" >"$work/run.log" 2>&1 && grep -qx PASS "$work/run.log"; then
  echo "PASS: cuemu-run with several sources"
else
  fail "cuemu-run with several sources: $(cat "$work/run.log")"
fi
step multi-x "$nvcc" -x cu -c -o gold_as_cu.o "$m/gold.cpp" ||
  fail "-x cu: a .cpp file compiled as CUDA"

# ---- Relocatable device code ------------------------------------------------------
step rdc-one "$nvcc" -rdc=true -o rdc1 "$r/use.cu" "$r/dev.cu" &&
  passes "-rdc=true program" ./rdc1
step rdc-dc1 "$nvcc" -dc "$r/use.cu" -o use.o &&
  step rdc-dc2 "$nvcc" --relocatable-device-code=true -c "$r/dev.cu" \
    -o dev.o &&
  step rdc-dlink "$nvcc" -dlink use.o dev.o -o dlink.o &&
  step rdc-link "$nvcc" use.o dev.o dlink.o -o rdc2 &&
  passes "-dc objects, a device link and a link" ./rdc2
step rdc-lib "$nvcc" -lib dev.o -o libdev.a &&
  step rdc-lib-link "$nvcc" -o rdc3 use.o -L. -ldev &&
  passes "-lib archive of device code" ./rdc3

# ---- nvcc's options ---------------------------------------------------------------
if "$nvcc" --version | grep -q "Cuda compilation tools, release 13.0"; then
  echo "PASS: --version"
else
  fail "--version does not say nvcc's release"
fi
if "$nvcc" --frobnicate "$m/util.c" >"$work/unknown.log" 2>&1; then
  fail "an unknown option is accepted"
elif grep -q "Unknown option '--frobnicate'" "$work/unknown.log"; then
  echo "PASS: an unknown option is nvcc's error"
else
  fail "unknown option: $(cat "$work/unknown.log")"
fi
# Counts (-O, -t), as nvcc 13 reads them: glued, apart or after `=`, in C's
# notation; a word or a negative number is nvcc's error.
counts_ok=1
for o in -t4 -t0 "-t 2" --threads=1 -O3 "-O 0x3" --optimize=2; do
  # shellcheck disable=SC2086 # each case is one or two words
  "$nvcc" $o -c "$m/util.c" -o count.o >"$work/count.log" 2>&1 ||
    { counts_ok=0; fail "$o is refused: $(cat "$work/count.log")"; }
done
for o in "-Os|'s': expected a number" "-tfoo|'foo': expected a number" \
  "-t -1|Argument for --threads (-t) must be non-negative" \
  "-O -1|Argument for --optimize (-O) must be non-negative"; do
  # shellcheck disable=SC2086
  if "$nvcc" ${o%%|*} -c "$m/util.c" -o count.o >"$work/count.log" 2>&1 ||
    ! grep -qF "fatal   : ${o#*|}" "$work/count.log"; then
    counts_ok=0
    fail "${o%%|*}: $(cat "$work/count.log")"
  fi
done
[ $counts_ok = 1 ] && echo "PASS: -O and -t take counts as nvcc does"
if "$nvcc" -std=c++14 -c "$m/kernels.cu" -o std.o >"$work/std.log" 2>&1 &&
  ! grep -q "note" "$work/std.log" &&
  "$nvcc" -std=c++11 -c "$m/kernels.cu" -o std.o >"$work/std11.log" 2>&1 &&
  grep -q "note: -std=c++11 is compiled as C++14" "$work/std11.log"; then
  echo "PASS: -std=c++14 is compiled as C++14; -std=c++11 too, with a note"
else
  fail "-std=c++14: $(cat "$work/std.log" "$work/std11.log")"
fi
# A Makefile passes its compile flags to the link as well: a link of objects
# with -std=c++11 compiles nothing, so nothing is compiled as C++14 and no
# note is given (nvcc says nothing either).
if (cd "$work" && "$nvcc" -std=c++11 -o std_link main.o kernels.o gold.o \
  util.o) >"$work/std_link.log" 2>&1 && ! grep -q "note" "$work/std_link.log" &&
  (cd "$work" && ./std_link) >/dev/null 2>&1; then
  echo "PASS: a link with -std=c++11 gives no note about the dialect"
else
  fail "-std=c++11 link: $(cat "$work/std_link.log")"
fi
# The forced includes in the order nvcc reads them (nvcc --dryrun: the
# headers of -Xcompiler -include, then cuda_runtime.h, then those of its
# own -include, wherever each stands), cuemu's old-dialect header first.
forced=$("$nvcc" --dryrun -E -include u.h -Xcompiler -include,x.h -std=c++11 \
  "$m/kernels.cu" 2>&1 | tr ' ' '\n' | awk '
  p { sub(".*/", ""); printf "%s ", $0; p = 0; next }
  $0 == "-include" { p = 1; next }
  /^-include./ { sub("^-include", ""); sub(".*/", ""); printf "%s ", $0 }')
if [ "$forced" = "cuemu_old_dialect.h x.h cuda_runtime.h u.h " ]; then
  echo "PASS: forced includes in nvcc's order"
else
  fail "forced includes in the order: $forced"
fi
# A -I that names a CUDA toolkit's include folder keeps its place, as with
# nvcc: -M lists the headers found there (not a system folder).
th=$srcdir/tests/programs/trialhec
if (cd "$th" && "$nvcc" -MM -Itoolkit_include -Iproject_include \
  toolkit_include_path.cu) >"$work/mm.log" 2>&1 &&
  grep -q "toolkit_include/toolkit_only.h" "$work/mm.log"; then
  echo "PASS: -M lists the headers of the toolkit's include folder"
else
  fail "-M with the toolkit's include folder: $(cat "$work/mm.log")"
fi
if "$nvcc" -std=c++9 -c "$m/kernels.cu" -o std.o >"$work/std.log" 2>&1; then
  fail "-std=c++9 is accepted"
elif grep -q "Value 'c++9' is not defined for option 'std'" "$work/std.log"; then
  echo "PASS: an unknown -std is nvcc's error"
else
  fail "-std=c++9: $(cat "$work/std.log")"
fi
# Architecture names are nvcc 13's: an older or misspelt one is nvcc's
# error (CMake's CMAKE_CUDA_ARCHITECTURES=sm_80 makes "compute_sm_80").
for bad in sm_60 sm_89a compute_sm_80 "sm_80,sm_90"; do
  if "$nvcc" -arch="$bad" -c "$m/kernels.cu" -o arch.o >"$work/arch.log" 2>&1; then
    fail "-arch=$bad is accepted"
  elif ! grep -q "Unsupported gpu architecture '$bad'" "$work/arch.log"; then
    fail "-arch=$bad: $(cat "$work/arch.log")"
  fi
done
if "$nvcc" -gencode "arch=compute_90,code=[sm_90,sm_91]" -c "$m/kernels.cu" \
  -o arch.o >"$work/arch.log" 2>&1; then
  fail "-gencode code=sm_91 is accepted"
elif grep -q "Unsupported gpu architecture 'sm_91'" "$work/arch.log"; then
  echo "PASS: unknown architectures are nvcc's error"
else
  fail "-gencode code=sm_91: $(cat "$work/arch.log")"
fi
# nvcc checks -arch's value after the command line, and only the last -arch's:
# a Makefile's default -arch=sm_35 followed by the user's -arch=sm_90 builds,
# with nvcc's warning. A -code value is checked as the option's, at once, so
# that an unknown one is its error even after an unknown -arch, and so is an
# unknown -std after one (each message is nvcc 13's).
if "$nvcc" --dryrun -arch=sm_35 -arch=sm_90 -c "$m/kernels.cu" -o arch.o \
  >"$work/arch.log" 2>&1 &&
  grep -q "incompatible redefinition for option 'gpu-architecture'" \
    "$work/arch.log"; then
  echo "PASS: only the last -arch's value is checked"
else
  fail "-arch=sm_35 -arch=sm_90: $(cat "$work/arch.log")"
fi
for args in "-arch=compute_90 -code=sm_90,sm_52|gpu-code|sm_52" \
  "-arch=sm_35 -code=sm_35|gpu-code|sm_35" "-arch=foo -std=c++99|std|c++99"; do
  flags=$(echo "$args" | cut -d'|' -f1)
  option=$(echo "$args" | cut -d'|' -f2)
  value=$(echo "$args" | cut -d'|' -f3)
  if "$nvcc" --dryrun $flags -c "$m/kernels.cu" -o arch.o \
    >"$work/arch.log" 2>&1; then
    fail "$flags is accepted"
  elif ! grep -q "fatal   : Value '$value' is not defined for option '$option'" \
    "$work/arch.log"; then
    fail "$flags: $(cat "$work/arch.log")"
  else
    echo "PASS: $flags is nvcc's error of option '$option'"
  fi
done
step options "$nvcc" -c -O3 -g -G -lineinfo --use_fast_math \
  --expt-relaxed-constexpr --expt-extended-lambda -w -Xptxas -v \
  -gencode arch=compute_90,code=sm_90 -Xcompiler -fno-strict-aliasing,-Wall \
  -DFROM_OPTIONS=1 -I"$m" -isystem "$m" -ccbin c++ -o options.o \
  "$m/kernels.cu" &&
  grep -q "^ptxas info    : Used " "$work/options.log" &&
  echo "PASS: nvcc's compile options (-Xptxas -v prints the kernels' resources)"
step deps "$nvcc" -M -MT target.o "$m/main.cu" &&
  grep -q "^target.o:" "$work/deps.log" && grep -q "vec.cuh" "$work/deps.log" &&
  echo "PASS: -M"
step md "$nvcc" -c -MD -MF md.d -o md.o "$m/main.cu" &&
  grep -q "^md.o:" "$work/md.d" && grep -q "vec.cuh" "$work/md.d" &&
  echo "PASS: -MD -MF"

# ---- The architecture built for, in cudaFuncAttributes -----------------------------
a=$srcdir/tests/driver/arch
step arch-c "$nvcc" -arch=sm_80 -DBUILT_ARCH=80 -c -o built_arch.o \
  "$a/built_arch.cu" && step arch-link "$nvcc" -o built_arch built_arch.o && {
  (cd "$work" && CUEMU_DEVICE=sm=80 ./built_arch 80) >"$work/arch80.out" 2>&1 &&
    (cd "$work" && CUEMU_DEVICE=sm=90 ./built_arch 90) >"$work/arch90.out" 2>&1 &&
    echo "PASS: -arch=sm_80 gives ptxVersion 80 (binaryVersion 80 on sm_80, 90 on sm_90)" ||
    fail "-arch=sm_80 in cudaFuncAttributes: $(cat "$work"/arch*.out)"
}

# ---- -M and -E see nvcc's two passes ----------------------------------------------
dp=$srcdir/tests/driver/deps
user_headers() { grep -o '/[a-z_]*\.c*u*h' "$1" | tr -d / | grep -x 'common.h\|device_side.cuh\|host_side.h' | tr '\n' ' '; }
step deps-two "$nvcc" -M "$dp/passes.cu" &&
  step deps-two-md "$nvcc" -c -MD -MF passes.d -o passes.o "$dp/passes.cu" &&
  step deps-two-e "$nvcc" -E -o passes.ii "$dp/passes.cu" &&
  if [ "$(user_headers "$work/deps-two.log")" = "common.h device_side.cuh host_side.h " ] &&
    [ "$(user_headers "$work/passes.d")" = "common.h device_side.cuh host_side.h " ] &&
    grep -q device_side_marker "$work/passes.ii" &&
    ! grep -q host_side_marker "$work/passes.ii"; then
    echo "PASS: -M and -MD list both passes' headers, -E shows the device pass"
  else
    fail "-M/-MD/-E and the two passes: $(user_headers "$work/deps-two.log") / $(user_headers "$work/passes.d")"
  fi
# nvcc's -M lists the same headers (an nvcc_build, tests/test_tools.sh:
# run unless tests/nvcc_builds.txt records this verdict on these bytes).
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  (cd "$work" && nvcc_build driver.sh:nvcc-deps-two-passes sh -c \
    '[ "$("$@" 2>&1 | grep -o "/[a-z_]*\.c*u*h" | tr -d / | grep -x "common.h\|device_side.cuh\|host_side.h" | tr "\n" " ")" = "common.h device_side.cuh host_side.h " ]' \
    sh "$real" -M "$dp/passes.cu") >"$work/nvcc-deps.log" 2>&1 ||
    fail "nvcc -M lists other headers than common.h device_side.cuh host_side.h"
fi

# ---- A shared library of kernels and an application -------------------------------
# As a Makefile builds them: the library in one command and from an object,
# the application from its .cu (one command, and -c then a link). The
# application launches the library's kernel, which nvcc allows only with
# -device-entity-has-hidden-visibility=false (kernels are hidden by
# default): without it, the application's link fails, as with nvcc.
sl=$srcdir/tests/driver/shared
hidden=-device-entity-has-hidden-visibility=false
mkdir -p "$work/so0"
step so-hidden "$nvcc" -shared -Xcompiler -fPIC -o so0/libvecops.so "$sl/vecops.cu" &&
  if (cd "$work" && "$nvcc" -o so0/app "$sl/app.cu" -Lso0 -lvecops) \
    >"$work/so0.log" 2>&1; then
    fail "an application links to a shared library's hidden kernel"
  elif grep -q "undefined reference to .vec_scale" "$work/so0.log"; then
    echo "PASS: a shared library's kernels are hidden, as nvcc's"
  else
    fail "hidden kernel of a shared library: $(cat "$work/so0.log")"
  fi
step so-one "$nvcc" -shared -Xcompiler -fPIC $hidden -o libvecops.so "$sl/vecops.cu" &&
  step so-app "$nvcc" -o so_app "$sl/app.cu" -L. -lvecops &&
  (cd "$work" && LD_LIBRARY_PATH=.${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    ./so_app) >"$work/so_app.out" 2>&1 && grep -qx PASS "$work/so_app.out" &&
  echo "PASS: a shared library of kernels (-shared -Xcompiler -fPIC)" ||
  fail "shared library, one command: $(cat "$work/so_app.out" 2>/dev/null)"
mkdir -p "$work/so2"
step so-c "$nvcc" -c -Xcompiler -fPIC $hidden -o so2/vecops.o "$sl/vecops.cu" &&
  step so-link "$nvcc" -shared -o so2/libvecops.so so2/vecops.o &&
  step so-app-c "$nvcc" -c -o so2/app.o "$sl/app.cu" &&
  step so-app-link "$nvcc" -o so2/app so2/app.o -Lso2 -lvecops &&
  (cd "$work/so2" && LD_LIBRARY_PATH=.${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    ./app) >"$work/so_app2.out" 2>&1 && grep -qx PASS "$work/so_app2.out" &&
  echo "PASS: a shared library of kernels (-c, then -shared)" ||
  fail "shared library from an object: $(cat "$work/so_app2.out" 2>/dev/null)"

# ---- A shared library of relocatable device code ---------------------------------
# -shared with -rdc=true (the device link is the library's own, as nvcc
# makes it), in one command and from -dc objects with a -dlink object, as
# CMake builds a SHARED library with CUDA_SEPARABLE_COMPILATION; the
# application is whole-program and relocatable.
sr=$srcdir/tests/driver/shared_rdc
mkdir -p "$work/sr1" "$work/sr2"
step sr-one "$nvcc" -shared -rdc=true -Xcompiler -fPIC $hidden \
  -o sr1/libops.so "$sr/dev.cu" "$sr/kern.cu" &&
  step sr-app "$nvcc" -o sr1/app "$sr/app.cu" -Lsr1 -lops &&
  step sr-app-rdc "$nvcc" -rdc=true -o sr1/app_rdc "$sr/app.cu" -Lsr1 -lops &&
  (cd "$work/sr1" && LD_LIBRARY_PATH=. ./app && LD_LIBRARY_PATH=. ./app_rdc) \
    >"$work/sr1.out" 2>&1 && [ "$(grep -cx PASS "$work/sr1.out")" = 2 ] &&
  echo "PASS: -shared -rdc=true, one command" ||
  fail "-shared -rdc=true: $(cat "$work/sr1.out" 2>/dev/null)"
step sr-dc "$nvcc" -dc -Xcompiler -fPIC $hidden "$sr/dev.cu" "$sr/kern.cu" \
  -odir sr2 &&
  step sr-dlink "$nvcc" -dlink -Xcompiler -fPIC -o sr2/dlink.o sr2/dev.o sr2/kern.o &&
  step sr-so "$nvcc" -shared -o sr2/libops.so sr2/dev.o sr2/kern.o sr2/dlink.o &&
  step sr-app2 "$nvcc" -o sr2/app "$sr/app.cu" -Lsr2 -lops &&
  (cd "$work/sr2" && LD_LIBRARY_PATH=. ./app) >"$work/sr2.out" 2>&1 &&
  grep -qx PASS "$work/sr2.out" &&
  echo "PASS: -shared from -dc objects and a -dlink object" ||
  fail "-shared from -dc objects: $(cat "$work/sr2.out" 2>/dev/null)"

# ---- A construct cuemu cannot translate, in a header ---------------------------------
e=$srcdir/tests/driver/errors
if "$nvcc" -o bad "$e/bad_launch.cu" >"$work/bad.log" 2>&1; then
  fail "a malformed launch in a header compiles"
elif grep -q "bad_launch.cuh:3: unterminated kernel launch" "$work/bad.log" &&
  ! grep -q "cuda_builtins" "$work/bad.log"; then
  echo "PASS: an error in a header names the header's line"
else
  fail "malformed launch: $(cat "$work/bad.log")"
fi

# ---- A host function that ends the process, called in a kernel -------------------------
if "$nvcc" -o host_call "$e/host_call.cu" >"$work/host_call.log" 2>&1; then
  fail "a kernel that calls exit() compiles"
elif grep -q 'host_call.cu:6: calling a __host__ function("exit") from a __global__ function is not allowed' \
  "$work/host_call.log"; then
  echo "PASS: exit() in a kernel is refused as nvcc refuses it"
else
  fail "exit() in a kernel: $(cat "$work/host_call.log")"
fi
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && ! (cd "$work" && nvcc_build driver.sh:nvcc-refuses-exit-in-kernel \
  sh -c '! "$@"' sh "$real" -c -o /dev/null "$e/host_call.cu") >/dev/null 2>&1; then
  fail "nvcc accepts tests/driver/errors/host_call.cu: the test is wrong"
fi

# ---- A plain Makefile project --------------------------------------------------------
mkdir -p "$work/make"
cp "$srcdir"/tests/driver/make/* "$work/make/"
if command -v make >/dev/null 2>&1; then
  step make-project make -C make NVCC="$nvcc" test &&
    echo "PASS: Makefile project (NVCC=cuemu-nvcc)"
fi

# ---- A Makefile written for CUDA_PATH -----------------------------------------------
# The CUDA samples' way: $(CUDA_PATH)/bin/nvcc, -I$(CUDA_PATH)/include and
# -L$(CUDA_PATH)/lib64 -lcudart with a final link by g++; only CUDA_PATH
# changes (cuemu-toolkit beside libcuemu), and the program runs without
# LD_LIBRARY_PATH.
mkdir -p "$work/cuda_path"
cp "$srcdir"/tests/driver/cuda_path/* "$work/cuda_path/"
if command -v make >/dev/null 2>&1; then
  step cuda-path env -u LD_LIBRARY_PATH make -C cuda_path \
    CUDA_PATH="$CUEMU_LIB_DIR/cuemu-toolkit" test &&
    grep -q "^PASS" "$work/cuda-path.log" &&
    echo "PASS: Makefile project (CUDA_PATH=cuemu-toolkit, linked by g++ with -lcudart)" ||
    fail "CUDA_PATH Makefile: $(tail -5 "$work/cuda-path.log")"
fi

# ---- A CMake project -------------------------------------------------------------------
if command -v cmake >/dev/null 2>&1; then
  step cmake-configure cmake -S "$srcdir/tests/driver/cmake" -B cmake \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_BUILD_TYPE=Release &&
    step cmake-build cmake --build cmake &&
    step cmake-test env -u LD_LIBRARY_PATH \
      ctest --test-dir cmake --output-on-failure &&
    echo "PASS: CMake project (CMAKE_CUDA_COMPILER=cuemu-nvcc), linked as CUDA, as C++, from a resolved static library and to a shared library, a driver-API program with CUDA::cuda_driver, run without LD_LIBRARY_PATH"
  # find_package(CUDAToolkit) and CUDA::cudart, as HeCBench's CMake uses them.
  step cmake-toolkit-configure cmake -S "$srcdir/tests/driver/cmake_toolkit" \
    -B cmake_toolkit -DCMAKE_CUDA_COMPILER="$nvcc" &&
    step cmake-toolkit-build cmake --build cmake_toolkit &&
    step cmake-toolkit-test env -u LD_LIBRARY_PATH \
      ctest --test-dir cmake_toolkit --output-on-failure &&
    echo "PASS: CMake project with find_package(CUDAToolkit) and CUDA::cudart"
else
  fail "cmake is not installed (scripts/setup.sh installs it)"
fi

# ---- The same sources with nvcc ----------------------------------------------------------
real=$(find_nvcc 2>/dev/null)
if [ -n "$real" ] && [ -z "${CUEMU_SKIP_NVCC:-}" ]; then
  for f in "$m/main.cu" "$m/kernels.cu" "$srcdir/tests/driver/cmake/main.cu" \
    "$srcdir/tests/driver/arch/built_arch.cu" \
    "$sl/vecops.cu" "$sl/app.cu" \
    "$srcdir/tests/driver/cmake/histogram.cu" "$srcdir/tests/driver/cmake/checks.cu" \
    "$srcdir/tests/driver/cmake_toolkit/saxpy.cu"; do
    step "nvcc-$(basename "$f")" nvcc_build \
      "driver.sh:$(basename "$(dirname "$f")")-$(basename "$f")" timeout 600 "$real" -std=c++17 -arch=sm_90 -c "$f" -o /dev/null
  done
  for f in "$r/use.cu" "$r/dev.cu" "$sr/dev.cu" "$sr/kern.cu"; do
    step "nvcc-dc-$(basename "$f")" nvcc_build \
      "driver.sh:dc-$(basename "$(dirname "$f")")-$(basename "$f")" \
      timeout 600 "$real" -std=c++17 -arch=sm_90 -dc "$f" -o /dev/null
  done
  step nvcc-sr-app nvcc_build driver.sh:sr-app timeout 600 "$real" \
    -std=c++17 -arch=sm_90 -c "$sr/app.cu" -o /dev/null
  [ "$failed" -eq 0 ] && echo "PASS: nvcc compiles the sources"
fi

rm -rf "$work"
echo "driver.sh: $failed failed"
[ "$failed" -eq 0 ]
