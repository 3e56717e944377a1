// The D2Q9 lattice, shared by host reference and device code.
#ifndef CFD_LATTICE_H
#define CFD_LATTICE_H

namespace cfd {
namespace d2q9 {

constexpr int Q = 9;
//                         0  1  2   3   4  5   6   7   8
constexpr int ex[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
constexpr int ey[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
constexpr int opposite[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
constexpr double w[Q] = {4.0 / 9,  1.0 / 9,  1.0 / 9,  1.0 / 9, 1.0 / 9,
                         1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};

} // namespace d2q9
} // namespace cfd

#endif // CFD_LATTICE_H
