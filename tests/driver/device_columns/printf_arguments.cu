// printf_arguments.cu: a training loop's log lines whose printf arguments
// name what is not declared, in a kernel and in host code, which nvcc
// refuses with its caret under the name. The shims' printf is a macro whose
// expansion puts the arguments on a line of their own between its parts, so
// the compiler's column is one of that line: the message must give the
// column of the name in the user's line, not the column of `printf`.
#include <cstdio>

__global__ void report(const float *loss) {
  printf("block %d loss %f\n", blockIdx.x, loss[blockIdx.x] + bias_term);
}

int main() {
  int epoch = 3;
  printf("epoch %d accuracy %.2f\n", epoch, accuracy_sum / 10);
  return 0;
}
