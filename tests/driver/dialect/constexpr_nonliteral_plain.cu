// What nvcc 13 refuses of a local of non-literal type in a constexpr
// function that is no template itself nor a class template's member: a
// plain function (line 11), a plain lambda in a function template (14) and
// a member of a local class in a function template (17), each at its
// variable (tests/driver_dialect.sh). nvcc reports line 11 alone, as it
// instantiates no template after an error; without it, lines 14 and 17.
struct tally {
  tally() {}
  int v = 1;
};
constexpr int plain(int u) { tally const t{}; return t.v + u; }
template <class T> int holder(T x) {
  auto lambda = [](int u) constexpr {
    tally const t{};
    return t.v + u;
  };
  struct local { constexpr int f(int u) const { tally const t{}; return t.v + u; } };
  return lambda(x) + local{}.f(x);
}
int main() { return plain(1) + holder(1); }
