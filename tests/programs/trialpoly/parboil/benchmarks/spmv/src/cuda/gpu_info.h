// gpu_info.h
#ifndef GPU_INFO_H
#define GPU_INFO_H
#include <cstddef>
void compute_active_thread(size_t *thread, size_t *grid, int task, int pad, int major, int minor, int sm);
#endif
