/* deposit_host.c: the host implementation of deposit.cu, adding the
 * particles in index order. */
void deposit(int n, const int *cell, const float *weight, int n_cells,
             float *charge, int *counts) {
  for (int i = 0; i < n; ++i)
    if (cell[i] >= 0 && cell[i] < n_cells) {
      charge[cell[i]] += weight[i];
      counts[cell[i]] += 1;
    }
}
