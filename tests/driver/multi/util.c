/* util.c: C code in a CUDA program. */
int c_answer(void) { return 42; }
