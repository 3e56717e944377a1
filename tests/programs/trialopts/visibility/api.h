/* api.h: a library's export macro, as shared libraries define it: default
 * visibility for the API, the rest hidden by -fvisibility=hidden. */
#pragma once
#define LIB_API __attribute__((visibility("default")))
LIB_API int lib_sum_squares(int n);
LIB_API extern int lib_launches;
