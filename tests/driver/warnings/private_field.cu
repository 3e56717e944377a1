// A class whose private field only __device__ members read, as a GPU
// container's lock handle keeps its slot: nvcc's host compile silences
// clang++'s -Wunused-private-field and -Wunused-parameter (cudafe++ writes
// the pragmas first in the host code), so `nvcc -ccbin clang++ -Xcompiler
// -Wall,-Wextra,-Werror` builds it. Prints PASS when the kernel read the
// field.
#include <cstdio>

class slot_ref
{
  public:
    __host__ __device__ slot_ref(int slot) : slot_(slot) {}

    __device__ int
    doubled() const
    {
        return 2 * slot_;
    }

  private:
    int slot_;
};

__global__ void
read_slot(int *out)
{
    slot_ref ref(21);
    *out = ref.doubled();
}

int
main()
{
    int *d_out = nullptr;
    int h_out = 0;
    cudaMalloc(&d_out, sizeof(int));
    read_slot<<<1, 1>>>(d_out);
    cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_out);
    std::printf("%s\n", h_out == 42 ? "PASS" : "FAIL");
    return h_out == 42 ? 0 : 1;
}
