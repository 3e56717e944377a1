/*
 * cuemu_drv_link_image.c: the self-contained image that cuLinkComplete
 * makes (see cuemu_driver_link.h), and how it is loaded.
 *
 * The image is a small module that depends on its inputs (DT_NEEDED, so
 * that the dynamic loader resolves one input's references to another's
 * definitions) and carries them: the section `.cuemu_link_inputs` holds a
 * header (the magic "CUEMULNK", the number of inputs, then for each its
 * offset and size in the section and the offset of the path it was linked
 * under) followed by the paths and the inputs' bytes. Each load writes the
 * inputs into anonymous files of its own (memfd) and rewrites the paths
 * the image names them by (its DT_NEEDED entries and the list its
 * cuemu_module_describe() gives cuemu_link_describe) into those files'
 * /proc/self/fd paths, which are shorter: the linked paths are padded to
 * CUEMU__DRV_LINKED_PATH_MIN bytes. So an image may be written to a file and loaded
 * by another process, and every load has its own copies of the inputs and
 * so its own variables, as every cuModuleLoadData of a CUDA cubin has.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuemu/cuemu_driver_errors.h>

#include "base/cuemu_config.h"
#include "base/cuemu_report.h"
#include "runtime/cuemu_drv_internal.h"

enum {
#define CUEMU_DRV_ENUM_(name, value, text) DRV_##name = value,
  CUEMU_DRIVER_ERROR_MAP(CUEMU_DRV_ENUM_)
#undef CUEMU_DRV_ENUM_
};

#define SECTION ".cuemu_link_inputs"
#define MAGIC "CUEMULNK"
#define MAX_INPUTS 48

/* One input's entry in the section header, after the magic and count. */
typedef struct entry {
  uint64_t offset, size, name;
} entry;

int cuemu__drv_link_image_write_payload(FILE *f, char *const *paths,
                                        int count) {
  for (int i = 0; i < count; ++i)
    if (strpbrk(paths[i], "\"\\\n") || strlen(paths[i]) < CUEMU__DRV_LINKED_PATH_MIN)
      return -1;
  fprintf(f,
          "\t.pushsection " SECTION ",\"\",@progbits\n"
          "\t.balign 16\n"
          ".Lcuemu_link_base:\n"
          "\t.ascii \"" MAGIC "\"\n"
          "\t.quad %d\n",
          count);
  for (int i = 0; i < count; ++i)
    fprintf(f,
            "\t.quad .Lcuemu_link_in%d - .Lcuemu_link_base, "
            ".Lcuemu_link_end%d - .Lcuemu_link_in%d, "
            ".Lcuemu_link_name%d - .Lcuemu_link_base\n",
            i, i, i, i);
  for (int i = 0; i < count; ++i)
    fprintf(f, ".Lcuemu_link_name%d:\n\t.asciz \"%s\"\n", i, paths[i]);
  for (int i = 0; i < count; ++i)
    fprintf(f,
            "\t.balign 16\n"
            ".Lcuemu_link_in%d:\n"
            "\t.incbin \"%s\"\n"
            ".Lcuemu_link_end%d:\n",
            i, paths[i], i);
  fputs("\t.popsection\n", f);
  return ferror(f) ? -1 : 0;
}

/* The section of inputs of an image of `size` bytes, or NULL (with *bytes
 * and *offset) when it has none: a module that no link made. */
static const unsigned char *payload(const void *image, size_t size,
                                    size_t *bytes, size_t *offset) {
  const unsigned char *base = image;
  const ElfW(Ehdr) *eh = image;
  if (size < sizeof *eh || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
      eh->e_shoff > size ||
      (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size - eh->e_shoff ||
      eh->e_shstrndx >= eh->e_shnum)
    return NULL;
  const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
  const ElfW(Shdr) *names = &sh[eh->e_shstrndx];
  if (names->sh_offset > size || names->sh_size > size - names->sh_offset)
    return NULL;
  for (int i = 0; i < eh->e_shnum; ++i) {
    if (sh[i].sh_name >= names->sh_size ||
        strncmp((const char *)base + names->sh_offset + sh[i].sh_name, SECTION,
                names->sh_size - sh[i].sh_name) != 0)
      continue;
    if (sh[i].sh_type != SHT_PROGBITS || sh[i].sh_offset > size ||
        sh[i].sh_size > size - sh[i].sh_offset)
      return NULL;
    *bytes = sh[i].sh_size;
    *offset = sh[i].sh_offset;
    return base + sh[i].sh_offset;
  }
  return NULL;
}

int cuemu__drv_link_image_is_linked(const void *image, size_t size) {
  size_t bytes, offset;
  return payload(image, size, &bytes, &offset) != NULL;
}

/* Replaces each occurrence of the string `from` (with its NUL) in the
 * first `n` bytes of `image` by `to` and NULs; `to` is not longer. */
static void rewrite(unsigned char *image, size_t n, const char *from,
                    const char *to) {
  size_t len = strlen(from) + 1, tlen = strlen(to);
  for (unsigned char *p = image;
       (p = memmem(p, n - (size_t)(p - image), from, len)) != NULL; p += len) {
    memcpy(p, to, tlen);
    memset(p + tlen, 0, len - tlen);
  }
}

static int write_all(int fd, const void *data, size_t size) {
  const char *p = data;
  while (size) {
    ssize_t w = write(fd, p, size);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    p += w;
    size -= (size_t)w;
  }
  return 0;
}

static int bad_image(const char *why) {
  cuemu__report(CUEMU_MODULE_LOAD, "cuModuleLoadData: a linked image: %s",
                why);
  if (!cuemu__config_quiet())
    fprintf(stderr, "cuemu: %s\n", cuemu_last_message());
  return DRV_CUDA_ERROR_INVALID_IMAGE;
}

int cuemu__drv_link_image_open(const void *image, size_t size,
                               unsigned char **patched, int *fds,
                               int *nfds) {
  *patched = NULL;
  *nfds = 0;
  size_t bytes = 0, offset = 0;
  const unsigned char *p = payload(image, size, &bytes, &offset);
  if (!p)
    return DRV_CUDA_SUCCESS;
  uint64_t count = 0;
  if (bytes < 16 || memcmp(p, MAGIC, 8) != 0)
    return bad_image("its section " SECTION " has no header");
  memcpy(&count, p + 8, sizeof count);
  if (count == 0 || count > MAX_INPUTS ||
      16 + count * sizeof(entry) > bytes)
    return bad_image("its section " SECTION " has a bad count");
  unsigned char *copy = malloc(size);
  if (!copy)
    return DRV_CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(copy, image, size);
  int e = DRV_CUDA_SUCCESS;
  for (uint64_t i = 0; i < count && !e; ++i) {
    entry en;
    memcpy(&en, p + 16 + i * sizeof en, sizeof en);
    if (en.offset > bytes || en.size > bytes - en.offset ||
        en.name >= bytes || !memchr(p + en.name, '\0', bytes - en.name)) {
      e = bad_image("an input lies outside its section " SECTION);
      break;
    }
    int fd = memfd_create("cuemu-link-input", MFD_CLOEXEC);
    if (fd < 0 || write_all(fd, p + en.offset, (size_t)en.size) != 0) {
      if (fd >= 0)
        close(fd);
      e = DRV_CUDA_ERROR_OUT_OF_MEMORY;
      break;
    }
    fds[(*nfds)++] = fd;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* The names before the section: the dynamic section's and the list
     * of the image's describe function. */
    rewrite(copy, (size_t)offset, (const char *)p + en.name, path);
  }
  if (e) {
    for (int i = 0; i < *nfds; ++i)
      close(fds[i]);
    *nfds = 0;
    free(copy);
    return e;
  }
  *patched = copy;
  return DRV_CUDA_SUCCESS;
}

void cuemu__drv_loaded_fd_close(int fd) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  /* An object the loader keeps after its module is unloaded (one with
   * unique C++ symbols cannot be unloaded) keeps its descriptor, so that
   * no later load gets its name. */
  void *still = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (still) {
    dlclose(still);
    return;
  }
  close(fd);
}
