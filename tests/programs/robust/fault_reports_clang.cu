// fault_reports_clang.cu: fault_reports.cuh built with -O2 -ccbin clang++.
// CUEMU_OPTIONS: -O2 -ccbin clang++
#include "fault_reports.cuh"
