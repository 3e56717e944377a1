# cuda.mk: rules shared by every benchmark's CUDA version.
# A benchmark's Makefile sets BIN, OBJS (and optionally LINKER, APP_CFLAGS,
# APP_CXXFLAGS, APP_CUDACFLAGS, APP_LDFLAGS) and includes this file.
CUDA_PATH ?= /usr/local/cuda
CC ?= gcc
CXX ?= g++
NVCC ?= $(CUDA_PATH)/bin/nvcc
LINKER ?= $(CXX)

CUDA_INC_PATH = $(CUDA_PATH)/include
CUDA_LIB_PATH = $(CUDA_PATH)/lib64

PLATFORM_CFLAGS = -O3 -Wall
PLATFORM_CXXFLAGS = -O3 -Wall
PLATFORM_CUDACFLAGS = -O3 -arch=sm_80 -Xcompiler -Wall
PLATFORM_LDFLAGS = -L$(CUDA_LIB_PATH) -lcudart -lm

INCLUDES = -I$(PARBOIL_ROOT)/common/include -I$(CUDA_INC_PATH)
BUILDDIR ?= build

OBJS_PATHS = $(addprefix $(BUILDDIR)/,$(OBJS)) $(BUILDDIR)/parboil.o

all: $(BUILDDIR)/$(BIN)

$(BUILDDIR):
	mkdir -p $(BUILDDIR)

$(BUILDDIR)/$(BIN): $(OBJS_PATHS)
	$(LINKER) $(OBJS_PATHS) -o $@ $(APP_LDFLAGS) $(PLATFORM_LDFLAGS)

$(BUILDDIR)/%.o: %.c | $(BUILDDIR)
	$(CC) $(PLATFORM_CFLAGS) $(APP_CFLAGS) $(INCLUDES) -c $< -o $@

$(BUILDDIR)/%.o: %.cc | $(BUILDDIR)
	$(CXX) $(PLATFORM_CXXFLAGS) $(APP_CXXFLAGS) $(INCLUDES) -c $< -o $@

$(BUILDDIR)/%.o: %.cu | $(BUILDDIR)
	$(NVCC) $(PLATFORM_CUDACFLAGS) $(APP_CUDACFLAGS) $(INCLUDES) -c $< -o $@

$(BUILDDIR)/parboil.o: $(PARBOIL_ROOT)/common/src/parboil.c | $(BUILDDIR)
	$(CC) $(PLATFORM_CFLAGS) -DPARBOIL_CUDA $(INCLUDES) -c $< -o $@

clean:
	rm -rf $(BUILDDIR)

.PHONY: all clean
