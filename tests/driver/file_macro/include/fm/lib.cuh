// lib.cuh: a header of the -I folder.
#pragma once
inline const char *lib_file() { return __FILE__; }
