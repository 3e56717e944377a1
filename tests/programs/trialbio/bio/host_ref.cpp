// host_ref.cpp: the host dynamic programs and the scoring matrix.
#include "host_ref.h"
#include <algorithm>
#include <climits>

static const char kAlpha[] = "ARNDCQEGHILKMFPS";

void make_blosum_like(int8_t* matrix) {
  // Our own symmetric BLOSUM62-like values: a strong diagonal, mild
  // similarity between neighbours of the alphabet, negatives elsewhere.
  for (int a = 0; a < SW_ALPHA; ++a)
    for (int b = 0; b < SW_ALPHA; ++b) {
      int v;
      if (a == b) v = 4 + (a * 7) % 6;
      else if ((a ^ b) == 1) v = 1;
      else if ((a + b) % 5 == 0) v = 0;
      else v = -1 - (a + 2 * b + 2 * a * b) % 3;
      matrix[a * SW_ALPHA + b] = (int8_t)v;
    }
  for (int a = 0; a < SW_ALPHA; ++a)
    for (int b = 0; b < a; ++b) matrix[b * SW_ALPHA + a] = matrix[a * SW_ALPHA + b];
}

SwResult host_sw(const uint8_t* q, int m, const uint8_t* t, int n, const int8_t* subst,
                 SwScoring sc, std::string* aq, std::string* at) {
  const int neg = INT_MIN / 4;
  const int w = n + 1;
  std::vector<int> H((m + 1) * w, 0), E((m + 1) * w, neg), F((m + 1) * w, neg);
  SwResult best{0, -1, -1};
  for (int i = 1; i <= m; ++i)
    for (int j = 1; j <= n; ++j) {
      int e = std::max(E[i * w + j - 1] - sc.gap_extend, H[i * w + j - 1] - sc.gap_open);
      int f = std::max(F[(i - 1) * w + j] - sc.gap_extend, H[(i - 1) * w + j] - sc.gap_open);
      int h = std::max(0, H[(i - 1) * w + j - 1] + subst[q[i - 1] * SW_ALPHA + t[j - 1]]);
      h = std::max(h, std::max(e, f));
      E[i * w + j] = e;
      F[i * w + j] = f;
      H[i * w + j] = h;
      if (h > best.score) best = SwResult{h, i - 1, j - 1};
    }
  if (aq && at) {
    aq->clear();
    at->clear();
    int i = best.query_end + 1, j = best.target_end + 1;
    int state = 0;  // 0: H, 1: E (gap in query), 2: F (gap in target)
    while (i > 0 && j > 0) {
      if (state == 0) {
        const int h = H[i * w + j];
        if (h == 0) break;
        if (h == H[(i - 1) * w + j - 1] + subst[q[i - 1] * SW_ALPHA + t[j - 1]]) {
          aq->push_back(kAlpha[q[i - 1]]);
          at->push_back(kAlpha[t[j - 1]]);
          --i, --j;
        } else if (h == E[i * w + j]) {
          state = 1;
        } else {
          state = 2;
        }
      } else if (state == 1) {
        const int e = E[i * w + j];
        aq->push_back('-');
        at->push_back(kAlpha[t[j - 1]]);
        state = (e == H[i * w + j - 1] - sc.gap_open) ? 0 : 1;
        --j;
      } else {
        const int f = F[i * w + j];
        aq->push_back(kAlpha[q[i - 1]]);
        at->push_back('-');
        state = (f == H[(i - 1) * w + j] - sc.gap_open) ? 0 : 2;
        --i;
      }
    }
    std::reverse(aq->begin(), aq->end());
    std::reverse(at->begin(), at->end());
  }
  return best;
}

int host_score_alignment(const std::string& aq, const std::string& at, const int8_t* subst,
                         SwScoring sc) {
  auto code = [](char c) { return (int)(std::find(kAlpha, kAlpha + SW_ALPHA, c) - kAlpha); };
  int score = 0;
  int gap = 0;  // 1: in a gap of the query, 2: of the target
  for (size_t k = 0; k < aq.size(); ++k) {
    if (aq[k] == '-' || at[k] == '-') {
      const int kind = aq[k] == '-' ? 1 : 2;
      score -= (gap == kind) ? sc.gap_extend : sc.gap_open;
      gap = kind;
    } else {
      score += subst[code(aq[k]) * SW_ALPHA + code(at[k])];
      gap = 0;
    }
  }
  return score;
}
