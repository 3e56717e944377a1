#!/bin/sh
# programs_trialimg.sh: the programs of tests/programs/trialimg, from a trial
# of image-processing code written the way public CUDA image projects and
# course assignments write it (no OpenCV, no NPP): a PGM/PPM host library
# (img/src/image_io.cpp) and generated test images; separable Gaussian
# filters on pitched images (cudaMallocPitch, cudaMemcpy2D, cudaMemset2D)
# with the taps in __constant__ memory and 16x16 tiles with aprons in shared
# memory, templated on float and uchar4; Sobel, bilateral and a bilinear
# resize through texture objects on an RGBA8 cudaArray (normalized-float
# reads, clamp and border addressing, normalized coordinates) and a surface
# written with surf2Dwrite and read back with cudaMemcpy2DFromArray;
# histogram equalisation (shared-memory atomics, a shuffle scan, a LUT);
# median filters with sorting networks, erosion/dilation templated on the
# operator, union-find labelling with atomicMin; an integral image through
# a padded shared-memory transpose; a course-style colour pipeline on uchar3
# with a helper_math-style vector header. Built with cuemu-nvcc as one
# combined program (with the trial Makefile's options but -O3, which costs
# 3 s of CPU more: about 9 s in all from an empty cache) and run. The trial itself (tests pass unchanged with the
# project's Makefile and CMake target, and under --check=all and the
# reverse and random schedules, but for the labelling under racecheck: see
# median_morph_ccl.cu).
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PROGRAMS_COMBINE=1 exec sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialimg"
