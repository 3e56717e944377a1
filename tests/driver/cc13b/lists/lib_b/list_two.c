int list_two(void) { return 128; }
