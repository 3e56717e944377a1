#pragma once
#if defined(SCALER_BUILD)
#define SCALER_API __attribute__((visibility("default")))
#else
#define SCALER_API
#endif
/* v[i] *= s on the device (scaler.cu, a shared library). */
SCALER_API int scale_device(float *v, float s, int n);
