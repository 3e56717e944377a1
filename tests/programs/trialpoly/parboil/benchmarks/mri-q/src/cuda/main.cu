/*
 * main.cu: MRI-Q.  Usage: mri-q -i input.bin[,reference.bin] -o output.bin [numX]
 * NVCC_OPTIONS: -I../../../../common/include
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <malloc.h>
#include <parboil.h>
#include <cuda_runtime.h>

#include "file.h"
#include "computeQ.h"

/* The kernels and their host side are compiled with this file, as one unit. */
#include "computeQ.cu"


static int compare_output(const char *fName, const float *Qr, const float *Qi, int numX)
{
  FILE *f = fopen(fName, "rb");
  int n = 0, bad = 0;
  if (!f || fread(&n, sizeof(int), 1, f) != 1 || n != numX) {
    fprintf(stderr, "bad reference %s\n", fName);
    if (f) fclose(f);
    return 1;
  }
  float *r = (float *)malloc(2 * n * sizeof(float));
  if (fread(r, sizeof(float), 2 * n, f) != (size_t)(2 * n)) bad = 1;
  fclose(f);
  double scale = 0;
  for (int i = 0; i < 2 * n; i++) scale = fmax(scale, fabs(r[i]));
  for (int i = 0; i < n && !bad; i++) {
    if (fabs(Qr[i] - r[i]) > 2e-3 * scale || fabs(Qi[i] - r[n + i]) > 2e-3 * scale) {
      fprintf(stderr, "Q[%d] = (%f, %f), expected (%f, %f)\n", i, Qr[i], Qi[i], r[i], r[n + i]);
      bad++;
    }
  }
  free(r);
  return bad;
}

int main(int argc, char* argv[]) {
  int numX, numK;		/* Number of X and K values */
  int original_numK;		/* Number of K values in input file */
  float *kx, *ky, *kz;		/* K trajectory (3D vectors) */
  float *x, *y, *z;		/* X coordinates (3D vectors) */
  float *phiR, *phiI;		/* Phi values (complex) */
  float *phiMag;		/* Magnitude of Phi */
  float *Qr, *Qi;		/* Q signal (complex) */
  struct kValues* kVals;

  struct pb_Parameters *params;
  struct pb_TimerSet timers;

  pb_InitializeTimerSet(&timers);

  /* Read command line */
  params = pb_ReadParameters(&argc, argv);
  if ((params == NULL) || (params->inpFiles[0] == NULL)) {
    fprintf(stderr, "Expecting one input filename\n");
    exit(-1);
  }

  /* Read in data */
  pb_SwitchToTimer(&timers, pb_TimerID_IO);
  inputData(params->inpFiles[0], &original_numK, &numX, &kx, &ky, &kz, &x, &y, &z, &phiR, &phiI);

  /* Reduce the number of k-space samples if a number is given
   * on the command line */
  if (argc < 2)
    numK = original_numK;
  else {
    int inputK;
    char *end;
    inputK = strtol(argv[1], &end, 10);
    if (end == argv[1]) {
      fprintf(stderr, "Expecting an integer parameter\n");
      exit(-1);
    }
    numK = inputK < original_numK ? inputK : original_numK;
  }

  printf("%d pixels in output; %d samples in trajectory; using %d samples\n", numX, original_numK, numK);

  pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

  /* Create CPU data structures */
  createDataStructsCPU(numK, numX, &phiMag, &Qr, &Qi);

  /* GPU section 1 (precompute PhiMag) */
  {
    /* Mirror several data structures on the device */
    float *phiR_d, *phiI_d;
    float *phiMag_d;

    pb_SwitchToTimer(&timers, pb_TimerID_COPY);
    cudaMalloc((void **)&phiR_d, numK * sizeof(float));
    cudaMemcpy(phiR_d, phiR, numK * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&phiI_d, numK * sizeof(float));
    cudaMemcpy(phiI_d, phiI, numK * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&phiMag_d, numK * sizeof(float));

    cudaDeviceSynchronize();
    pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);

    computePhiMag_GPU(numK, phiR_d, phiI_d, phiMag_d);

    cudaDeviceSynchronize();
    pb_SwitchToTimer(&timers, pb_TimerID_COPY);

    cudaMemcpy(phiMag, phiMag_d, numK * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(phiMag_d);
    cudaFree(phiR_d);
    cudaFree(phiI_d);
  }

  pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

  kVals = (struct kValues*)calloc(numK, sizeof (struct kValues));
  int k;
  for (k = 0; k < numK; k++) {
    kVals[k].Kx = kx[k];
    kVals[k].Ky = ky[k];
    kVals[k].Kz = kz[k];
    kVals[k].PhiMag = phiMag[k];
  }

  /* GPU section 2 */
  {
    float *x_d, *y_d, *z_d;
    float *Qr_d, *Qi_d;

    pb_SwitchToTimer(&timers, pb_TimerID_COPY);

    cudaMalloc((void **)&x_d, numX * sizeof(float));
    cudaMemcpy(x_d, x, numX * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&y_d, numX * sizeof(float));
    cudaMemcpy(y_d, y, numX * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&z_d, numX * sizeof(float));
    cudaMemcpy(z_d, z, numX * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&Qr_d, numX * sizeof(float));
    cudaMemset((void *)Qr_d, 0, numX * sizeof(float));
    cudaMalloc((void **)&Qi_d, numX * sizeof(float));
    cudaMemset((void *)Qi_d, 0, numX * sizeof(float));

    cudaDeviceSynchronize();
    pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);

    computeQ_GPU(numK, numX, x_d, y_d, z_d, kVals, Qr_d, Qi_d);

    cudaDeviceSynchronize();
    pb_SwitchToTimer(&timers, pb_TimerID_COPY);

    cudaMemcpy(Qr, Qr_d, numX * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(Qi, Qi_d, numX * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x_d);
    cudaFree(y_d);
    cudaFree(z_d);
    cudaFree(Qr_d);
    cudaFree(Qi_d);
  }

  if (params->outFile) {
    /* Write Q to file */
    pb_SwitchToTimer(&timers, pb_TimerID_IO);
    outputData(params->outFile, Qr, Qi, numX);
    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);
  }

  int fail = 0;
  if (params->inpFiles[1] && numK == original_numK)
    fail = compare_output(params->inpFiles[1], Qr, Qi, numX);

  free (kx);
  free (ky);
  free (kz);
  free (x);
  free (y);
  free (z);
  free (phiR);
  free (phiI);
  free (phiMag);
  free (kVals);
  free (Qr);
  free (Qi);

  pb_SwitchToTimer(&timers, pb_TimerID_NONE);
  pb_PrintTimerSet(&timers);
  pb_FreeParameters(params);

  printf("%s\n", fail ? "FAIL" : "PASS");
  return fail ? 1 : 0;
}
