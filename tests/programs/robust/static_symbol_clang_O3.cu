// static_symbol_clang_O3.cu: static_symbol.cuh built with -O3 -ccbin clang++.
// CUEMU_OPTIONS: -O3 -ccbin clang++
#include "static_symbol.cuh"
