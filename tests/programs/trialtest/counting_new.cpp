// counting_new.cpp: the replacements of the global operators new and delete
// of host_std_copies.cu, which count their calls (a leak counter).
#include <cstdlib>
#include <new>

static long g_news, g_deletes;

long allocation_news() { return g_news; }
long allocation_deletes() { return g_deletes; }

void* operator new(std::size_t n) {
  ++g_news;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  if (p) ++g_deletes;
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  if (p) ++g_deletes;
  std::free(p);
}

