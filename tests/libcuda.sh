#!/bin/sh
# libcuda.sh: cuemu's libcuda.so.1 (emulator/export/libcuda.am) for
# programs that reach the driver by name or by -lcuda (issue 16). A module
# of `cuemu-nvcc -fatbin` is launched by
# - tests/driver/libcuda/load_driver.cu, which dlopens libcuda.so.1 and
#   finds its functions by dlsym and by cuGetProcAddress (both
#   signatures), built by cuemu-nvcc and run directly, and run by cuemu-run:
#   it must load cuemu's library (the path it prints);
# - tests/driver/libcuda/stringified_names.cu, which finds them as jitify
#   does: dlopen("libcuda.so"), dlsym of each name of cuda.h
#   macro-expanded and stringified (cuMemAlloc is cuMemAlloc_v2);
# - tests/driver/libcuda/link_driver.c, a C program calling the driver's
#   C symbols, linked with -lcuda by the host compiler against the cuemu
#   toolkit's lib64 (no run path) and by cuemu-nvcc;
# - tests/driver/libcuda/legacy_arrays.c, a C program calling CUDA 2.0's
#   un-suffixed array symbols (32-bit descriptors), linked with -lcuda;
# - tests/driver/libcuda/bindings_launch.py, cuda-python's cuda.bindings
#   with LD_LIBRARY_PATH naming cuemu-toolkit/compat, where the Python
#   has cuda.bindings.
# Another libcuda.so.1 in LD_LIBRARY_PATH does not replace cuemu's in a
# program cuemu linked (its run path is DT_RPATH).
# libcuda.so.1 exports every name that scripts/driver_entry_points.py
# lists, and only CUDA's names; each name of CUDA's is exported or
# documented as not provided (both checked against CUDA's stub library
# where the toolkit has one). A program that cuemu did not link (built by the
# host compiler) never gets cuemu's libcuda.so.1 from dlopen, and
# cuemu-parity's GPU leg still says "gpu: skipped" without a real driver
# (or runs on the real one). With nvcc present, the sources build with
# it. Run by `make check` with AM_TESTS_ENVIRONMENT.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
. "$srcdir/tests/test_tools.sh"
builddir=$(cd "$builddir" && pwd)
nvcc=$builddir/cuemu-nvcc
run=$builddir/cuemu-run
toolkit=$builddir/.libs/cuemu-toolkit
libcuda=$toolkit/compat/libcuda.so.1
[ -x "$nvcc" ] || tool_missing libcuda.sh "$nvcc is not built"
[ -f "$libcuda" ] || tool_missing libcuda.sh "$libcuda is not built"

work=$builddir/tests/tmp/libcuda.$$
mkdir -p "$work" || exit 1
d=$srcdir/tests/driver/libcuda
failed=0
cc=${CC:-cc}

# loads PROGRAM ARGS...: the program passes and says it loaded cuemu's
# library.
loads() {
  name=$1
  shift
  passes "$name" "$@" &&
    if grep -qx "libcuda: $libcuda" "$work/$name.out"; then
      echo "PASS: $name loaded $libcuda"
    else
      fail "$name did not load $libcuda:"
      sed 's/^/  | /' "$work/$name.out" | head -5
    fi
}

step fatbin "$nvcc" -fatbin -o kernels.fatbin "$d/kernels.cu" &&
  step load "$nvcc" -o load_driver "$d/load_driver.cu" &&
  loads "dlopen, dlsym and cuGetProcAddress (cuemu-nvcc)" \
    env CUEMU_QUIET=1 ./load_driver kernels.fatbin &&
  loads "dlopen, dlsym and cuGetProcAddress (cuemu-run)" \
    env CUEMU_QUIET=1 "$run" "$d/load_driver.cu" kernels.fatbin &&
  step names "$nvcc" -o stringified_names "$d/stringified_names.cu" &&
  passes "names stringified from cuda.h's macros, as jitify finds them" \
    env CUEMU_QUIET=1 ./stringified_names kernels.fatbin &&
  step link-host "$cc" -o link_host "$d/link_driver.c" \
    "-L$toolkit/lib64" -lcuda &&
  passes "C symbols by -lcuda, linked by the host compiler" \
    env CUEMU_QUIET=1 ./link_host kernels.fatbin &&
  step link-object "$cc" -c -o link_driver.o "$d/link_driver.c" &&
  step link-nvcc "$nvcc" -o link_nvcc link_driver.o -lcuda &&
  passes "C symbols by -lcuda, linked by cuemu-nvcc" \
    env CUEMU_QUIET=1 ./link_nvcc kernels.fatbin

# CUDA 2.0's array calls under their un-suffixed symbols, as a program built
# against an old cuda.h links them.
step legacy-arrays "$cc" -o legacy_arrays "$d/legacy_arrays.c" \
  "-L$toolkit/lib64" -lcuda &&
  passes "CUDA 2.0's un-suffixed array symbols by -lcuda" \
    env CUEMU_QUIET=1 ./legacy_arrays

# cuda-python's cuda.bindings, which loads libcuda.so.1 by name, where the
# Python has it (CUEMU_TEST_PYTHON names another Python).
py=${CUEMU_TEST_PYTHON:-${PYTHON:-python3}}
if [ -f "$work/kernels.fatbin" ] &&
  "$py" -c "import cuda.bindings.driver" >/dev/null 2>&1; then
  passes "cuda-python's cuda.bindings with LD_LIBRARY_PATH=compat" \
    env CUEMU_QUIET=1 "LD_LIBRARY_PATH=$toolkit/compat" "$py" \
    "$d/bindings_launch.py" kernels.fatbin
else
  echo "libcuda.sh: $py has no cuda.bindings: cuda-python's run is left out"
fi

# The exported names: the generated list (cuGetExportTable among them),
# cuGetProcAddress and nothing else; each one CUDA's libcuda has.
sed -n 's/^CUEMU_LIBCUDA_EXPORT(\([A-Za-z0-9_]*\),.*/\1/p' \
  "$srcdir/emulator/export/cuemu_libcuda_exports.h" >"$work/listed"
printf '%s\n' cuGetProcAddress cuGetProcAddress_v2 cuGetExportTable \
  >>"$work/listed"
sort -u "$work/listed" -o "$work/listed"
if nm -D --defined-only "$libcuda" | awk '{print $3}' | sort -u >"$work/exported"
then
  if cmp -s "$work/listed" "$work/exported"; then
    echo "PASS: libcuda.so.1 exports the $(wc -l <"$work/listed") listed names"
  else
    fail "libcuda.so.1's exports differ from the list:"
    diff "$work/listed" "$work/exported" | head -10 | sed 's/^/  | /'
  fi
  stub=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
  if [ -f "$stub" ]; then
    nm -D --defined-only "$stub" | awk '{print $3}' | sort -u >"$work/cuda"
    if [ -z "$(comm -23 "$work/exported" "$work/cuda")" ]; then
      echo "PASS: every name is one of CUDA's libcuda ($stub)"
    else
      fail "names CUDA's libcuda does not have:"
      comm -23 "$work/exported" "$work/cuda" | head -10 | sed 's/^/  | /'
    fi
    # And every name of CUDA's is exported, or is a function that
    # docs/runtime.md marks absent or refused (its symbol without the ABI
    # and stream suffixes), or is one of the ABI versions that
    # docs/driver-api.md lists as left out.
    sed -n '/^### Driver API/,/^### NVRTC/s/^| `\([A-Za-z0-9_]*\)` | \(absent\|refused\) |$/\1/p' \
      "$srcdir/docs/runtime.md" | sort -u >"$work/not_provided"
    sed -n '/BEGIN libcuda symbols left out/,/END libcuda symbols left out/p' \
      "$srcdir/docs/driver-api.md" | grep -o '`cu[A-Za-z0-9_]*`' |
      tr -d '`' | sort -u >"$work/left_out"
    comm -13 "$work/exported" "$work/cuda" | while read -r name; do
      base=$(printf '%s\n' "$name" | sed 's/_pt[sd][sz]$//; s/_v[0-9]*$//')
      grep -qx "$base" "$work/not_provided" ||
        grep -qx "$name" "$work/left_out" || echo "$name"
    done >"$work/unexplained"
    if [ -s "$work/not_provided" ] && [ ! -s "$work/unexplained" ]; then
      echo "PASS: each of CUDA's $(wc -l <"$work/cuda") names is exported or documented as not provided"
    else
      fail "names of CUDA's libcuda neither exported nor documented as left out:"
      head -10 "$work/unexplained" | sed 's/^/  | /'
    fi
  fi
else
  fail "nm cannot read $libcuda"
fi

# cuGetProcAddress finds every entry of the shims' list
# (shims/cuda_builtins/cuemu_driver_entry_points.h) at its version, with
# either stream flag.
{
  echo '#include <stdio.h>'
  echo 'struct entry { const char *name; int version; };'
  echo 'static const struct entry entries[] = {'
  sed -n 's/^CUEMU_DRV_ENTRY(\([A-Za-z0-9_]*\), \([0-9]*\),.*/  {"\1", \2},/p' \
    "$srcdir/shims/cuda_builtins/cuemu_driver_entry_points.h"
  cat <<'EOT'
};
typedef int (*get_proc_address)(const char *, void **, int,
                                 unsigned long long, int *);
int cuGetProcAddress_v2(const char *, void **, int, unsigned long long,
                        int *);
int main(void) {
  int missing = 0, count = sizeof entries / sizeof entries[0];
  for (int i = 0; i < count; ++i)
    for (unsigned long long flags = 1; flags <= 2; ++flags) {
      void *p = 0;
      int status = -1;
      int r = cuGetProcAddress_v2(entries[i].name, &p, entries[i].version,
                                  flags, &status);
      if (r != 0 || status != 0 || !p) {
        printf("%s at %d (flags %llu): %d, status %d\n", entries[i].name,
               entries[i].version, flags, r, status);
        ++missing;
      }
    }
  printf("%d entries\n%s\n", count, missing || count < 100 ? "FAIL" : "PASS");
  return missing != 0;
}
EOT
} >"$work/entries.c"
step entries "$cc" -o entries entries.c "-L$toolkit/lib64" -lcuda &&
  passes "cuGetProcAddress finds every entry point at its version" \
    env CUEMU_QUIET=1 ./entries

# A driver library of LD_LIBRARY_PATH's (as a GPU container names the real
# driver's folder) does not replace cuemu's in a program cuemu linked, and
# is the one a program of the host compiler gets.
mkdir -p "$work/other"
printf 'int cuInit(unsigned int flags) { return flags ? 1 : 100; }\n' \
  >"$work/other/other.c"
if step other "$cc" -shared -fPIC -o other/libcuda.so.1 other/other.c; then
  [ -x "$work/load_driver" ] &&
    loads "dlopen with another libcuda.so.1 in LD_LIBRARY_PATH" \
      env CUEMU_QUIET=1 "LD_LIBRARY_PATH=$work/other" ./load_driver \
      kernels.fatbin
fi

# The run path, a DT_RPATH, comes before LD_LIBRARY_PATH for libcuemu
# too: another build of libcuemu is chosen with LD_PRELOAD, whose library
# (of the same SONAME) is the program's libcuemu.so.0 (docs/driver-api.md).
mkdir -p "$work/build2"
if [ -x "$work/load_driver" ] &&
  cp "$builddir/.libs/libcuemu.so.0" "$work/build2/libcuemu.so.0"; then
  (cd "$work" && env LD_TRACE_LOADED_OBJECTS=1 \
    "LD_LIBRARY_PATH=$work/build2" ./load_driver) >"$work/trace-path.out" 2>&1
  (cd "$work" && env LD_TRACE_LOADED_OBJECTS=1 \
    "LD_PRELOAD=$work/build2/libcuemu.so.0" ./load_driver) \
    >"$work/trace-preload.out" 2>&1
  if grep -q "libcuemu.so.0 => $builddir/.libs/libcuemu.so.0 " \
    "$work/trace-path.out" &&
    grep -q "^[[:space:]]*$work/build2/libcuemu.so.0 " \
      "$work/trace-preload.out" &&
    ! grep -q "$builddir/.libs/libcuemu.so.0" "$work/trace-preload.out"
  then
    echo "PASS: LD_PRELOAD, not LD_LIBRARY_PATH, picks another libcuemu build"
  else
    fail "another libcuemu build:"
    cat "$work/trace-path.out" "$work/trace-preload.out" | grep cuemu |
      sed 's/^/  | /'
  fi
fi

# A program cuemu did not link gets the system's driver, or none.
cat >"$work/probe.c" <<'EOT'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  struct link_map *map = 0;
  if (lib && dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map)
    printf("libcuda: %s\n", map->l_name);
  else
    printf("libcuda: none\n");
  return 0;
}
EOT
if step probe "$cc" -o probe probe.c -ldl; then
  (cd "$work" && LD_LIBRARY_PATH=other ./probe) >"$work/other.out" 2>&1
  if grep -qx "libcuda: other/libcuda.so.1" "$work/other.out"; then
    echo "PASS: a program of the host compiler gets LD_LIBRARY_PATH's"
  else
    fail "a program of the host compiler with LD_LIBRARY_PATH:"
    sed 's/^/  | /' "$work/other.out"
  fi
  (cd "$work" && ./probe) >"$work/probe.out" 2>&1
  if grep -q "^libcuda: " "$work/probe.out" &&
    ! grep -q "cuemu-toolkit" "$work/probe.out"; then
    echo "PASS: a program of the host compiler does not get it ($(cat "$work/probe.out"))"
  else
    fail "a program of the host compiler:"
    sed 's/^/  | /' "$work/probe.out"
  fi
fi

# cuemu-parity's GPU leg: a real driver or "skipped", never cuemu's.
parity=$builddir/cuemu-parity
if [ -x "$parity" ]; then
  (cd "$srcdir" && "$parity" examples/saxpy) >"$work/parity.out" 2>&1
  if grep -q "^libcuda: none" "$work/probe.out"; then
    if grep -qF "gpu: skipped: libcuda.so.1 could not be loaded" \
      "$work/parity.out"; then
      echo "PASS: cuemu-parity's GPU leg is skipped without a driver"
    else
      fail "cuemu-parity without a driver:"
      sed 's/^/  | /' "$work/parity.out" | tail -8
    fi
  elif grep -E "^saxpy +pass +pass +(pass|skip) +pass " "$work/parity.out" \
    >/dev/null; then
    echo "PASS: cuemu-parity's GPU leg ran on the real driver"
  else
    fail "cuemu-parity with a driver:"
    sed 's/^/  | /' "$work/parity.out" | tail -8
  fi
fi

# With LD_LIBRARY_PATH naming cuemu-toolkit/compat (as for cuda-python
# above), cuemu-parity's GPU leg refuses cuemu's library rather than run on
# the emulator, and its NVRTC leg (CUDA's NVRTC, which asks the driver it
# finds for cuGetExportTable) still compiles.
if [ -x "$parity" ]; then
  (cd "$srcdir" && env "LD_LIBRARY_PATH=$toolkit/compat" "$parity" \
    examples/saxpy) >"$work/parity-compat.out" 2>&1
  if grep -qF "libcuda.so.1 is cuemu's emulated driver, not CUDA's" \
    "$work/parity-compat.out" &&
    grep -E "^saxpy +pass +pass +(pass|skip) +skip " \
      "$work/parity-compat.out" >/dev/null; then
    echo "PASS: cuemu-parity's GPU leg refuses cuemu's libcuda.so.1 of LD_LIBRARY_PATH"
  else
    fail "cuemu-parity with LD_LIBRARY_PATH=compat:"
    sed 's/^/  | /' "$work/parity-compat.out" | tail -8
  fi
fi

# The same sources with the real toolkit.
real=$(find_nvcc)
if [ -n "$real" ]; then
  step nvcc-fatbin "$real" -fatbin -arch=sm_90 -o real.fatbin \
    "$d/kernels.cu" &&
    step nvcc-load "$real" -std=c++17 -arch=sm_90 -o load_real \
      "$d/load_driver.cu" &&
    step nvcc-link "$real" -c -o link_real.o "$d/link_driver.c" &&
    step nvcc-legacy "$real" -o legacy_real "$d/legacy_arrays.c" \
      "-L$(dirname "$real")/../lib64/stubs" -lcuda &&
    step nvcc-names "$real" -std=c++17 -arch=sm_90 -o names_real \
      "$d/stringified_names.cu" &&
    echo "PASS: the sources build with nvcc"
fi

rm -rf "$work"
echo "libcuda.sh: $failed failed"
[ "$failed" -eq 0 ]
