#pragma once
struct Options {
  int n = 1 << 16;
  int iters = 10;
  bool update = false;
  bool verbose = false;
};
bool parse_options(int argc, char **argv, Options &opt);
