// host_intrinsics_cccl.cu: host_intrinsics.cu in a unit that includes
// Thrust, whose host pass reads the whole prelude (the shims' definitions,
// not their declarations with the `error` attribute): the translation
// refuses the same host calls, at the same lines
// (emulator/compile/cuemu_host_calls.c).
#include <thrust/device_ptr.h>

#include "host_intrinsics.cu"
