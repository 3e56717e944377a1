#include "options.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>

bool parse_options(int argc, char **argv, Options &opt) {
  static const option longopts[] = {{"n", required_argument, nullptr, 'n'},
                                    {"iters", required_argument, nullptr, 'i'},
                                    {"update", no_argument, nullptr, 'u'},
                                    {"verbose", no_argument, nullptr, 'v'},
                                    {nullptr, 0, nullptr, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "n:i:uv", longopts, nullptr)) != -1) {
    switch (c) {
    case 'n': opt.n = std::atoi(optarg); break;
    case 'i': opt.iters = std::atoi(optarg); break;
    case 'u': opt.update = true; break;
    case 'v': opt.verbose = true; break;
    default:
      std::fprintf(stderr, "usage: %s [-n N] [--iters K] [--update]\n", argv[0]);
      return false;
    }
  }
  return opt.n > 0 && opt.iters > 0;
}
