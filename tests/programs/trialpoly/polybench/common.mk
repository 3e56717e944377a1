# common.mk: included by every kernel's Makefile.
NVCC ?= /usr/local/cuda/bin/nvcc
CUDA_ARCH ?= -arch=sm_80
PATH_TO_UTILS = ../utilities
DATASET ?= -DMINI_DATASET
UTIL_SRCS ?= $(PATH_TO_UTILS)/polybench.c
NVCCFLAGS = -O3 $(CUDA_ARCH) -I$(PATH_TO_UTILS) $(DATASET) $(EXTRA_FLAGS)

all: $(EXECUTABLE)

$(EXECUTABLE): $(CUFILES) $(wildcard *.cuh) $(PATH_TO_UTILS)/polybench.c $(PATH_TO_UTILS)/polybench.h
	$(NVCC) $(NVCCFLAGS) ${CUFILES} $(UTIL_SRCS) -o ${EXECUTABLE}

run: $(EXECUTABLE)
	./$(EXECUTABLE)

clean:
	rm -f *~ *.exe *.o $(EXECUTABLE)

.PHONY: all run clean
