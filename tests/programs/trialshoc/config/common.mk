# Common build settings, included by every per-directory Makefile.
# SHOC_ROOT must be set by the including Makefile.
NVCC ?= nvcc
CXX ?= g++
AR ?= ar
RANLIB ?= ranlib
CUDA_HOME ?= /usr/local/cuda

CUDA_CPPFLAGS := -I$(SHOC_ROOT)/src/common -I$(CUDA_HOME)/include
CUDA_GENCODE := -gencode arch=compute_75,code=sm_75 \
                -gencode arch=compute_80,code=sm_80 \
                -gencode arch=compute_90,code=[sm_90,compute_90]
NVCCFLAGS ?= -O2 -std=c++17 $(CUDA_GENCODE) -Xcompiler -Wall
CXXFLAGS ?= -O2 -std=c++17 -Wall
COMMON_LIB := $(SHOC_ROOT)/lib/libSHOCCommon.a
LIBS := -L$(SHOC_ROOT)/lib -lSHOCCommon
BINDIR ?= $(SHOC_ROOT)/bin
