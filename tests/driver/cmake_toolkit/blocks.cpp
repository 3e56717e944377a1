/* blocks.cpp: host C++ compiled by the C++ compiler, so that the
 * program links with CMake's CUDA and C++ rules together. */
int expected_blocks(int n, int block) { return (n + block - 1) / block; }
