// static_symbol_gxx_O2.cu: static_symbol.cuh built with -O2.
// CUEMU_OPTIONS: -O2
#include "static_symbol.cuh"
