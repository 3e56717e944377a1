#!/bin/sh
# host_decls.sh: the host pass's generated declarations of device-only shims
# (shims/cuda_builtins/*_decls.h) are what scripts/host_decls.py makes of
# their headers today, so that a function added to or changed in a header
# is declared alike in the host pass's lean prelude (cuemu_host_decls.h).
# Then a host function that calls one of them anyway is refused at its line
# with nvcc's message, as nvcc refuses it (the host pass has the declaration
# only). The names of those functions, which the translation refuses in
# host code where the host pass reads the whole prelude
# (emulator/compile/cuemu_device_only_names.h), are what
# scripts/device_only_names.py makes of the shims today. Skipped (77)
# without python3.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
shims=$srcdir/shims/cuda_builtins

command -v python3 >/dev/null 2>&1 || { echo "host_decls.sh: no python3"; exit 77; }
status=0
# The headers, as Makefile.am's host_decls_headers lists them.
headers=$(sed -n '/^host_decls_headers =/,/[^\\]$/p' "$srcdir/Makefile.am" |
  sed 's/^host_decls_headers =//; s/\\//g')
[ -n "$headers" ] || { echo "host_decls.sh: no host_decls_headers in Makefile.am"; exit 1; }
for name in $headers; do
  header=$name.h
  decls=$shims/$(basename "$header" .h)_decls.h
  if python3 "$srcdir/scripts/host_decls.py" --check "$shims/$header" "$decls"; then
    echo "ok: $(basename "$decls")"
  else
    status=1
  fi
done

# The translation's table of those functions' names (cuemu_host_calls.c).
if python3 "$srcdir/scripts/device_only_names.py" --check "$shims" \
    "$srcdir/emulator/compile/cuemu_device_only_names.h"; then
  echo "ok: cuemu_device_only_names.h"
else
  status=1
fi

# The C library's functions that CUDA declares for device code
# (emulator/compile/cuemu_device_libc_names.h, cuemu_space_rules.h), from
# nvcc's headers where nvcc 13.0, which made the table, is present.
real_nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$real_nvcc" ] &&
    "$real_nvcc" --version 2>/dev/null | grep -q 'release 13\.0,'; then
  if python3 "$srcdir/scripts/device_libc_names.py" --check "$real_nvcc" \
      "$srcdir/emulator/compile/cuemu_device_libc_names.h"; then
    echo "ok: cuemu_device_libc_names.h"
  else
    status=1
  fi
fi

# The runtime API's host-only functions (cuemu_host_runtime_names.h,
# cuemu_device_code.c), from the headers of the toolkit whose nvcc 13.0
# made the table.
if [ -x "$real_nvcc" ] &&
    "$real_nvcc" --version 2>/dev/null | grep -q 'release 13\.0,'; then
  if python3 "$srcdir/scripts/host_runtime_names.py" --check \
      "$(dirname "$real_nvcc")/../include" \
      "$srcdir/emulator/compile/cuemu_host_runtime_names.h"; then
    echo "ok: cuemu_host_runtime_names.h"
  else
    status=1
  fi
fi

# A host function's call of a device-only function.
builddir=${CUEMU_BUILDDIR:-$srcdir}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/host_decls.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '#include <cstdio>' \
  'int main() { std::printf("%d\n", __popc(7u)); return 0; }' >"$tmp/host_call.cu"
if "$builddir/cuemu-nvcc" "$tmp/host_call.cu" -o "$tmp/host_call" \
    >"$tmp/log" 2>&1; then
  echo "FAIL: a host function's call of __popc compiled"
  status=1
elif ! grep -q "host_call.cu:2:.*__popc.*calling a __device__ function from a __host__ function is not allowed" "$tmp/log"; then
  echo "FAIL: the refusal of a host call of __popc does not say why:"
  cat "$tmp/log"
  status=1
else
  echo "ok: a host call of __popc is refused at its line"
fi
exit $status
