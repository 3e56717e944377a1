// undeclared_both_passes.cu: a device function template that both passes
// see names a variable declared nowhere; nothing instantiates it. nvcc's
// host pass refuses it ("identifier ... is undefined"), so cuemu-nvcc must
// too (tests/driver_device_undeclared.sh).
template <int N> __device__ int both_passes_sum() { return nowhere_both + N; }

int main() { return 0; }
