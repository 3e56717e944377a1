/* keccak_driver.c - the C driver of the Keccak test, as miners' C front ends
 * call their CUDA back ends. */
#include <stdio.h>

int keccak_selftest(int n, unsigned long long *found_nonce);

int keccak_driver_main(void) {
  unsigned long long nonce = 0;
  int bad = keccak_selftest(700, &nonce);
  printf("keccak: nonce %llu, %d mismatches\n", nonce, bad);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
