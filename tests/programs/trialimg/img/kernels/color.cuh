// Course-assignment style colour kernels: RGB (uchar3, straight from a PPM)
// to greyscale, channel separation, a non-separable blur whose filter is
// staged in dynamic shared memory, and recombination into RGBA.
#ifndef TRIALIMG_COLOR_CUH
#define TRIALIMG_COLOR_CUH
#include <cuda_runtime.h>

__global__ void rgbToGreyscale(const uchar3 *const rgbImage, unsigned char *const greyImage, int numRows, int numCols) {
  const int2 p = make_int2(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y);
  if (p.x >= numCols || p.y >= numRows) return;
  const int idx = p.y * numCols + p.x;
  const uchar3 c = rgbImage[idx];
  greyImage[idx] = (unsigned char)(.299f * c.x + .587f * c.y + .114f * c.z);
}

__global__ void separateChannels(const uchar3 *const input, int numRows, int numCols, unsigned char *const red,
                                 unsigned char *const green, unsigned char *const blue) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= numCols || row >= numRows) return;
  const int i = row * numCols + col;
  red[i] = input[i].x;
  green[i] = input[i].y;
  blue[i] = input[i].z;
}

__global__ void gaussianBlur(const unsigned char *const inputChannel, unsigned char *const outputChannel, int numRows,
                             int numCols, const float *const filter, const int filterWidth) {
  extern __shared__ float sFilter[];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = tid; i < filterWidth * filterWidth; i += blockDim.x * blockDim.y) sFilter[i] = filter[i];
  __syncthreads();
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= numCols || row >= numRows) return;
  const int half = filterWidth / 2;
  float result = 0.f;
  for (int fr = -half; fr <= half; ++fr)
    for (int fc = -half; fc <= half; ++fc) {
      int r = min(max(row + fr, 0), numRows - 1);
      int c = min(max(col + fc, 0), numCols - 1);
      result += sFilter[(fr + half) * filterWidth + fc + half] * static_cast<float>(inputChannel[r * numCols + c]);
    }
  outputChannel[row * numCols + col] = static_cast<unsigned char>(result);
}

__global__ void recombineChannels(const unsigned char *const red, const unsigned char *const green,
                                  const unsigned char *const blue, uchar4 *const outputImageRGBA, int numRows,
                                  int numCols) {
  const int2 p = make_int2(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y);
  const int idx = p.y * numCols + p.x;
  if (p.x >= numCols || p.y >= numRows) return;
  outputImageRGBA[idx] = make_uchar4(red[idx], green[idx], blue[idx], 255);
}

#endif  // TRIALIMG_COLOR_CUH
