#define PRE_TWO 32
