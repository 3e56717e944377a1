/*
 * cuemu_parity_svg.c: heat maps and error profiles of parity outputs as
 * inline SVG, for the HTML report (see cuemu_parity_svg.h).
 */
#include <math.h>
#include <stdio.h>

#include "cuemu_parity_svg.h"

size_t cuemu__svg_cell_first(int k, size_t n, int cells) {
  /* The smallest i with i * cells / n >= k. */
  return ((size_t)k * n + (size_t)cells - 1) / (size_t)cells;
}

/* The largest finite error of a map (0 when none). */
static double finite_top(const double *map, int cells) {
  double top = 0;
  for (int k = 0; k < cells; ++k)
    if (isfinite(map[k]) && map[k] > top)
      top = map[k];
  return top;
}

/* Where an error lies on the scale: 0 for none, (0, 1] for a finite one
 * (logarithmic, so that 1 ulp and 10^6 ulps are both visible). */
static double scale(double ulps, double top) {
  if (!(ulps > 0))
    return 0;
  if (isinf(ulps) || top <= 0)
    return 1;
  double t = log1p(ulps) / log1p(top);
  return t < 0.08 ? 0.08 : t > 1 ? 1 : t;
}

void cuemu__svg_color(double ulps, double top, char out[8]) {
  if (!(ulps > 0)) {
    snprintf(out, 8, "#eeeeee");
    return;
  }
  if (isinf(ulps)) {
    snprintf(out, 8, "#000000");
    return;
  }
  /* Yellow (255, 237, 160), orange (253, 141, 60), dark red (128, 0, 38). */
  static const double stops[3][3] = {
      {255, 237, 160}, {253, 141, 60}, {128, 0, 38}};
  double t = scale(ulps, top) * 2;
  int i = t >= 1 ? 1 : 0;
  double u = t - i;
  int c[3];
  for (int k = 0; k < 3; ++k)
    c[k] = (int)lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * u);
  snprintf(out, 8, "#%02x%02x%02x", c[0] & 0xff, c[1] & 0xff, c[2] & 0xff);
}

/* The colour of a mark: its error's, or purple when its elements fail
 * with no distance in ulps. */
static void mark_color(double ulps, int fails, double top, char out[8]) {
  if (fails > 0 && !(ulps > 0))
    snprintf(out, 8, "#8250df");
  else
    cuemu__svg_color(ulps, top, out);
}

static void ulps_text(FILE *f, double v) {
  if (isinf(v))
    fputs("inf", f);
  else
    fprintf(f, "%.17g", v);
}

void cuemu__svg_heatmap_write(FILE *f, const double *map, const int *fails,
                              int map_rows, int map_cols, size_t rows,
                              size_t cols) {
  int side = map_rows > map_cols ? map_rows : map_cols;
  int cell = 480 / (side ? side : 1);
  cell = cell < 4 ? 4 : cell > 24 ? 24 : cell;
  int left = 56, top = 24, w = map_cols * cell, h = map_rows * cell;
  int width = left + w + 150, height = top + h + 44;
  double max = finite_top(map, map_rows * map_cols);
  int any_inf = 0;
  for (int k = 0; k < map_rows * map_cols; ++k)
    any_inf |= isinf(map[k]);
  fprintf(f,
          "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" "
          "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
          "data-rows=\"%zu\" data-cols=\"%zu\" role=\"img\">\n",
          width, height, width, height, rows, cols);
  fprintf(f, "<title>error in ulps over the %zu x %zu output</title>\n", rows,
          cols);
  for (int r = 0; r < map_rows; ++r) {
    size_t r0 = cuemu__svg_cell_first(r, rows, map_rows);
    size_t r1 = cuemu__svg_cell_first(r + 1, rows, map_rows) - 1;
    for (int c = 0; c < map_cols; ++c) {
      size_t c0 = cuemu__svg_cell_first(c, cols, map_cols);
      size_t c1 = cuemu__svg_cell_first(c + 1, cols, map_cols) - 1;
      double v = map[r * map_cols + c];
      int bad = fails[r * map_cols + c];
      char color[8];
      mark_color(v, bad, max, color);
      fprintf(f,
              "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
              "height=\"%d\" fill=\"%s\"%s data-row0=\"%zu\" "
              "data-row1=\"%zu\" data-col0=\"%zu\" data-col1=\"%zu\" "
              "data-fails=\"%d\" data-ulps=\"",
              left + c * cell, top + r * cell, cell, cell, color,
              bad ? " stroke=\"#24292f\" stroke-width=\"0.6\"" : "", r0, r1,
              c0, c1, bad);
      ulps_text(f, v);
      fputs("\">", f);
      if (v > 0 || bad) {
        fprintf(f, "<title>rows %zu-%zu, columns %zu-%zu: ", r0, r1, c0, c1);
        ulps_text(f, v);
        fprintf(f, " ulps, %d failing</title>", bad);
      }
      fputs("</rect>\n", f);
    }
  }
  /* Axes: the first and last row and column. */
  fprintf(f,
          "<g font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">\n"
          "<text x=\"%d\" y=\"%d\">column 0</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">row 0</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu</text>\n",
          left, top - 8, left + w, top - 8, cols - 1, left - 4, top + 10,
          left - 4, top + h, rows - 1);
  /* The scale: a few steps from 1 ulp to the largest error. */
  int lx = left + w + 16;
  fprintf(f, "<text x=\"%d\" y=\"%d\">ulps</text>\n", lx, top + 10);
  double steps[5] = {0, 1, 0, 0, max};
  steps[2] = max > 1 ? exp(log1p(max) / 3) - 1 : 0;
  steps[3] = max > 1 ? exp(2 * log1p(max) / 3) - 1 : 0;
  int shown = 0;
  for (int i = 0; i < 5; ++i) {
    if (i > 0 && (steps[i] > max || steps[i] <= steps[i - 1]))
      continue;
    char color[8];
    cuemu__svg_color(steps[i], max, color);
    int y = top + 20 + shown * 18;
    fprintf(f,
            "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"14\" "
            "height=\"14\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%.3g</text>\n",
            lx, y, color, lx + 20, y + 11, steps[i]);
    shown++;
  }
  if (any_inf) {
    int y = top + 20 + shown++ * 18;
    fprintf(f,
            "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"14\" "
            "height=\"14\" fill=\"#000000\"/><text x=\"%d\" y=\"%d\">NaN or "
            "inf</text>\n",
            lx, y, lx + 20, y + 11);
  }
  int y = top + 20 + shown * 18;
  fprintf(f,
          "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"14\" "
          "height=\"14\" fill=\"#8250df\"/><text x=\"%d\" y=\"%d\">bits "
          "only</text>\n"
          "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"14\" "
          "height=\"14\" fill=\"#ffffff\" stroke=\"#24292f\"/><text "
          "x=\"%d\" y=\"%d\">fails</text>\n",
          lx, y, lx + 20, y + 11, lx, y + 18, lx + 20, y + 29);
  fputs("</g>\n</svg>\n", f);
}

void cuemu__svg_profile_write(FILE *f, const double *map, const int *fails,
                              int cells, size_t count) {
  int left = 56, top = 16, w = 640, h = 180;
  int width = left + w + 20, height = top + h + 40;
  double max = finite_top(map, cells);
  double bar = (double)w / (cells ? cells : 1);
  fprintf(f,
          "<svg class=\"profile\" xmlns=\"http://www.w3.org/2000/svg\" "
          "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
          "data-count=\"%zu\" role=\"img\">\n",
          width, height, width, height, count);
  fprintf(f, "<title>error in ulps against the index (%zu elements)</title>\n",
          count);
  fprintf(f,
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
          "stroke=\"#999\"/>\n",
          left, top, w, h);
  for (int k = 0; k < cells; ++k) {
    size_t first = cuemu__svg_cell_first(k, count, cells);
    size_t last = cuemu__svg_cell_first(k + 1, count, cells) - 1;
    double v = map[k];
    int bad = fails[k];
    double bh = scale(v, max) * h;
    if (bad && bh < 6)
      bh = 6; /* failing with no distance: a short purple bar */
    char color[8];
    mark_color(v, bad, max, color);
    /* A bar that is off stays visible however many bars there are. */
    double bw = bar > 1.5 ? bar - 0.5 : bar;
    if ((v > 0 || bad) && bw < 3)
      bw = 3;
    double x = left + k * bar;
    if (x + bw > left + w)
      x = left + w - bw;
    fprintf(f,
            "<rect class=\"bin\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
            "height=\"%.2f\" fill=\"%s\"%s data-first=\"%zu\" "
            "data-last=\"%zu\" data-fails=\"%d\" data-ulps=\"",
            x, top + h - bh, bw, bh, color,
            bad ? " stroke=\"#24292f\" stroke-width=\"0.6\"" : "", first, last,
            bad);
    ulps_text(f, v);
    fputs("\">", f);
    if (v > 0 || bad) {
      fprintf(f, "<title>elements %zu-%zu: ", first, last);
      ulps_text(f, v);
      fprintf(f, " ulps, %d failing</title>", bad);
    }
    fputs("</rect>\n", f);
  }
  fprintf(f,
          "<g font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\">\n"
          "<text x=\"%d\" y=\"%d\">0</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">index</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.3g</text>\n"
          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n"
          "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
          "text-anchor=\"middle\">ulps (log scale)</text>\n"
          "</g>\n</svg>\n",
          left, top + h + 14, left + w, top + h + 14, count ? count - 1 : 0,
          left + w / 2, top + h + 30, left - 4, top + 10, max, left - 4,
          top + h, top + h / 2, top + h / 2);
}
