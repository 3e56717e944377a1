// csr_graph.h: a host CSR graph (its implementation inline, so that each
// test program is one source), loaded from Matrix Market or DIMACS files,
// or generated (RMAT, 2D grid). Host-only code, included by .cu and .cpp.
#ifndef TRIALGRAPH_CSR_GRAPH_H
#define TRIALGRAPH_CSR_GRAPH_H
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <random>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

typedef int32_t index_t;
typedef int32_t weight_t;

struct CsrGraph {
  index_t nnodes = 0;
  index_t nedges = 0;
  std::vector<index_t> row_start;  // nnodes + 1
  std::vector<index_t> edge_dst;   // nedges
  std::vector<weight_t> edge_wt;   // nedges

  index_t degree(index_t v) const { return row_start[v + 1] - row_start[v]; }
};

struct Edge { index_t src, dst; weight_t w; };

// The test graphs, as the files data/small.mtx and data/small.gr hold
// them; the loader reads them from a temporary file, so that the programs
// run from any folder.
inline std::string trial_data_path(const char *name) {
  static const char small_mtx[] = R"(%%MatrixMarket matrix coordinate pattern symmetric
% two components: a 9-node mesh with triangles and a 4-cycle with a chord
13 13 19
2 1
3 1
3 2
4 2
5 3
5 4
6 4
6 5
7 5
8 6
8 7
9 7
9 8
11 10
12 11
13 12
10 13
12 10
4 3
)";
  static const char small_gr[] = R"(c DIMACS shortest-path test graph
c 10 nodes, 24 arcs
p sp 10 24
a 1 2 4
a 1 3 1
a 3 2 2
a 2 4 5
a 3 4 8
a 3 5 10
a 4 5 2
a 4 6 6
a 5 6 2
a 6 7 1
a 7 8 3
a 5 8 9
a 8 9 1
a 9 10 2
a 6 10 11
a 2 1 4
a 3 1 1
a 4 2 5
a 5 4 2
a 6 5 2
a 7 6 1
a 8 7 3
a 9 8 1
a 10 9 2
)";
  const bool is_mtx = std::strstr(name, ".mtx") != nullptr;
  char path[64];
  std::snprintf(path, sizeof path, "/tmp/trialgraph.XXXXXX%s", is_mtx ? ".mtx" : ".gr");
  int fd = mkstemps(path, is_mtx ? 4 : 3);
  if (fd < 0) return name;
  FILE *f = fdopen(fd, "w");
  std::fputs(is_mtx ? small_mtx : small_gr, f);
  std::fclose(f);
  return path;
}

// Builds a CSR graph from an edge list; duplicate edges and self loops are
// removed; adjacency lists are sorted by destination.
CsrGraph build_csr(index_t nnodes, std::vector<Edge> edges, bool symmetrize);

// Readers return false (and print why) on a malformed file.
bool read_mtx(const std::string &path, CsrGraph &g);
bool read_dimacs_gr(const std::string &path, CsrGraph &g);
CsrGraph make_rmat(int scale, int edge_factor, unsigned seed);
CsrGraph make_grid2d(int width, int height);

// Loads the graph named on the command line, or a default one.
CsrGraph load_graph_from_args(int argc, char **argv, const char *fallback);


inline CsrGraph build_csr(index_t nnodes, std::vector<Edge> edges, bool symmetrize) {
  if (symmetrize) {
    size_t n = edges.size();
    for (size_t i = 0; i < n; ++i)
      edges.push_back(Edge{edges[i].dst, edges[i].src, edges[i].w});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge &a, const Edge &b) {
    return a.src != b.src ? a.src < b.src : (a.dst != b.dst ? a.dst < b.dst : a.w < b.w);
  });
  CsrGraph g;
  g.nnodes = nnodes;
  g.row_start.assign(nnodes + 1, 0);
  index_t last_s = -1, last_d = -1;
  for (const Edge &e : edges) {
    if (e.src == e.dst) continue;
    if (e.src == last_s && e.dst == last_d) continue;
    last_s = e.src; last_d = e.dst;
    g.edge_dst.push_back(e.dst);
    g.edge_wt.push_back(e.w);
    g.row_start[e.src + 1]++;
  }
  for (index_t v = 0; v < nnodes; ++v) g.row_start[v + 1] += g.row_start[v];
  g.nedges = (index_t)g.edge_dst.size();
  return g;
}

inline bool read_mtx(const std::string &path, CsrGraph &g) {
  std::ifstream in(path);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", path.c_str()); return false; }
  std::string line;
  std::getline(in, line);
  if (line.rfind("%%MatrixMarket", 0) != 0) { std::fprintf(stderr, "%s: not Matrix Market\n", path.c_str()); return false; }
  bool symmetric = line.find("symmetric") != std::string::npos;
  bool pattern = line.find("pattern") != std::string::npos;
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {}
  long rows, cols, nnz;
  if (std::sscanf(line.c_str(), "%ld %ld %ld", &rows, &cols, &nnz) != 3) return false;
  std::vector<Edge> edges;
  for (long i = 0; i < nnz; ++i) {
    long r, c; double val = 1;
    if (!(in >> r >> c)) return false;
    if (!pattern) in >> val;
    edges.push_back(Edge{(index_t)(r - 1), (index_t)(c - 1), (weight_t)val});
  }
  g = build_csr((index_t)rows, edges, symmetric);
  return true;
}

inline bool read_dimacs_gr(const std::string &path, CsrGraph &g) {
  std::ifstream in(path);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", path.c_str()); return false; }
  std::string line;
  long n = 0, m = 0;
  std::vector<Edge> edges;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == 'c') continue;
    if (line[0] == 'p') {
      char kind[8];
      if (std::sscanf(line.c_str(), "p %7s %ld %ld", kind, &n, &m) != 3) return false;
      edges.reserve(m);
    } else if (line[0] == 'a') {
      long u, v, w;
      if (std::sscanf(line.c_str(), "a %ld %ld %ld", &u, &v, &w) != 3) return false;
      edges.push_back(Edge{(index_t)(u - 1), (index_t)(v - 1), (weight_t)w});
    }
  }
  if ((long)edges.size() != m) { std::fprintf(stderr, "%s: %zu arcs, header says %ld\n", path.c_str(), edges.size(), m); return false; }
  g = build_csr((index_t)n, edges, false);
  return true;
}

inline CsrGraph make_rmat(int scale, int edge_factor, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::uniform_int_distribution<int> W(1, 64);
  const double a = 0.57, b = 0.19, c = 0.19;
  index_t n = (index_t)1 << scale;
  std::vector<Edge> edges;
  for (long e = 0; e < (long)n * edge_factor; ++e) {
    index_t u = 0, v = 0;
    for (int bit = scale - 1; bit >= 0; --bit) {
      double r = U(rng);
      if (r < a) {
      } else if (r < a + b) { v |= 1 << bit; }
      else if (r < a + b + c) { u |= 1 << bit; }
      else { u |= 1 << bit; v |= 1 << bit; }
    }
    edges.push_back(Edge{u, v, W(rng)});
  }
  return build_csr(n, edges, true);
}

inline CsrGraph make_grid2d(int width, int height) {
  std::vector<Edge> edges;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      index_t v = y * width + x;
      if (x + 1 < width) edges.push_back(Edge{v, v + 1, 1 + (x * 7 + y) % 5});
      if (y + 1 < height) edges.push_back(Edge{v, v + width, 1 + (x + y * 3) % 7});
    }
  return build_csr(width * height, edges, true);
}

inline bool ends_with(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

inline CsrGraph load_graph_from_args(int argc, char **argv, const char *fallback) {
  std::string spec = argc > 1 ? argv[1] : fallback;
  std::string temporary;
  if (spec.rfind("data/", 0) == 0) spec = temporary = trial_data_path(spec.c_str());
  CsrGraph g;
  if (spec.rfind("rmat:", 0) == 0) {
    int scale = 10, ef = 8;
    std::sscanf(spec.c_str() + 5, "%d:%d", &scale, &ef);
    g = make_rmat(scale, ef, 12345u);
  } else if (spec.rfind("grid:", 0) == 0) {
    int w = 32, h = 32;
    std::sscanf(spec.c_str() + 5, "%dx%d", &w, &h);
    g = make_grid2d(w, h);
  } else if (ends_with(spec, ".mtx")) {
    if (!read_mtx(spec, g)) std::exit(2);
  } else if (ends_with(spec, ".gr")) {
    if (!read_dimacs_gr(spec, g)) std::exit(2);
  } else {
    std::fprintf(stderr, "unknown graph spec %s\n", spec.c_str());
    std::exit(2);
  }
  if (!temporary.empty()) unlink(temporary.c_str());
  std::printf("graph %s: %d nodes, %d edges\n", spec.c_str(), g.nnodes, g.nedges);
  return g;
}

#endif  // TRIALGRAPH_CSR_GRAPH_H
