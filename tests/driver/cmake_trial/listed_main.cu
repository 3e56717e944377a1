// listed_main.cu: scale_main.cu's program compiled by CMake's CUDA language
// (FindCUDA takes scale_main.cu itself out of the targets' sources).
#include "scale_main.cu"
