/* file.h: binary grid files (three ints nx, ny, nz, then the floats). */
#ifndef STENCIL_FILE_H
#define STENCIL_FILE_H
#ifdef __cplusplus
extern "C" {
#endif
int readData(const char *fName, float *h_A0, int nx, int ny, int nz);
int outputData(const char *fName, const float *h_Anext, int nx, int ny, int nz);
#ifdef __cplusplus
}
#endif
#endif
