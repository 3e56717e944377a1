// file.cc: the benchmark's binary vector input and its text output.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include "file.h"

void input_vec(const char *fName, float *h_vec, int dim)
{
    FILE *fid = fopen(fName, "rb");
    if (fid == NULL) {
        fprintf(stderr, "cannot open %s\n", fName);
        exit(1);
    }
    if (fread(h_vec, sizeof(float), dim, fid) != (size_t)dim) {
        fprintf(stderr, "%s: short read\n", fName);
        exit(1);
    }
    fclose(fid);
}

void outputData(const char *fName, const float *h_Ax_vector, int dim)
{
    std::ofstream out(fName);
    out << dim << "\n";
    out.precision(9);
    for (int i = 0; i < dim; i++) out << h_Ax_vector[i] << "\n";
}

bool read_reference(const char *fName, std::vector<float> &ref)
{
    std::ifstream in(fName);
    int n;
    if (!(in >> n)) return false;
    ref.resize(n);
    for (int i = 0; i < n; i++)
        if (!(in >> ref[i])) return false;
    return true;
}
