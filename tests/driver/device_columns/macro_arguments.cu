// macro_arguments.cu: a training loop's log lines and checks whose printf
// and assert arguments name what is not declared, in a kernel and in host
// code, which nvcc refuses with its caret under the name. The shims' printf
// and assert are macros of system headers whose expansions put the user's
// arguments on lines of their own between their parts, so the compiler's
// column is one of such a line: the message must give the column of the
// name in the user's line, not the column of `printf` or `assert`; so must
// a double array passed where a float array is wanted. A message about the
// call itself (a struct passed to a kernel's printf, which cuemu's printf
// refuses) stays at `printf`.
#include <cassert>
#include <cstdio>

struct best_t { int epoch; float loss; };
struct sample_t { double data[28][28]; unsigned label; };
static unsigned classify(float data[28][28]) { return data[0][0] > 0; }

__global__ void report(const float *loss, best_t best) {
  printf("block %d loss %f\n", blockIdx.x, loss[blockIdx.x] + bias_term);
  assert(loss[blockIdx.x] >= lowest_loss);
  printf("best %d\n", best);
}

int main() {
  int epoch = 3;
  printf("epoch %d accuracy %.2f\n", epoch, accuracy_sum / 10);
  assert(epoch < epoch_limit);
  sample_t sample = {};
  printf("class %u\n", classify(sample.data));
  return 0;
}
