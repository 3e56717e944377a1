/* computeQ.h: host entry points of computeQ.cu. */
#ifndef COMPUTEQ_H
#define COMPUTEQ_H
struct kValues;
void computePhiMag_GPU(int numK, float* phiR_d, float* phiI_d, float* phiMag_d);
void computeQ_GPU(int numK, int numX, float* x_d, float* y_d, float* z_d, struct kValues* kVals,
                  float* Qr_d, float* Qi_d);
void createDataStructsCPU(int numK, int numX, float** phiMag, float** Qr, float** Qi);
#endif
