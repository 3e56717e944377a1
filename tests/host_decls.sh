#!/bin/sh
# host_decls.sh: the host pass's generated declarations of device-only shims
# (shims/cuda_builtins/*_decls.h) are what scripts/host_decls.py makes of
# their headers today, so that a function added to or changed in a header
# is declared alike in the host pass's lean prelude (cuemu_host_decls.h).
# Skipped (77) without python3.

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
exit $status
