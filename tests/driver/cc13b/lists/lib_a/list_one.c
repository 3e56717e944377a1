int list_one(void) { return 64; }
