// unnamed.h: a header's unnamed namespace (included as a system header).
namespace {
inline int unnamed_value() { return 41; }
int unnamed_counter = 1;
} // namespace
