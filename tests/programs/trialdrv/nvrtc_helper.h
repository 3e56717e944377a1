// nvrtc_helper.h: NVRTC error checks and the program log.
#pragma once
#include <nvrtc.h>
#include <string>
#include <vector>
#include <cstdio>
#include <cstdlib>
#define NVRTC_SAFE_CALL(x)                                                         \
  do {                                                                             \
    nvrtcResult result = x;                                                        \
    if (result != NVRTC_SUCCESS) {                                                 \
      fprintf(stderr, "\nerror: %s failed with error %s\n", #x, nvrtcGetErrorString(result)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

inline std::string program_log(nvrtcProgram prog) {
  size_t n = 0;
  NVRTC_SAFE_CALL(nvrtcGetProgramLogSize(prog, &n));
  std::string log(n, '\0');
  NVRTC_SAFE_CALL(nvrtcGetProgramLog(prog, &log[0]));
  return log;
}
