// file.h: input and output of the spmv benchmark.
#ifndef SPMV_FILE_H
#define SPMV_FILE_H
#include <vector>
void input_vec(const char *fName, float *h_vec, int dim);
void outputData(const char *fName, const float *h_Ax_vector, int dim);
bool read_reference(const char *fName, std::vector<float> &ref);
#endif
