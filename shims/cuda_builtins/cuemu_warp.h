/*
 * cuemu_warp.h: warp intrinsics (being written).
 */
#ifndef CUEMU_WARP_H
#define CUEMU_WARP_H

#include <cuemu/cuemu_device.h>

#endif /* CUEMU_WARP_H */
