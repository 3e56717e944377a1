// file.cc: reading and writing the stencil's binary grids.
#include <cstdio>
#include <cstdlib>
#include <stdint.h>
#include "file.h"

extern "C" int readData(const char *fName, float *h_A0, int nx, int ny, int nz)
{
    FILE *fp = fopen(fName, "rb");
    int32_t dims[3];
    if (fp == NULL) {
        fprintf(stderr, "Cannot open input file %s\n", fName);
        return -1;
    }
    if (fread(dims, sizeof(int32_t), 3, fp) != 3 || dims[0] != nx || dims[1] != ny || dims[2] != nz) {
        fprintf(stderr, "%s: the grid is not %dx%dx%d\n", fName, nx, ny, nz);
        fclose(fp);
        return -1;
    }
    size_t n = (size_t)nx * ny * nz;
    size_t got = fread(h_A0, sizeof(float), n, fp);
    fclose(fp);
    return got == n ? 0 : -1;
}

extern "C" int outputData(const char *fName, const float *h_Anext, int nx, int ny, int nz)
{
    FILE *fid = fopen(fName, "wb");
    int32_t dims[3] = {nx, ny, nz};
    if (fid == NULL) {
        fprintf(stderr, "Cannot open output file %s\n", fName);
        return -1;
    }
    fwrite(dims, sizeof(int32_t), 3, fid);
    fwrite(h_Anext, sizeof(float), (size_t)nx * ny * nz, fid);
    fclose(fid);
    return 0;
}
