/* common.h: indexing of the stencil's grids. */
#ifndef STENCIL_COMMON_H
#define STENCIL_COMMON_H
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))
#endif
