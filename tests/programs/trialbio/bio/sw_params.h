// sw_params.h: the scoring scheme and the host interface of the aligners.
#ifndef TRIALBIO_SW_PARAMS_H
#define TRIALBIO_SW_PARAMS_H
#include <cstdint>

#define SW_ALPHA 16       // reduced protein alphabet, 4 bits per residue
#define SW_MAX_QUERY 32   // one warp lane per query residue (intra-task)
#define SW_MAX_TARGET 96

struct SwScoring {
  int gap_open;    // the first residue of a gap
  int gap_extend;  // each further residue
};

struct SwResult {
  int score;
  int query_end;   // row of the best cell (0-based residue index)
  int target_end;  // column of the best cell
};

// A batch of pairs, packed 8 residues per word, each sequence at a fixed
// stride of words.
struct SwBatch {
  const uint32_t* query;
  const uint32_t* target;
  const int* query_len;
  const int* target_len;
  int stride_words;
  int pairs;
};

void sw_upload_matrix(const int8_t* matrix /* SW_ALPHA*SW_ALPHA */);
float sw_align_inter(const SwBatch& batch, SwScoring sc, SwResult* d_out);
float sw_align_intra(const SwBatch& batch, SwScoring sc, SwResult* d_out);

#endif  // TRIALBIO_SW_PARAMS_H
