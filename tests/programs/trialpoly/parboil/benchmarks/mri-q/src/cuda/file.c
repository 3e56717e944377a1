/* file.c: binary input (numK, numX, then kx ky kz x y z phiR phiI) and output (numX, Qr, Qi). C. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "file.h"

#define memalign_or_malloc(n) malloc((size_t)(n) * sizeof(float))

static void read_floats(FILE *fid, float **dst, int n, const char *fName)
{
  *dst = (float *)memalign_or_malloc(n);
  if (fread(*dst, sizeof(float), n, fid) != (size_t)n) {
    fprintf(stderr, "%s: short file\n", fName);
    exit(-1);
  }
}

void inputData(const char *fName, int *_numK, int *_numX, float **kx, float **ky, float **kz, float **x,
               float **y, float **z, float **phiR, float **phiI)
{
  int32_t numK, numX;
  FILE *fid = fopen(fName, "r");

  if (fid == NULL) {
    fprintf(stderr, "Cannot open input file\n");
    exit(-1);
  }
  if (fread(&numK, sizeof(int32_t), 1, fid) != 1 || fread(&numX, sizeof(int32_t), 1, fid) != 1) {
    fprintf(stderr, "%s: no header\n", fName);
    exit(-1);
  }
  *_numK = numK;
  *_numX = numX;
  read_floats(fid, kx, numK, fName);
  read_floats(fid, ky, numK, fName);
  read_floats(fid, kz, numK, fName);
  read_floats(fid, x, numX, fName);
  read_floats(fid, y, numX, fName);
  read_floats(fid, z, numX, fName);
  read_floats(fid, phiR, numK, fName);
  read_floats(fid, phiI, numK, fName);
  fclose(fid);
}

void outputData(const char *fName, float *outR, float *outI, int numX)
{
  int32_t n = numX;
  FILE *fid = fopen(fName, "w");

  if (fid == NULL) {
    fprintf(stderr, "Cannot open output file\n");
    exit(-1);
  }
  /* Write the data size */
  fwrite(&n, sizeof(int32_t), 1, fid);
  /* Write the reconstructed data */
  fwrite(outR, sizeof(float), numX, fid);
  fwrite(outI, sizeof(float), numX, fid);
  fclose(fid);
}
