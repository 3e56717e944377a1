/*
 * cuemu_parity_svg.h: pictures of where an output differs, as inline SVG
 * (internal to the parity runner). Both take an error map
 * (cuemu_parity_diff's map: the largest error in ulps per cell, row by
 * row) and its count of failing elements per cell, and write one <svg>
 * element whose every cell or bar carries its range of elements, its error
 * and its failing elements as data attributes (data-row0, data-row1,
 * data-col0, data-col1 or data-first, data-last; data-ulps, "inf" for a
 * NaN or an infinity against a number; data-fails), so that a reader, or a
 * test, can tell which elements a mark stands for. A cell or bar with
 * failing elements is outlined; one whose elements fail with no distance in ulps
 * (NaNs with other bits, -0 against +0 bit for bit) is purple.
 */
#ifndef CUEMU_PARITY_SVG_H
#define CUEMU_PARITY_SVG_H

#include <stddef.h>
#include <stdio.h>

/* The first element of cell `k` of `cells` cells over `n` elements (the
 * cell of element i is i * cells / n); cell `cells` gives n. */
size_t cuemu__svg_cell_first(int k, size_t n, int cells);

/* The colour of an error of `ulps` on a scale whose top is `top` ulps, as
 * "#rrggbb": light grey for 0, yellow to dark red on a logarithmic scale,
 * black for inf. */
void cuemu__svg_color(double ulps, double top, char out[8]);

/* A heat map of a rows x cols output (map_rows x map_cols cells): rows go
 * down, columns across, with a colour scale from 0 to the largest error. */
void cuemu__svg_heatmap_write(FILE *f, const double *map, const int *fails,
                              int map_rows, int map_cols, size_t rows,
                              size_t cols);

/* The error against the index of a 1-D output of `count` elements, as one
 * bar per cell (`cells` of them) on a logarithmic axis. */
void cuemu__svg_profile_write(FILE *f, const double *map, const int *fails,
                              int cells, size_t count);

#endif /* CUEMU_PARITY_SVG_H */
