#define FROM_SYS_B 8
