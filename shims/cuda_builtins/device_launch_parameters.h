/*
 * device_launch_parameters.h: CUDA's header for the built-in variables.
 */
#ifndef CUEMU_DEVICE_LAUNCH_PARAMETERS_H
#define CUEMU_DEVICE_LAUNCH_PARAMETERS_H

#include "cuemu_builtin_vars.h"

#endif
