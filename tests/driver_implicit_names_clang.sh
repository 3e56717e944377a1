#!/bin/sh
# driver_implicit_names_clang.sh: driver_implicit_names.sh's probes of the
# names that a .cu file sees without an #include, with cuemu-nvcc
# -ccbin clang++ (tests/driver/implicit/names.txt's third verdicts).
# Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
IMPLICIT_CXX=clang++ exec sh "$srcdir/tests/driver_implicit_names.sh"
