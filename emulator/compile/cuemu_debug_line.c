/*
 * cuemu_debug_line.c: the line-number sequences of code that a link
 * dropped, marked as such in the linked file (see cuemu_debug_line.h).
 *
 * Each pass of a .cu file compiles the whole unit, each function in a
 * section of its own, and the program's link drops the copies no one calls
 * (--gc-sections): the device pass's host code, the host pass's kernels.
 * GNU ld resolves the addresses that the debug information gives those
 * dropped functions to 0, so each of their line-number sequences starts at
 * address 0 and covers as many bytes as the function had. In a program
 * whose code starts at a low address (a position-independent executable's
 * .text starts at a few kilobytes) those sequences cover the addresses of
 * real code too. gdb ignores a sequence that starts at 0 where no section
 * is there, but addr2line (binutils' and LLVM's), which the checkers and
 * the reports of faults run, takes the dropped function's line: an
 * initcheck report of a CUB kernel named a line of main() (the device
 * pass's copy of main, dropped, was 9 KB long).
 *
 * So the start address of such a sequence is rewritten to the tombstone
 * that both tools ignore, all bits set (LLVM's lld uses it for the same
 * purpose; gdb and addr2line then find the kept code's line). Only
 * DW_LNE_set_address operands of 0 in a linked executable or shared
 * library are touched, where no section that holds code starts at 0.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuemu_debug_line.h"

/* DWARF's line-number opcodes that this file reads. */
enum {
  DW_LNS_extended_op = 0,
  DW_LNS_fixed_advance_pc = 9,
  DW_LNE_set_address = 2,
};

/* A cursor over one line-number program; `bad` is set when a read would
 * pass `end`. */
typedef struct cursor {
  unsigned char *at, *end;
  int bad;
} cursor;

static uint64_t read_bytes(cursor *c, size_t n) {
  uint64_t v = 0;
  if ((size_t)(c->end - c->at) < n) {
    c->bad = 1;
    c->at = c->end;
    return 0;
  }
  for (size_t i = 0; i < n; ++i)
    v |= (uint64_t)c->at[i] << (8 * i);
  c->at += n;
  return v;
}

static uint64_t read_uleb(cursor *c) {
  uint64_t v = 0;
  for (unsigned shift = 0; c->at < c->end; shift += 7) {
    unsigned char b = *c->at++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  c->bad = 1;
  return v;
}

/* Rewrites the zero operands of DW_LNE_set_address in one unit's program
 * (`c` at its header's version); returns how many. */
static size_t mark_unit(cursor *c) {
  size_t marked = 0;
  unsigned version = (unsigned)read_bytes(c, 2);
  if (version < 2 || version > 5)
    return 0;
  if (version >= 5)
    read_bytes(c, 2); /* address_size, segment_selector_size */
  /* header_length: 4 bytes (the caller keeps DWARF64 units out). */
  uint64_t header_length = read_bytes(c, 4);
  if (c->bad || header_length > (uint64_t)(c->end - c->at))
    return 0;
  cursor header = {c->at, c->at + header_length, 0};
  unsigned char *program = c->at + header_length;
  read_bytes(&header, version >= 4 ? 2 : 1); /* min_inst_length (max_ops) */
  read_bytes(&header, 3); /* default_is_stmt, line_base, line_range */
  unsigned opcode_base = (unsigned)read_bytes(&header, 1);
  if (header.bad || opcode_base == 0 ||
      (size_t)(header.end - header.at) < opcode_base - 1)
    return 0;
  const unsigned char *lengths = header.at; /* of opcodes 1..base-1 */
  c->at = program;
  while (c->at < c->end && !c->bad) {
    unsigned op = *c->at++;
    if (op == DW_LNS_extended_op) {
      uint64_t n = read_uleb(c);
      if (c->bad || n == 0 || n > (uint64_t)(c->end - c->at))
        return marked;
      unsigned char *operand = c->at + 1;
      if (c->at[0] == DW_LNE_set_address && n == 9 &&
          memcmp(operand, "\0\0\0\0\0\0\0\0", 8) == 0) {
        memset(operand, 0xff, 8);
        ++marked;
      }
      c->at += n;
    } else if (op == DW_LNS_fixed_advance_pc && op < opcode_base) {
      read_bytes(c, 2); /* a uhalf, not a LEB128 */
    } else if (op < opcode_base) {
      for (unsigned i = 0; i < lengths[op - 1]; ++i)
        read_uleb(c);
    }
  }
  return marked;
}

/* Whether a section that holds code or data starts at address 0 (then 0
 * is a real address, not a dropped function's). */
static int section_at_zero(const Elf64_Shdr *sh, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if ((sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_addr == 0 &&
        sh[i].sh_size > 0 && sh[i].sh_type != SHT_NOBITS)
      return 1;
  return 0;
}

int cuemu__debug_line_tombstones(const char *path) {
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int rc = -1;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  unsigned char *line = NULL;
  char *names = NULL;
  const uint16_t one = 1;
  if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != (*(const unsigned char *)&one ? ELFDATA2LSB
                                                            : ELFDATA2MSB) ||
      (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
      eh.e_shstrndx >= eh.e_shnum) {
    rc = 0; /* not a linked ELF64 file of this machine: nothing to do */
    goto out;
  }
  size_t count = eh.e_shnum;
  sh = malloc(count * sizeof *sh);
  if (!sh || pread(fd, sh, count * sizeof *sh, (off_t)eh.e_shoff) !=
                 (ssize_t)(count * sizeof *sh))
    goto out;
  const Elf64_Shdr *strings = &sh[eh.e_shstrndx];
  names = malloc(strings->sh_size + 1);
  if (!names || pread(fd, names, strings->sh_size,
                      (off_t)strings->sh_offset) != (ssize_t)strings->sh_size)
    goto out;
  names[strings->sh_size] = '\0';
  rc = 0;
  if (section_at_zero(sh, count))
    goto out;
  for (size_t i = 0; i < count; ++i) {
    if (sh[i].sh_name >= strings->sh_size ||
        strcmp(names + sh[i].sh_name, ".debug_line") != 0 ||
        sh[i].sh_type != SHT_PROGBITS || (sh[i].sh_flags & SHF_COMPRESSED))
      continue;
    size_t size = sh[i].sh_size;
    line = malloc(size ? size : 1);
    if (!line ||
        pread(fd, line, size, (off_t)sh[i].sh_offset) != (ssize_t)size) {
      rc = -1;
      goto out;
    }
    size_t marked = 0;
    cursor all = {line, line + size, 0};
    while (all.at < all.end && !all.bad) {
      uint64_t length = read_bytes(&all, 4);
      /* A DWARF64 unit (never made by g++ or clang++ without -gdwarf64)
       * ends the walk. */
      if (all.bad || length >= 0xfffffff0u ||
          length > (uint64_t)(all.end - all.at))
        break;
      cursor unit = {all.at, all.at + length, 0};
      marked += mark_unit(&unit);
      all.at += length;
    }
    if (marked &&
        pwrite(fd, line, size, (off_t)sh[i].sh_offset) != (ssize_t)size)
      rc = -1;
    break;
  }
out:
  free(line);
  free(names);
  free(sh);
  close(fd);
  return rc;
}
