#!/bin/sh
# programs_trialopts.sh: build-system and command-line habits of real
# projects (tests/programs/trialopts/), each built with cuemu-nvcc and run:
# - visibility/: a .cu file's host function exported with
#   __attribute__((visibility("default"))) (a shared library's export
#   macro), built into a -shared library under -Xcompiler
#   -fvisibility=hidden and into a program; cuemu-nvcc -c said "multiple
#   definition" before (the device pass's copy of the host function stayed
#   global). The library exports what nvcc's exports: the two names.
# - cmake_mix/: CMake with CUDA_SEPARABLE_COMPILATION, CUDA_RESOLVE_DEVICE_
#   SYMBOLS, an OBJECT library, a SHARED library with a kernel and
#   CUDA_VISIBILITY_PRESET hidden, CUDA::cudart_static and
#   CMAKE_CUDA_ARCHITECTURES "80-real;90-virtual", with Ninja where present.
# - meson/: Meson's cuda language, with the cuemu toolkit's bin/nvcc as the
#   CUDA compiler (a native file): its sanity check runs `nvcc --run
#   "\"PATH\""`, a quoted path that nvcc's shell unquotes (refused before:
#   "Don't know what to do with"), and it reads the version after the last
#   V of `nvcc --version` (cuemu's last line said "NVIDIA": no -gencode
#   flags); main.c, C that includes cuda_runtime.h, compiles against the
#   toolkit's headers. Skipped without meson and ninja.
# - -G with -lineinfo: nvcc's warning ("'--device-debug (-G)' overrides
#   '--generate-line-info (-lineinfo)'") and ptxas's ("Conflicting options
#   --device-debug and --generate-line-info specified", once for each
#   sm_XY compiled: it was missing, the trial of CFD solvers found), and
#   with -Werror all-warnings a compile that fails, as ptxas refuses the
#   two (cuemu-nvcc was silent).
# - -time FILE: nvcc's CSV table of phase times, appended (the headings
#   once), one row per compiled input, the link, and the driver's row
#   (cuemu-nvcc wrote nothing before).
# With nvcc present, each builds with nvcc too. Run by `make check` with
# AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
[ -x "$nvcc" ] || tool_missing programs_trialopts.sh "$nvcc is not built"
d=$srcdir/tests/programs/trialopts
work=$builddir/tests/tmp/programs_trialopts.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
real=$(find_nvcc 2>/dev/null)
[ -n "${CUEMU_SKIP_NVCC:-}" ] && real=

# visibility/
v=$d/visibility
step vis-shared "$nvcc" -Xcompiler -fvisibility=hidden -shared -o libvis.so \
  "$v/lib.cu" &&
  step vis-main "$nvcc" -o vis_main "$v/main.cpp" -L. -lvis \
    "-Xlinker=-rpath=$work" &&
  passes "visibility: an exported host function of a .cu file in a -shared library" ./vis_main &&
  exports=$(nm -D --defined-only "$work/libvis.so" |
    awk '$2 ~ /[TBD]/ {print $3}' | grep -v '^_init$\|^_fini$' | sort | tr '\n' ' ') &&
  if [ "$exports" = "_Z15lib_sum_squaresi lib_launches " ]; then
    echo "PASS: visibility: the library exports the two names of its API, as nvcc's does"
  else
    fail "visibility: libvis.so exports: $exports"
  fi
step vis-program "$nvcc" -o vis_program "$v/main.cpp" "$v/lib.cu" &&
  passes "visibility: the same files as one program" ./vis_program
if [ -n "$real" ]; then
  step vis-nvcc nvcc_build programs_trialopts.sh:vis "$real" -arch=sm_90 \
    -Xcompiler -fvisibility=hidden -Xcompiler -fPIC -shared \
    -o libvis_nvcc.so "$v/lib.cu" &&
    echo "PASS: visibility: nvcc builds the library"
fi

# cmake_mix/
if command -v cmake >/dev/null 2>&1; then
  gen="Unix Makefiles"
  command -v ninja >/dev/null 2>&1 && gen=Ninja
  step cmake-configure cmake -S "$d/cmake_mix" -B mix -G "$gen" \
    -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_CUDA_ARCHITECTURES=80-real;90-virtual" &&
    step cmake-build cmake --build mix &&
    passes "cmake_mix ($gen): separable compilation, OBJECT and SHARED libraries, cudart_static" ./mix/mix
  if [ -n "$real" ]; then
    step cmake-nvcc-build nvcc_build programs_trialopts.sh:cmake_mix \
      sh -c 'cmake -S "$1" -B mix_nvcc -G "$2" -DCMAKE_CUDA_COMPILER="$3" \
        "-DCMAKE_CUDA_ARCHITECTURES=80-real;90-virtual" &&
        cmake --build mix_nvcc' sh "$d/cmake_mix" "$gen" "$real" &&
      echo "PASS: nvcc builds cmake_mix"
  fi
else
  echo "cmake is not installed: cmake_mix skipped"
fi

# -time FILE, as nvcc writes it: appended, headings once, 8 fields a row.
step time-compile "$nvcc" -c "$v/lib.cu" -o lib_time.o -time times.csv &&
  step time-link "$nvcc" -o time_prog "$v/main.cpp" lib_time.o \
    -time times.csv &&
  if [ "$(grep -c '^source file name , phase name' "$work/times.csv")" = 1 ] &&
    grep -q "lib.cu , cuemu-cc (device and host passes) , .*lib.cu  , lib_time.o , compute_90 , nvcc , [0-9.]* , ms$" "$work/times.csv" &&
    grep -q "main.cpp , g++ (compiling) , " "$work/times.csv" &&
    grep -q " , gcc (linking) , .* , time_prog , " "$work/times.csv" &&
    [ "$(grep -c ' , nvcc (driver) , ' "$work/times.csv")" = 2 ] &&
    [ "$(awk -F' , ' '!/^source file name/ && NF != 8' "$work/times.csv" | wc -l)" = 0 ]; then
    echo "PASS: -time FILE: nvcc's table, appended by two commands"
  else
    fail "-time FILE:"
    sed 's/^/  | /' "$work/times.csv"
  fi

# -G with -lineinfo: nvcc's warning, and ptxas's for each real
# architecture of a compile of device code (two -gencode: two; -E, -w and
# -Xptxas -w: none); with -Werror all-warnings, an error.
ptxas_conflict='^ptxas warning : Conflicting options --device-debug and --generate-line-info specified, ignoring --generate-line-info option$'
if (cd "$work" && "$nvcc" -G -lineinfo -c "$v/lib.cu" -o lib_g.o) \
  >"$work/g-lineinfo.log" 2>&1 &&
  grep -q "warning : '--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'" \
    "$work/g-lineinfo.log" &&
  [ "$(grep -c "$ptxas_conflict" "$work/g-lineinfo.log")" = 1 ] &&
  (cd "$work" && "$nvcc" -G -lineinfo -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code=sm_90 -c "$v/lib.cu" -o lib_g3.o) \
    >"$work/g-lineinfo2.log" 2>&1 &&
  [ "$(grep -c "$ptxas_conflict" "$work/g-lineinfo2.log")" = 2 ] &&
  (cd "$work" && "$nvcc" -G -lineinfo -E "$v/lib.cu" -o lib_g.ii) \
    >"$work/g-lineinfo3.log" 2>&1 &&
  ! grep -q "$ptxas_conflict" "$work/g-lineinfo3.log" &&
  (cd "$work" && "$nvcc" -G -lineinfo -w -c "$v/lib.cu" -o lib_g4.o &&
    "$nvcc" -G -lineinfo -Xptxas -w -c "$v/lib.cu" -o lib_g5.o) \
    >"$work/g-lineinfo4.log" 2>&1 &&
  ! grep -q "$ptxas_conflict" "$work/g-lineinfo4.log"; then
  echo "PASS: -G -lineinfo: nvcc's and ptxas's warnings, and the compile works"
else
  fail "-G -lineinfo: $(cat "$work/g-lineinfo.log" "$work/g-lineinfo2.log" \
    "$work/g-lineinfo3.log" "$work/g-lineinfo4.log" 2>/dev/null)"
fi
if (cd "$work" && "$nvcc" -G -lineinfo -Werror all-warnings -c "$v/lib.cu" \
  -o lib_g2.o) >"$work/g-werror.log" 2>&1; then
  fail "-G -lineinfo -Werror all-warnings compiled (nvcc's ptxas refuses it)"
elif grep -q 'Conflicting options --device-debug and --generate-line-info' \
  "$work/g-werror.log"; then
  echo "PASS: -G -lineinfo -Werror all-warnings fails, as with nvcc"
else
  fail "-G -lineinfo -Werror all-warnings: $(cat "$work/g-werror.log")"
fi

# -run of a quoted path, as nvcc's shell takes it, and --version's last V.
printf '#!/bin/sh\necho "ran $# $*"\n' >"$work/prog.sh" && chmod +x "$work/prog.sh"
if out=$(cd "$work" && "$nvcc" --run '"./prog.sh"' --run-args 'a b,c' 2>&1) &&
  [ "$out" = "ran 3 a b c" ]; then
  echo "PASS: --run \"\\\"./prog.sh\\\"\" runs it with its 3 arguments, as nvcc does"
else
  fail "--run of a quoted path: $out"
fi
version=$("$nvcc" --version | sed -n 's/.*V//p' | tail -n 1)
if [ "$version" = "13.0.88" ]; then
  echo "PASS: the text after --version's last V is 13.0.88 (Meson's reading)"
else
  fail "--version: after the last V: '$version'"
fi

# meson/
if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
  toolkit=$builddir/.libs/cuemu-toolkit
  printf "[binaries]\ncuda = '%s'\n" "$toolkit/bin/nvcc" >"$work/cuemu.ini"
  step meson-setup env CUDA_PATH="$toolkit" meson setup meson_build \
    "$d/meson" --native-file cuemu.ini &&
    step meson-build ninja -C meson_build &&
    if grep -q 'gencode arch=compute_90' "$work/meson-build.log" ||
      ninja -C "$work/meson_build" -t commands | grep -q 'arch=compute_90'; then
      passes "meson: a C main and a CUDA static library" ./meson_build/meson_app
    else
      fail "meson: no -gencode flags from nvcc_arch_flags"
    fi
  if [ -n "$real" ]; then
    printf "[binaries]\ncuda = '%s'\n" "$real" >"$work/nvcc.ini"
    step meson-nvcc-build nvcc_build programs_trialopts.sh:meson sh -c \
      'meson setup meson_nvcc "$1" --native-file nvcc.ini &&
       ninja -C meson_nvcc' sh "$d/meson" "$real" &&
      echo "PASS: nvcc builds the Meson project"
  fi
else
  echo "meson or ninja is not installed: the Meson project skipped"
fi

exit $failed
