/* convert_dataset.c: Matrix Market coordinate input to the JDS format. C99. */
#include "convert_dataset.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct _mat_entry {
  int row, col; /* zero-based */
  float val;
} mat_entry;

typedef struct _row_stats {
  int index;
  int size;
} row_stats;

static int sort_rows(const void *a, const void *b)
{
  const row_stats *x = (const row_stats *)a, *y = (const row_stats *)b;
  if (x->size != y->size) return y->size - x->size; /* longest first */
  return x->index - y->index;
}

static int sort_entries(const void *a, const void *b)
{
  const mat_entry *x = (const mat_entry *)a, *y = (const mat_entry *)b;
  if (x->row != y->row) return x->row - y->row;
  return x->col - y->col;
}

int coo_to_jds(const char *mtx_filename, int warp_size, float **data, int **data_ptr,
               int **nz_count, int **data_col_index, int **data_row_map, int *dim,
               int *cols, int *len, int *nz_count_len, int *data_ptr_len)
{
  char line[1024];
  int rows, ncols, nnz, i, k;
  FILE *f = fopen(mtx_filename, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", mtx_filename);
    return 1;
  }
  if (!fgets(line, sizeof line, f) || strncmp(line, "%%MatrixMarket matrix coordinate real general", 45)) {
    fprintf(stderr, "%s: not a real general coordinate Matrix Market file\n", mtx_filename);
    fclose(f);
    return 1;
  }
  do {
    if (!fgets(line, sizeof line, f)) { fclose(f); return 1; }
  } while (line[0] == '%');
  if (sscanf(line, "%d %d %d", &rows, &ncols, &nnz) != 3) { fclose(f); return 1; }

  mat_entry *entries = (mat_entry *)malloc(nnz * sizeof(mat_entry));
  for (i = 0; i < nnz; i++) {
    if (fscanf(f, "%d %d %f", &entries[i].row, &entries[i].col, &entries[i].val) != 3) {
      fprintf(stderr, "%s: short file\n", mtx_filename);
      free(entries);
      fclose(f);
      return 1;
    }
    entries[i].row--;
    entries[i].col--;
  }
  fclose(f);
  qsort(entries, nnz, sizeof(mat_entry), sort_entries);

  /* Row lengths and starts, then the rows sorted by decreasing length. */
  int *row_start = (int *)calloc(rows + 1, sizeof(int));
  row_stats *stats = (row_stats *)calloc(rows, sizeof(row_stats));
  for (i = 0; i < rows; i++) stats[i].index = i;
  for (i = 0; i < nnz; i++) { stats[entries[i].row].size++; row_start[entries[i].row + 1]++; }
  for (i = 0; i < rows; i++) row_start[i + 1] += row_start[i];
  qsort(stats, rows, sizeof(row_stats), sort_rows);

  int padded_rows = (rows + warp_size - 1) / warp_size * warp_size;
  int groups = padded_rows / warp_size;
  int max_nz = rows ? stats[0].size : 0;

  /* nz_count: diagonals used by each group of warp_size sorted rows. */
  *nz_count = (int *)calloc(groups, sizeof(int));
  for (i = 0; i < groups; i++) (*nz_count)[i] = stats[i * warp_size].size;

  /* Diagonal k holds the groups whose longest row is longer than k. */
  *data_ptr = (int *)calloc(max_nz + 1, sizeof(int));
  for (k = 0; k < max_nz; k++) {
    int g = 0;
    while (g < groups && (*nz_count)[g] > k) g++;
    (*data_ptr)[k + 1] = (*data_ptr)[k] + g * warp_size;
  }
  *len = (*data_ptr)[max_nz];
  *data = (float *)calloc(*len ? *len : 1, sizeof(float));
  *data_col_index = (int *)calloc(*len ? *len : 1, sizeof(int));
  *data_row_map = (int *)calloc(padded_rows, sizeof(int));
  for (i = 0; i < padded_rows; i++) {
    int r = i < rows ? stats[i].index : 0;
    (*data_row_map)[i] = i < rows ? r : -1;
    if (i >= rows) continue;
    for (k = 0; k < stats[i].size; k++) {
      mat_entry *e = &entries[row_start[r] + k];
      (*data)[(*data_ptr)[k] + i] = e->val;
      (*data_col_index)[(*data_ptr)[k] + i] = e->col;
    }
  }
  *dim = rows;
  *cols = ncols;
  *nz_count_len = groups;
  *data_ptr_len = max_nz + 1;
  free(stats);
  free(row_start);
  free(entries);
  return 0;
}
