// launch_argument_error.cu: an undeclared name among a launch's arguments.
// nvcc gives one error; cuemu's translation also checks the arguments
// inside a template argument, after which g++ 12 added "template argument
// 1 is invalid" on the same line (with these names; not with every name).
__global__ void k(int *p, int v) { p[0] = v; }

int main() { int *p = nullptr; k<<<1, 1>>>(p, missing_value); return 0; }
