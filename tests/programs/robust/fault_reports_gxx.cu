// fault_reports_gxx.cu: fault_reports.cuh built with -O2.
// CUEMU_OPTIONS: -O2
#include "fault_reports.cuh"
