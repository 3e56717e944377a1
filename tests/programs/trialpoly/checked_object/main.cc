// main.cc: the host side of oob_kernel.cu, compiled by the host compiler.
int run_fill(void);

int main() { return run_fill(); }
