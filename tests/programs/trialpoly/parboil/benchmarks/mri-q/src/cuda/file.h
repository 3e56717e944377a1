/* file.h: the mri-q input and output files. */
#ifndef MRIQ_FILE_H
#define MRIQ_FILE_H
#ifdef __cplusplus
extern "C" {
#endif
void inputData(const char *fName, int *_numK, int *_numX, float **kx, float **ky, float **kz, float **x,
               float **y, float **z, float **phiR, float **phiI);
void outputData(const char *fName, float *outR, float *outI, int numX);
#ifdef __cplusplus
}
#endif
#endif
