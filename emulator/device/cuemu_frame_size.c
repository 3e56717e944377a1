/*
 * cuemu_frame_size.c: the static stack frame of a compiled function, read
 * from the unwind information the compiler wrote for it (see
 * cuemu_frame_size.h).
 *
 * The function's FDE is found through the .eh_frame_hdr search table of
 * the object that holds it (PT_GNU_EH_FRAME), and its call-frame
 * instructions are run: while the CFA is the stack pointer plus an offset,
 * the offset grows with each push and stack adjustment of the prologue.
 * The frame is the largest such offset less the offset at the function's
 * entry (the return address, on x86-64).
 *
 * On x86-64 two things are not in the unwind information, and are added so
 * that the figure is never less than the frame really takes of the stack:
 * - a function whose CFA moves to the frame pointer (code built without
 *   optimisation, or with an over-aligned local or a variable-length
 *   array) makes the rest of its frame with instructions the unwind table
 *   does not describe: its prologue is decoded (pushes, `mov %rsp,%rbp`,
 *   `and $-N,%rsp`, `sub $N,%rsp`) up to the first other instruction;
 * - the ABI lets any function use the 128 bytes below its stack pointer
 *   (the red zone), which compilers do in functions that call none, so
 *   they are counted always.
 */
#define _GNU_SOURCE
#include "device/cuemu_frame_size.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define SP_REGISTER 7
#define FP_REGISTER 6
#define RED_ZONE 128
#elif defined(__aarch64__)
#define SP_REGISTER 31
#elif defined(__i386__)
#define SP_REGISTER 4
#else
#define SP_REGISTER (-1)
#endif

/* DW_EH_PE_* pointer encodings. */
enum {
  PE_ABSPTR = 0x00,
  PE_ULEB128 = 0x01,
  PE_UDATA2 = 0x02,
  PE_UDATA4 = 0x03,
  PE_UDATA8 = 0x04,
  PE_SLEB128 = 0x09,
  PE_SDATA2 = 0x0a,
  PE_SDATA4 = 0x0b,
  PE_SDATA8 = 0x0c,
  PE_PCREL = 0x10,
  PE_DATAREL = 0x30,
  PE_INDIRECT = 0x80,
  PE_OMIT = 0xff
};

typedef struct reader {
  const unsigned char *p, *end;
  int bad;
} reader;

static uint64_t uleb(reader *r) {
  uint64_t v = 0;
  unsigned shift = 0;
  while (r->p < r->end) {
    unsigned char b = *r->p++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80))
      return v;
  }
  r->bad = 1;
  return 0;
}

static int64_t sleb(reader *r) {
  int64_t v = 0;
  unsigned shift = 0;
  unsigned char b = 0;
  while (r->p < r->end) {
    b = *r->p++;
    if (shift < 64)
      v |= (int64_t)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 64 && (b & 0x40))
        v |= -((int64_t)1 << shift);
      return v;
    }
  }
  r->bad = 1;
  return 0;
}

static uint64_t fixed(reader *r, size_t n) {
  uint64_t v = 0;
  if ((size_t)(r->end - r->p) < n) {
    r->bad = 1;
    return 0;
  }
  memcpy(&v, r->p, n); /* little-endian machines only, as the ABIs above */
  r->p += n;
  return v;
}

/* An encoded pointer; `data` is the base of DW_EH_PE_datarel. */
static uintptr_t pointer(reader *r, int encoding, uintptr_t data) {
  if (encoding == PE_OMIT)
    return 0;
  uintptr_t at = (uintptr_t)r->p;
  uint64_t v;
  switch (encoding & 0x0f) {
  case PE_ABSPTR: v = fixed(r, sizeof(void *)); break;
  case PE_ULEB128: v = uleb(r); break;
  case PE_UDATA2: v = fixed(r, 2); break;
  case PE_UDATA4: v = fixed(r, 4); break;
  case PE_UDATA8: v = fixed(r, 8); break;
  case PE_SLEB128: v = (uint64_t)sleb(r); break;
  case PE_SDATA2: v = (uint64_t)(int64_t)(int16_t)fixed(r, 2); break;
  case PE_SDATA4: v = (uint64_t)(int64_t)(int32_t)fixed(r, 4); break;
  case PE_SDATA8: v = fixed(r, 8); break;
  default: r->bad = 1; return 0;
  }
  if ((encoding & 0x70) == PE_PCREL)
    v += at;
  else if ((encoding & 0x70) == PE_DATAREL)
    v += data;
  if (encoding & PE_INDIRECT)
    v = *(const uintptr_t *)(uintptr_t)v;
  return (uintptr_t)v;
}

/* The size of a value in an encoding, without reading it (the FDE's range
 * has the format of its start without the relative part). */
static uintptr_t range(reader *r, int encoding) {
  return pointer(r, encoding & 0x0f, 0);
}

/* A reader of the CIE or FDE at `at` (its length, then its id), or -1 for
 * an end marker or a 64-bit entry (which compilers do not write). */
static int open_entry(const unsigned char *at, reader *r, uint64_t *id) {
  r->p = at;
  r->end = at + 4;
  r->bad = 0;
  uint64_t length = fixed(r, 4);
  if (length == 0 || length == 0xffffffffu)
    return -1;
  r->end = at + 4 + length;
  *id = fixed(r, 4);
  return 0;
}

/* The CIE fields that the FDE's instructions need. */
typedef struct cie {
  int64_t data_align;
  int fde_encoding;
  int has_augmentation_data;
  const unsigned char *instructions, *end;
} cie;

static int read_cie(const unsigned char *at, cie *c) {
  reader r;
  uint64_t id;
  if (open_entry(at, &r, &id) != 0 || id != 0) /* a CIE's id is 0 */
    return -1;
  int version = (int)fixed(&r, 1);
  const char *aug = (const char *)r.p;
  const unsigned char *nul = memchr(r.p, '\0', (size_t)(r.end - r.p));
  if (!nul)
    return -1;
  r.p = nul + 1;
  if (strstr(aug, "eh"))
    r.p += sizeof(void *);
  uleb(&r); /* code alignment */
  c->data_align = sleb(&r);
  if (version == 1)
    fixed(&r, 1);
  else
    uleb(&r); /* the return address register */
  c->fde_encoding = PE_ABSPTR;
  c->has_augmentation_data = aug[0] == 'z';
  if (c->has_augmentation_data) {
    uint64_t n = uleb(&r);
    const unsigned char *after = r.p + n;
    for (const char *a = aug + 1; *a && !r.bad && r.p < after; ++a) {
      if (*a == 'R')
        c->fde_encoding = (int)fixed(&r, 1);
      else if (*a == 'P')
        pointer(&r, (int)fixed(&r, 1), 0);
      else if (*a == 'L')
        fixed(&r, 1);
    }
    r.p = after;
  }
  c->instructions = r.p;
  c->end = r.end;
  return r.bad || r.p > r.end ? -1 : 0;
}

/* The CFA rule while the instructions run: register and offset, with a
 * stack for DW_CFA_remember_state. */
typedef struct cfa_state {
  int64_t reg, offset;
} cfa_state;

typedef struct frame_run {
  cfa_state now, saved[8];
  int depth;
  int64_t largest; /* the largest stack-pointer offset */
  int framed;      /* the CFA moved to the frame pointer */
} frame_run;

static void note(frame_run *f) {
  if (f->now.reg == SP_REGISTER && f->now.offset > f->largest)
    f->largest = f->now.offset;
#ifdef FP_REGISTER
  if (f->now.reg == FP_REGISTER)
    f->framed = 1;
#endif
}

#ifdef FP_REGISTER
/* Non-zero for a move between registers (an optional REX prefix, 89 or 8b,
 * a register operand) that does not write %rsp. */
static int reg_move(const unsigned char *p) {
  unsigned rex = (p[0] & 0xf0) == 0x40 ? p[0] : 0;
  const unsigned char *op = rex ? p + 1 : p;
  if ((op[0] != 0x89 && op[0] != 0x8b) || (op[1] & 0xc0) != 0xc0)
    return 0;
  /* 89: the destination is r/m (extended by REX.B); 8b: reg (REX.R). */
  unsigned dest = op[0] == 0x89 ? (op[1] & 7u) | ((rex & 1u) << 3)
                                : ((op[1] >> 3) & 7u) | ((rex & 4u) << 1);
  return dest != 4;
}

/* The stack probes of -fstack-clash-protection (on by default in many
 * distributions' compilers), which a frame larger than a page is made
 * with: orq $0x0,(%rsp) after each page of an unrolled prologue, and the
 * loop sub $0x1000,%rsp; orq $0x0,(%rsp); cmp %r11,%rsp; jne back. */
static const unsigned char PROBE[] = {0x48, 0x83, 0x0c, 0x24, 0x00};
static const unsigned char PROBE_LOOP[] = {
    0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00, 0x48, 0x83,
    0x0c, 0x24, 0x00, 0x4c, 0x39, 0xdc, 0x75, 0xef};

/* The bytes an x86-64 prologue at `p` takes of the stack (pushes, the
 * realignment's worst case, the adjustment, the pages a probing prologue
 * adds), decoded up to the first instruction that is none of these. */
static int64_t prologue_bytes(const unsigned char *p) {
  int64_t total = 0;
  for (int steps = 0; steps < 24; ++steps) {
    if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa) {
      p += 4; /* endbr64 */
    } else if (p[0] >= 0x50 && p[0] <= 0x57) {
      total += 8; /* push %rax..%rdi */
      p += 1;
    } else if (p[0] == 0x41 && p[1] >= 0x50 && p[1] <= 0x57) {
      total += 8; /* push %r8..%r15 */
      p += 2;
    } else if (reg_move(p)) {
      /* mov %rsp,%rbp, or a move between other registers that the
       * compiler scheduled into the prologue */
      p += (p[0] & 0xf0) == 0x40 ? 3 : 2;
    } else if (p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xec) {
      total += (int8_t)p[3]; /* sub $imm8,%rsp */
      p += 4;
    } else if (p[0] == 0x48 && p[1] == 0x81 && p[2] == 0xec) {
      int32_t imm;
      memcpy(&imm, p + 3, 4); /* sub $imm32,%rsp */
      total += imm;
      p += 7;
    } else if (p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xe4) {
      int64_t align = -(int64_t)(int8_t)p[3]; /* and $-align,%rsp */
      if (align > 8)
        total += align - 8; /* %rsp is 8-aligned before */
      p += 4;
    } else if (memcmp(p, PROBE, sizeof PROBE) == 0) {
      p += sizeof PROBE; /* a stack probe: orq $0x0,(%rsp) */
    } else if (p[0] == 0x4c && p[1] == 0x8d && p[2] == 0x9c && p[3] == 0x24 &&
               memcmp(p + 8, PROBE_LOOP, sizeof PROBE_LOOP) == 0) {
      /* -fstack-clash-protection's loop for a large frame: lea
       * -N(%rsp),%r11, then a page at a time (sub $0x1000,%rsp; a probe)
       * until %rsp is %r11; the rest by a sub that follows. */
      int32_t disp;
      memcpy(&disp, p + 4, 4);
      total -= disp;
      p += 8 + sizeof PROBE_LOOP;
    } else {
      break;
    }
  }
  return total;
}
#endif

/* Runs call-frame instructions, tracking the CFA. -1 for one it does not
 * know. */
static int run(frame_run *f, const unsigned char *p, const unsigned char *end,
               int64_t data_align, int encoding) {
  reader r = {p, end, 0};
  while (r.p < r.end && !r.bad) {
    unsigned op = *r.p++;
    switch (op & 0xc0) {
    case 0x40: continue;          /* advance_loc */
    case 0x80: uleb(&r); continue; /* offset */
    case 0xc0: continue;          /* restore */
    default: break;
    }
    switch (op) {
    case 0x00: break;                                   /* nop */
    case 0x01: pointer(&r, encoding, 0); break;         /* set_loc */
    case 0x02: fixed(&r, 1); break;                     /* advance_loc1 */
    case 0x03: fixed(&r, 2); break;                     /* advance_loc2 */
    case 0x04: fixed(&r, 4); break;                     /* advance_loc4 */
    case 0x05: uleb(&r); uleb(&r); break;               /* offset_extended */
    case 0x06: case 0x07: case 0x08: uleb(&r); break;   /* restore_ext, undefined, same_value */
    case 0x09: uleb(&r); uleb(&r); break;               /* register */
    case 0x0a:                                          /* remember_state */
      if (f->depth < 8)
        f->saved[f->depth++] = f->now;
      break;
    case 0x0b:                                          /* restore_state */
      if (f->depth > 0)
        f->now = f->saved[--f->depth];
      break;
    case 0x0c:                                          /* def_cfa */
      f->now.reg = (int64_t)uleb(&r);
      f->now.offset = (int64_t)uleb(&r);
      break;
    case 0x0d: f->now.reg = (int64_t)uleb(&r); break;   /* def_cfa_register */
    case 0x0e: f->now.offset = (int64_t)uleb(&r); break; /* def_cfa_offset */
    case 0x0f:                                          /* def_cfa_expression */
      f->now.reg = -1;
      r.p += uleb(&r);
      break;
    case 0x10: case 0x16:                               /* expression, val_expression */
      uleb(&r);
      r.p += uleb(&r);
      break;
    case 0x11: case 0x15: uleb(&r); sleb(&r); break;    /* offset_extended_sf, val_offset_sf */
    case 0x12:                                          /* def_cfa_sf */
      f->now.reg = (int64_t)uleb(&r);
      f->now.offset = sleb(&r) * data_align;
      break;
    case 0x13: f->now.offset = sleb(&r) * data_align; break; /* def_cfa_offset_sf */
    case 0x14: uleb(&r); uleb(&r); break;               /* val_offset */
    case 0x2d: break;                                   /* AArch64 negate_ra_state */
    case 0x2e: uleb(&r); break;                         /* GNU_args_size */
    case 0x2f: uleb(&r); uleb(&r); break;               /* GNU_negative_offset_extended */
    default: return -1;
    }
    note(f);
  }
  return r.bad ? -1 : 0;
}

typedef struct lookup {
  uintptr_t pc;
  size_t size;
  int found;
  uintptr_t start; /* the function's first instruction */
  uintptr_t range; /* and its code's bytes */
} lookup;

/* The frame of the FDE at `at` when it covers l->pc. */
static int frame_of_fde(const unsigned char *at, lookup *l) {
  reader r;
  uint64_t id;
  const unsigned char *id_at = at + 4; /* the CIE is `id` bytes before */
  if (open_entry(at, &r, &id) != 0 || id == 0)
    return -1;
  cie c;
  if (read_cie(id_at - id, &c) != 0)
    return -1;
  uintptr_t start = pointer(&r, c.fde_encoding, 0);
  uintptr_t size = range(&r, c.fde_encoding);
  if (r.bad || l->pc < start || l->pc >= start + size)
    return -1;
  if (c.has_augmentation_data)
    r.p += uleb(&r);
  frame_run f;
  memset(&f, 0, sizeof f);
  f.now.reg = -1;
  if (run(&f, c.instructions, c.end, c.data_align, c.fde_encoding) != 0)
    return -1;
  int64_t entry = f.now.reg == SP_REGISTER ? f.now.offset : 0;
  f.largest = entry;
  if (run(&f, r.p, r.end, c.data_align, c.fde_encoding) != 0)
    return -1;
  int64_t frame = f.largest - entry;
#ifdef FP_REGISTER
  if (f.framed) {
    int64_t decoded = prologue_bytes((const unsigned char *)start);
    if (decoded > frame)
      frame = decoded;
  }
#endif
#ifdef RED_ZONE
  frame += RED_ZONE;
#endif
  l->size = (size_t)frame;
  l->found = 1;
  l->start = start;
  l->range = size;
  return 0;
}

/* dl_iterate_phdr's callback: searches the object that holds l->pc. */
static int search_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  lookup *l = data;
  const ElfW(Phdr) *hdr = NULL;
  int holds = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t base = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && l->pc >= base && l->pc < base + ph->p_memsz)
      holds = 1;
    if (ph->p_type == PT_GNU_EH_FRAME)
      hdr = ph;
  }
  if (!holds)
    return 0;
  if (!hdr)
    return 1;
  const unsigned char *h =
      (const unsigned char *)(info->dlpi_addr + hdr->p_vaddr);
  reader r = {h + 4, h + hdr->p_memsz, 0};
  if (h[0] != 1 || hdr->p_memsz < 4)
    return 1;
  pointer(&r, h[1], (uintptr_t)h); /* the .eh_frame section */
  uintptr_t count = pointer(&r, h[2], (uintptr_t)h);
  int table = h[3];
  if (r.bad || table != (PE_DATAREL | PE_SDATA4))
    return 1;
  /* The table: (initial location, FDE address) pairs, sorted, each an
   * sdata4 relative to the header. */
  const unsigned char *entries = r.p;
  if ((size_t)(r.end - entries) < count * 8)
    return 1;
  uintptr_t lo = 0, hi = count;
  while (lo < hi) {
    uintptr_t mid = lo + (hi - lo) / 2;
    int32_t loc;
    memcpy(&loc, entries + mid * 8, 4);
    if ((uintptr_t)h + (intptr_t)loc <= l->pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return 1;
  int32_t fde;
  memcpy(&fde, entries + (lo - 1) * 8 + 4, 4);
  frame_of_fde(h + (intptr_t)fde, l);
  return 1;
}

size_t cuemu__frame_size(const void *function) {
  if (!function || SP_REGISTER < 0)
    return 0;
  lookup l = {(uintptr_t)function, 0, 0, 0, 0};
  dl_iterate_phdr(search_object, &l);
  return l.found ? l.size : 0;
}

/* The functions a deep frame is computed over, each once. */
#define DEEP_FUNCTIONS 256
#define DEEP_LEVELS 8

typedef struct deep_walk {
  uintptr_t start[DEEP_FUNCTIONS];
  size_t total[DEEP_FUNCTIONS]; /* (size_t)-1: being computed (a cycle) */
  int count;
} deep_walk;

/* The function that begins exactly at `pc`, in *l; 0 when there is one. */
static int function_at(uintptr_t pc, lookup *l) {
  memset(l, 0, sizeof *l);
  l->pc = pc;
  dl_iterate_phdr(search_object, l);
  return l->found && l->start == pc ? 0 : -1;
}

/* The frame of the function `f` plus the deepest of its callees' (each
 * call's return address counted), over direct calls whose target is a
 * function's first instruction in the loaded objects. */
static size_t deep_frame(deep_walk *w, const lookup *f, int level) {
  int me = -1;
  for (int i = 0; i < w->count; ++i)
    if (w->start[i] == f->start)
      return w->total[i] == (size_t)-1 ? 0 : w->total[i];
  if (w->count < DEEP_FUNCTIONS) {
    me = w->count++;
    w->start[me] = f->start;
    w->total[me] = (size_t)-1;
  }
  size_t deepest = 0;
#if defined(__x86_64__)
  /* `call rel32` (E8 and a displacement from the next instruction). A byte
   * E8 inside another instruction is taken only when its displacement
   * lands exactly on a function's start: at worst the stack is larger. */
  const unsigned char *code = (const unsigned char *)f->start;
  for (uintptr_t i = 0; me >= 0 && level < DEEP_LEVELS && i + 5 <= f->range;
       ++i) {
    if (code[i] != 0xe8)
      continue;
    int32_t rel;
    memcpy(&rel, code + i + 1, 4);
    uintptr_t target = f->start + i + 5 + (uintptr_t)(intptr_t)rel;
    lookup callee;
    if (target == f->start || function_at(target, &callee) != 0)
      continue;
    size_t below = deep_frame(w, &callee, level + 1) + sizeof(void *);
    if (below > deepest)
      deepest = below;
  }
#endif
  size_t total = f->size + deepest;
  if (me >= 0)
    w->total[me] = total;
  return total;
}

size_t cuemu__frame_size_deep(const void *function) {
  if (!function || SP_REGISTER < 0)
    return 0;
  lookup l;
  memset(&l, 0, sizeof l);
  l.pc = (uintptr_t)function;
  dl_iterate_phdr(search_object, &l);
  if (!l.found)
    return 0;
  deep_walk *w = malloc(sizeof *w);
  if (!w)
    return l.size;
  w->count = 0;
  size_t total = deep_frame(w, &l, 0);
  free(w);
  return total;
}
