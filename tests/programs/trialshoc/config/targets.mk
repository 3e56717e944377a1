# One executable per benchmark source: BENCHMARKS lists them (without .cu).
# EXTRA_NVCCFLAGS and EXTRA_LIBS may be set per directory.
BINS := $(addprefix $(BINDIR)/,$(BENCHMARKS))

all: $(BINS)

%.o: %.cu
	$(NVCC) $(NVCCFLAGS) $(EXTRA_NVCCFLAGS) $(CUDA_CPPFLAGS) -c $< -o $@

$(BINDIR)/%: %.o $(COMMON_LIB)
	@mkdir -p $(BINDIR)
	$(NVCC) $(NVCCFLAGS) -o $@ $< $(LIBS) $(EXTRA_LIBS)

clean:
	rm -f *.o $(BINS)

.PHONY: all clean
.PRECIOUS: %.o
