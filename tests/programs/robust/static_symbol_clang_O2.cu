// static_symbol_clang_O2.cu: static_symbol.cuh built with -O2 -ccbin clang++.
// CUEMU_OPTIONS: -O2 -ccbin clang++
#include "static_symbol.cuh"
