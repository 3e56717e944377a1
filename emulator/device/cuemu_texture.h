/*
 * cuemu_texture.h: the emulated device's texture and surface objects: what
 * a handle refers to (the resolved levels of its resource, its descriptor),
 * the one table of handles, and the sampling arithmetic that every fetch
 * uses. The runtime (runtime/cuemu_rt_texture.c) fills and registers
 * objects; kernels reach them through cuemu_texture_fetch() and
 * cuemu_surface_access() (cuemu_rt_texture.h).
 */
#ifndef CUEMU_DEVICE_TEXTURE_H
#define CUEMU_DEVICE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_rt_texture.h>
#include <cuemu/cuemu_texture_direct.h>

/* As many levels as cuemu_rt_array.h allows. */
#define CUEMU_TEX_MAX_LEVELS 16

/* The element format of a resource (see cuemu__format in
 * runtime/cuemu_rt_array.h, which fills it). */
typedef struct cuemu__texel_format {
  int channels;
  int bits;       /* 8, 16 or 32 */
  int kind;       /* cudaChannelFormatKindSigned, Unsigned or Float */
  int normalized; /* always reads as a normalized float */
  int packed;     /* 10-10-10-2 bits in one 32-bit word (cuemu__format) */
  size_t size;    /* bytes per element */
} cuemu__texel_format;

/* One level of a resource: width x height elements per slice, `depth`
 * slices (3D depth, layers, or faces), rows `pitch` bytes apart and slices
 * `slice` bytes apart. */
typedef struct cuemu__tex_level {
  unsigned char *data;
  size_t width, height, depth;
  size_t pitch, slice;
} cuemu__tex_level;

/* The shapes a resource can have. */
enum cuemu__tex_shape {
  CUEMU_SHAPE_LINEAR = 1, /* linear memory: tex1Dfetch only */
  CUEMU_SHAPE_1D,
  CUEMU_SHAPE_2D, /* a 2D array or pitch-2D memory */
  CUEMU_SHAPE_3D,
  CUEMU_SHAPE_1D_LAYERED,
  CUEMU_SHAPE_2D_LAYERED,
  CUEMU_SHAPE_CUBEMAP,
  CUEMU_SHAPE_CUBEMAP_LAYERED
};

typedef struct cuemu__texture {
  /* The direct path's record (cuemu_texture_direct.h): its op is 0 when the
   * object has none. Filled by cuemu__texture_direct_fill, published in
   * cuemu_texture_dir by the table. */
  cuemu_texture_direct direct;
  uint32_t generation; /* the handle's upper half */
  int is_surface;
  int shape;             /* enum cuemu__tex_shape */
  int gather;            /* the array allows tex2Dgather */
  int load_store;        /* the array allows surface access */
  cuemu__texel_format format;
  struct cudaResourceDesc res;
  struct cudaTextureDesc desc;
  struct cudaResourceViewDesc view;
  int has_view;
  int returns_float; /* the fetch returns floats (else integers) */
  unsigned levels;
  cuemu__tex_level level[CUEMU_TEX_MAX_LEVELS];
} cuemu__texture;

/* The table of objects (device/cuemu_texture_table.c). Registers `t` (which
 * the table then owns) and returns its handle, or 0 when the table is full.
 * Host code. */
unsigned long long cuemu__texture_register(cuemu__texture *t);
/* Removes and frees the object of `handle` of the given sort; returns 0 or
 * -1 when the handle is not a live one of that sort. Host code. */
int cuemu__texture_unregister(unsigned long long handle, int is_surface);
/* Destroys every object (cudaDeviceReset). Host code. */
void cuemu__texture_reset(void);
/* The live object of `handle` of the given sort, or NULL. Any code. */
const cuemu__texture *cuemu__texture_lookup(unsigned long long handle,
                                            int is_surface);

/* Fills t->direct from t's resolved shape, format, levels and descriptor
 * (t->direct.op stays 0 where the direct path does not apply). Host code
 * (device/cuemu_texture_direct.c). */
void cuemu__texture_direct_fill(cuemu__texture *t);

/* Counts a launch under racecheck in or out (delta 1 or -1): while one
 * runs, every fetch goes through cuemu_texture_fetch(), whose texel reads
 * the checker sees. */
void cuemu__texture_racecheck(int delta);

/* The resource shape (enum cuemu__tex_shape) that a texture fetch (enum
 * cuemu_texture_op, surface 0) or a surface access (enum cuemu_surface_op,
 * surface 1) needs; 0 for an op that is neither. Any code. */
int cuemu__texture_shape_of_op(int op, int surface);

/* Stops the launch with CUEMU_KERNEL_FAULT and the message "kernel K: what
 * at file:line in thread (x,y,z) of block (x,y,z)". Kernel code. */
CUEMU_NORETURN void cuemu__texture_fault(const char *file, int line,
                                         const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- The sampling arithmetic (device/cuemu_texture_sample.c) ------------ */

/* The fetch the calling thread is doing (for the checkers' reports of the
 * texels it reads), or NULL. */
extern __thread const cuemu_texture_query *cuemu__texture_current;

/* The 9-bit filter weight of a fraction in [0, 1): the fraction rounded to
 * 8 fractional bits, as an integer from 0 to 256 (256 is 1.0). */
int cuemu__texture_weight(float frac);

/* The element index that integer index i becomes under address mode `mode`
 * (cudaAddressMode*) for a side of n elements, or -1 for a border texel. */
long cuemu__texture_address(long i, size_t n, int mode);

/* A coordinate prepared for a side of n elements: normalized coordinates
 * are wrapped or mirrored as `mode` says and scaled to texels; the result
 * is in texel units. */
float cuemu__texture_coordinate(float x, size_t n, int mode, int normalized);

/* Element (x, y, z) of level `lv` of `t`, converted as the texture's read
 * mode says (see cuemu_texel); the read is shown to `seen` (the checkers'
 * hook) unless it is NULL. */
cuemu_texel cuemu__texture_texel(const cuemu__texture *t,
                                 const cuemu__tex_level *lv, size_t x, size_t y,
                                 size_t z, cuemu_texture_seen_fn seen);

/* The border colour, as a texel of `t`. */
cuemu_texel cuemu__texture_border(const cuemu__texture *t);

/* The cubemap face (0 to 5) that direction (x, y, z) selects, and the
 * face's normalized coordinates (s, t) in [0, 1]. */
int cuemu__texture_cube_face(float x, float y, float z, float *s, float *t);

#endif /* CUEMU_DEVICE_TEXTURE_H */
