#define FROM_SYS_A 4
