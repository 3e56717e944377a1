#define FROM_B 2
