// static_symbol_gxx_O3.cu: static_symbol.cuh built with -O3.
// CUEMU_OPTIONS: -O3
#include "static_symbol.cuh"
