#define PRE_ONE 16
