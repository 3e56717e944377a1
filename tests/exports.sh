#!/bin/sh
# exports.sh: libcuemu exports only public names, and the tools use only the
# public API.
#
# 1. Every name in libcuemu's dynamic symbol table must be in the export list
#    (emulator/export/libcuemu.map): cuemu_ followed by a letter (never the
#    internal cuemu__), CUDA's built-in variables, and the entry points of
#    compiler instrumentation that checked modules call.
# 2. Every exported cuemu_ name must be declared in an installed header
#    (emulator/include/cuemu/), and the kernel ABI that compiled kernels
#    need must be there.
# 3. The tools (emulator/tools/, parity/) include no header outside
#    emulator/include/cuemu/ and their own folder.
# 4. Every file of shims/, every header of emulator/include/cuemu/ and
#    every module of the Python packages (fake_cupy/) is installed: named in
#    a shims*_HEADERS, shims*_DATA or cuemuinc_HEADERS list of the Makefile,
#    or in a dist_*_DATA list of fake_cupy/python.am (a shim that another
#    includes and `make install` leaves out fails every compile of the
#    installed cuemu; a module that another imports, every import of the
#    installed fake CuPy).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-$srcdir}
lib=$builddir/.libs/libcuemu.so
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

command -v nm >/dev/null 2>&1 || { echo "FAIL: nm (binutils) not found"; exit 1; }
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }

names=$(nm -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }' |
        sed 's/@.*//' | sort -u)
[ -n "$names" ] || fail "nm lists no symbols in $lib"

# 1. The allowed set (keep in step with libcuemu.map).
outside=$(printf '%s\n' "$names" | grep -Ev \
  '^(cuemu_[a-z][A-Za-z0-9_]*|threadIdx|blockIdx|blockDim|gridDim|warpSize|__tsan_[a-z0-9_]+|__ubsan_handle_out_of_bounds(_abort)?|__wrap_mem(cpy|move|set)|__wrap_(abort|exit|_Exit|quick_exit)|abort|exit|_Exit|quick_exit)$')
if [ -n "$outside" ]; then
  fail "libcuemu exports names outside its export list:"
  printf '  %s\n' $outside
fi

# 2. Exported cuemu_ names are public, and what kernels call is exported.
headers=$srcdir/emulator/include/cuemu
for name in $(printf '%s\n' "$names" | grep '^cuemu_'); do
  grep -qw "$name" "$headers"/*.h ||
    fail "$name is exported but declared in no header of $headers"
done
for name in cuemu_module_load cuemu_kernel_launch cuemu_compile \
    cuemu_cache_get cuemu_block_barrier cuemu_warp_collective \
    cuemu_program_register cuemu_program_launch cuemu_dynamic_shared \
    cuemu_thread_detached cuemu_thread_finish threadIdx blockIdx blockDim \
    gridDim warpSize; do
  printf '%s\n' "$names" | grep -qx "$name" ||
    fail "$name is not exported (compiled kernels and tools need it)"
done

# 3. Tools include only public headers and headers of their own folder.
for f in "$srcdir"/emulator/tools/*.c "$srcdir"/parity/*.c "$srcdir"/parity/*.h; do
  dir=$(dirname "$f")
  for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
    case $h in
      */*) fail "$f includes \"$h\", a header of another folder" ;;
      *) [ -f "$dir/$h" ] || fail "$f includes \"$h\", not in $dir" ;;
    esac
  done
  for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*<\(cuemu[^>]*\)>.*/\1/p' "$f"); do
    [ -f "$srcdir/emulator/include/$h" ] || [ -f "$srcdir/parity/include/$h" ] ||
      fail "$f includes <$h>, which is not an installed header"
  done
done

# 4. The installed files, as the Makefile lists them (GNU make's
#    .VARIABLES; the outer make's flags are not passed on).
lists=$(mktemp "${TMPDIR:-/tmp}/exports.XXXXXX") || exit 1
printf 'cuemu-installed-files:\n\t@printf "%%s\\n" %s\n' \
  '$(foreach v,$(filter shims%_HEADERS shims%_DATA cuemuinc_HEADERS dist_fakecupy%_DATA dist_cuemu%_DATA,$(.VARIABLES)),$($(v)))' \
  >"$lists"
installed=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
  make -s -C "$builddir" -f Makefile -f "$lists" cuemu-installed-files) ||
  fail "the Makefile of $builddir does not list its installed files"
rm -f "$lists"
[ -n "$installed" ] || fail "the Makefile of $builddir lists no installed shims"
for f in $(cd "$srcdir" && find shims -type f ! -name '*.am'; \
    ls emulator/include/cuemu/*.h; \
    find fake_cupy -name '*.py' ! -name '_install_paths.py'); do
  printf '%s\n' "$installed" | grep -qxF "$f" ||
    fail "$f is not installed (add it to its folder's list)"
done

if [ $failed -eq 0 ]; then
  echo "PASS: libcuemu exports $(printf '%s\n' "$names" | wc -l) public names; tools use public headers only; every shim, public header and Python module is installed"
fi
exit $failed
