#define FROM_A 1
