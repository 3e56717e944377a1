// A constexpr template with a local of non-literal type is no constant
// expression: nvcc 13 refuses its call where a constant is needed (lines
// 11 and 12), and so must cuemu-nvcc once it compiles the template again
// without `constexpr` (tests/driver_dialect.sh).
struct tally {
  tally() {}
  int v = 1;
};
template <class U> constexpr int plus_one(U u) { tally const t{}; return t.v + u; }
int main() {
  constexpr int two = plus_one(1);
  static_assert(plus_one(2) == 3, "not a constant");
  return two + plus_one(0);
}
