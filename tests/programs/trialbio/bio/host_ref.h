// host_ref.h: the host reference computations the programs check against.
#ifndef TRIALBIO_HOST_REF_H
#define TRIALBIO_HOST_REF_H
#include <cstdint>
#include <string>
#include <vector>
#include "sw_params.h"

// Gotoh local alignment; returns the best cell and fills the aligned strings
// (gaps as '-') by a traceback from it.
SwResult host_sw(const uint8_t* q, int m, const uint8_t* t, int n, const int8_t* subst,
                 SwScoring sc, std::string* aq, std::string* at);
// Scores an alignment given as two gapped rows.
int host_score_alignment(const std::string& aq, const std::string& at, const int8_t* subst,
                         SwScoring sc);
void make_blosum_like(int8_t* matrix);

#endif  // TRIALBIO_HOST_REF_H
