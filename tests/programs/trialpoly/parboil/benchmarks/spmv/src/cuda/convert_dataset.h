/* convert_dataset.h: Matrix Market coordinate files to the JDS format (C). */
#ifndef CONVERT_DATASET_H
#define CONVERT_DATASET_H

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a real, general coordinate Matrix Market file and builds its
 * jagged-diagonal form: rows sorted by decreasing length (data_row_map: the
 * sorted position's original row), diagonals padded to warp_size rows.
 * Returns 0 on success. */
int coo_to_jds(const char *mtx_filename, int warp_size, float **data, int **data_ptr,
               int **nz_count, int **data_col_index, int **data_row_map, int *dim,
               int *cols, int *len, int *nz_count_len, int *data_ptr_len);

#ifdef __cplusplus
}
#endif

#endif
