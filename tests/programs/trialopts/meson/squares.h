#ifndef SQUARES_H
#define SQUARES_H
#ifdef __cplusplus
extern "C" {
#endif
/* host[i] = i * i for i < n, computed by a kernel; 0 on success. */
int squares_on_device(int *host, int n);
#ifdef __cplusplus
}
#endif
#endif
