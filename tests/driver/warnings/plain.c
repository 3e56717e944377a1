/* plain.c: C code built with the C++ program old_dialect.cu, and alone. */
int plain_answer(void) { return 42; }
