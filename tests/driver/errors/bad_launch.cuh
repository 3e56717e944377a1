/* bad_launch.cuh: a launch that cannot be translated, in a header. */
template <typename T> void bad_launch(T *p) {
  kernel<<<1, 1(p);
}
