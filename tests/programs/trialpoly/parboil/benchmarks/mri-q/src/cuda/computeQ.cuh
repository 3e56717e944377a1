/* computeQ.cuh: the Q matrix of MRI reconstruction, k-space samples in constant memory chunks. */
#ifndef COMPUTEQ_CUH
#define COMPUTEQ_CUH

#define PI   3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define MIN(X,Y) ((X) < (Y) ? (X) : (Y))
#define K_ELEMS_PER_GRID 2048

#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

/* Values in the k-space coordinate system are stored in constant memory on the GPU */
__constant__ __device__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

__global__ void
ComputePhiMag_GPU(float* phiR, float* phiI, float* phiMag, int numK) {
  int indexK = blockIdx.x*KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
  if (indexK < numK) {
    float real = phiR[indexK];
    float imag = phiI[indexK];
    phiMag[indexK] = real*real + imag*imag;
  }
}

// One thread per voxel; the launch covers the numElems samples of k-space
// now in ck, pairs of them per step, and adds to the voxel's Q.
__global__ void
ComputeQ_GPU(int numElems, int numX,
             const float* x, const float* y, const float* z, float* Qr, float* Qi)
{
  int xIndex = blockIdx.x*KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
  if (xIndex >= numX) return;

  float sX = x[xIndex];
  float sY = y[xIndex];
  float sZ = z[xIndex];
  float sQr = Qr[xIndex];
  float sQi = Qi[xIndex];

  int kIndex = 0;
  for (; kIndex + 1 < numElems; kIndex += 2) {
    float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
    sQr += ck[kIndex].PhiMag * cosf(expArg);
    sQi += ck[kIndex].PhiMag * sinf(expArg);

    const kValues &kv = ck[kIndex + 1];
    float expArg1 = PIx2 * (kv.Kx * sX + kv.Ky * sY + kv.Kz * sZ);
    float s, c;
    sincosf(expArg1, &s, &c);
    sQr += kv.PhiMag * c;
    sQi += kv.PhiMag * s;
  }
  if (kIndex < numElems) {
    float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
    sQr += ck[kIndex].PhiMag * __cosf(expArg);
    sQi += ck[kIndex].PhiMag * __sinf(expArg);
  }

  Qr[xIndex] = sQr;
  Qi[xIndex] = sQi;
}

#endif
