/*
 * cuemu_driver_texref_api.h: the driver's texture and surface references
 * (cuTexRef*, cuSurfRef*, cuModuleGetTexRef, cuModuleGetSurfRef,
 * cuParamSetTexRef), deprecated since CUDA 11 and gone from device code
 * since CUDA 12 (nvcc refuses `texture<>` and `surface<>` globals, so no
 * module has one). A reference made by cuTexRefCreate keeps what is set
 * on it (its memory: an array, a mipmapped array, or linear or pitched
 * memory; its format, address modes, filtering, mipmap settings,
 * anisotropy, border colour and flags) and gives it back, with CUDA's
 * argument checks; nothing reads it (texture objects are what kernels
 * sample, cuemu_driver_array_api.h). cuModuleGetTexRef and
 * cuModuleGetSurfRef find no reference (CUDA_ERROR_NOT_FOUND), so no
 * surface reference exists (cuSurfRef*: CUDA_ERROR_INVALID_HANDLE), and
 * cuParamSetTexRef, whose kernels cannot name a texture, accepts
 * CU_PARAM_TR_DEFAULT and does nothing. Included by cuda.h.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_TEXREF_API_H
#define CUEMU_DRIVER_TEXREF_API_H

#include <new>

typedef struct CUtexref_st *CUtexref;
typedef struct CUsurfref_st *CUsurfref;

#define CU_TRSA_OVERRIDE_FORMAT 0x01
#define CU_PARAM_TR_DEFAULT -1

/* What a texture reference holds. */
struct CUtexref_st {
  unsigned __cuemu_magic;
  CUarray __cuemu_array;
  CUmipmappedArray __cuemu_mipmap;
  CUdeviceptr __cuemu_address; /* 0: not bound to linear memory */
  CUarray_format __cuemu_format;
  int __cuemu_channels;
  CUaddress_mode __cuemu_address_mode[3];
  CUfilter_mode __cuemu_filter, __cuemu_mipmap_filter;
  float __cuemu_bias, __cuemu_min_clamp, __cuemu_max_clamp;
  unsigned __cuemu_anisotropy;
  float __cuemu_border[4];
  unsigned __cuemu_flags;
};

namespace cuemu {
namespace drv {
static const unsigned __cuemu_texref_magic = 0x74657872u; /* "texr" */

/* CUDA_ERROR_NOT_INITIALIZED before cuInit, CUDA_ERROR_INVALID_VALUE for
 * a reference cuTexRefCreate did not make or a NULL output
 * (`__cuemu_ok` 0), else CUDA_SUCCESS. */
inline CUresult __cuemu_texref_check(CUtexref __cuemu_ref, bool __cuemu_ok) {
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return __cuemu_ref && __cuemu_ref->__cuemu_magic == __cuemu_texref_magic &&
                 __cuemu_ok
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}
} // namespace drv
} // namespace cuemu

inline CUresult cuTexRefCreate(CUtexref *pTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefCreate);
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  if (!pTexRef)
    return CUDA_ERROR_INVALID_VALUE;
  CUtexref __cuemu_ref = new (std::nothrow) CUtexref_st();
  if (!__cuemu_ref)
    return CUDA_ERROR_OUT_OF_MEMORY;
  __cuemu_ref->__cuemu_magic = cuemu::drv::__cuemu_texref_magic;
  __cuemu_ref->__cuemu_format = CU_AD_FORMAT_FLOAT;
  __cuemu_ref->__cuemu_channels = 1;
  *pTexRef = __cuemu_ref;
  return CUDA_SUCCESS;
}

inline CUresult cuTexRefDestroy(CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefDestroy);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_magic = 0;
    delete hTexRef;
  }
  return __cuemu_e;
}

/* Binds the reference to an array (and to nothing else). */
inline CUresult cuTexRefSetArray(CUtexref hTexRef, CUarray hArray,
                                 unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuTexRefSetArray);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, hArray && Flags == CU_TRSA_OVERRIDE_FORMAT);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_array = hArray;
    hTexRef->__cuemu_mipmap = nullptr;
    hTexRef->__cuemu_address = 0;
  }
  return __cuemu_e;
}

inline CUresult cuTexRefSetMipmappedArray(CUtexref hTexRef,
                                          CUmipmappedArray hMipmappedArray,
                                          unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuTexRefSetMipmappedArray);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, hMipmappedArray && Flags == CU_TRSA_OVERRIDE_FORMAT);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_mipmap = hMipmappedArray;
    hTexRef->__cuemu_array = nullptr;
    hTexRef->__cuemu_address = 0;
  }
  return __cuemu_e;
}

/* Binds linear memory: the base the hardware would use is the address
 * rounded down to the texture alignment (512 bytes); *ByteOffset is what
 * fetches add. */
inline CUresult cuTexRefSetAddress(size_t *ByteOffset, CUtexref hTexRef,
                                   CUdeviceptr dptr, size_t bytes) {
  CUEMU_DRV_SYMBOL(cuTexRefSetAddress);
  (void)bytes;
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, dptr != 0);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_address = dptr;
    hTexRef->__cuemu_array = nullptr;
    hTexRef->__cuemu_mipmap = nullptr;
    if (ByteOffset)
      *ByteOffset = static_cast<size_t>(dptr % 512u);
  }
  return __cuemu_e;
}

/* Binds pitched memory of `desc`'s shape and format. */
inline CUresult cuTexRefSetAddress2D(CUtexref hTexRef,
                                     const CUDA_ARRAY_DESCRIPTOR *desc,
                                     CUdeviceptr dptr, size_t Pitch) {
  CUEMU_DRV_SYMBOL(cuTexRefSetAddress2D);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, desc && dptr != 0 && Pitch > 0);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_address = dptr;
    hTexRef->__cuemu_array = nullptr;
    hTexRef->__cuemu_mipmap = nullptr;
    hTexRef->__cuemu_format = desc->Format;
    hTexRef->__cuemu_channels = static_cast<int>(desc->NumChannels);
  }
  return __cuemu_e;
}

inline CUresult cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt,
                                  int NumPackedComponents) {
  CUEMU_DRV_SYMBOL(cuTexRefSetFormat);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, NumPackedComponents == 1 || NumPackedComponents == 2 ||
                   NumPackedComponents == 4);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_format = fmt;
    hTexRef->__cuemu_channels = NumPackedComponents;
  }
  return __cuemu_e;
}

inline CUresult cuTexRefSetAddressMode(CUtexref hTexRef, int dim,
                                       CUaddress_mode am) {
  CUEMU_DRV_SYMBOL(cuTexRefSetAddressMode);
  CUresult __cuemu_e =
      cuemu::drv::__cuemu_texref_check(hTexRef, dim >= 0 && dim < 3);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_address_mode[dim] = am;
  return __cuemu_e;
}

inline CUresult cuTexRefSetFilterMode(CUtexref hTexRef, CUfilter_mode fm) {
  CUEMU_DRV_SYMBOL(cuTexRefSetFilterMode);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_filter = fm;
  return __cuemu_e;
}

inline CUresult cuTexRefSetMipmapFilterMode(CUtexref hTexRef,
                                            CUfilter_mode fm) {
  CUEMU_DRV_SYMBOL(cuTexRefSetMipmapFilterMode);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_mipmap_filter = fm;
  return __cuemu_e;
}

inline CUresult cuTexRefSetMipmapLevelBias(CUtexref hTexRef, float bias) {
  CUEMU_DRV_SYMBOL(cuTexRefSetMipmapLevelBias);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_bias = bias;
  return __cuemu_e;
}

inline CUresult cuTexRefSetMipmapLevelClamp(CUtexref hTexRef,
                                            float minMipmapLevelClamp,
                                            float maxMipmapLevelClamp) {
  CUEMU_DRV_SYMBOL(cuTexRefSetMipmapLevelClamp);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS) {
    hTexRef->__cuemu_min_clamp = minMipmapLevelClamp;
    hTexRef->__cuemu_max_clamp = maxMipmapLevelClamp;
  }
  return __cuemu_e;
}

inline CUresult cuTexRefSetMaxAnisotropy(CUtexref hTexRef,
                                         unsigned int maxAniso) {
  CUEMU_DRV_SYMBOL(cuTexRefSetMaxAnisotropy);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_anisotropy = maxAniso;
  return __cuemu_e;
}

inline CUresult cuTexRefSetBorderColor(CUtexref hTexRef, float *pBorderColor) {
  CUEMU_DRV_SYMBOL(cuTexRefSetBorderColor);
  CUresult __cuemu_e =
      cuemu::drv::__cuemu_texref_check(hTexRef, pBorderColor != nullptr);
  if (__cuemu_e == CUDA_SUCCESS)
    for (int __cuemu_i = 0; __cuemu_i < 4; ++__cuemu_i)
      hTexRef->__cuemu_border[__cuemu_i] = pBorderColor[__cuemu_i];
  return __cuemu_e;
}

inline CUresult cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuTexRefSetFlags);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, true);
  if (__cuemu_e == CUDA_SUCCESS)
    hTexRef->__cuemu_flags = Flags;
  return __cuemu_e;
}

/* The linear memory bound; CUDA_ERROR_INVALID_VALUE when none is. */
inline CUresult cuTexRefGetAddress(CUdeviceptr *pdptr, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetAddress);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, pdptr && hTexRef && hTexRef->__cuemu_address != 0);
  if (__cuemu_e == CUDA_SUCCESS)
    *pdptr = hTexRef->__cuemu_address;
  return __cuemu_e;
}

/* The array bound; CUDA_ERROR_INVALID_VALUE when none is. */
inline CUresult cuTexRefGetArray(CUarray *phArray, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetArray);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, phArray && hTexRef && hTexRef->__cuemu_array != nullptr);
  if (__cuemu_e == CUDA_SUCCESS)
    *phArray = hTexRef->__cuemu_array;
  return __cuemu_e;
}

inline CUresult cuTexRefGetMipmappedArray(CUmipmappedArray *phMipmappedArray,
                                          CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetMipmappedArray);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, phMipmappedArray && hTexRef && hTexRef->__cuemu_mipmap);
  if (__cuemu_e == CUDA_SUCCESS)
    *phMipmappedArray = hTexRef->__cuemu_mipmap;
  return __cuemu_e;
}

inline CUresult cuTexRefGetAddressMode(CUaddress_mode *pam, CUtexref hTexRef,
                                       int dim) {
  CUEMU_DRV_SYMBOL(cuTexRefGetAddressMode);
  CUresult __cuemu_e =
      cuemu::drv::__cuemu_texref_check(hTexRef, pam && dim >= 0 && dim < 3);
  if (__cuemu_e == CUDA_SUCCESS)
    *pam = hTexRef->__cuemu_address_mode[dim];
  return __cuemu_e;
}

inline CUresult cuTexRefGetFilterMode(CUfilter_mode *pfm, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetFilterMode);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pfm);
  if (__cuemu_e == CUDA_SUCCESS)
    *pfm = hTexRef->__cuemu_filter;
  return __cuemu_e;
}

inline CUresult cuTexRefGetFormat(CUarray_format *pFormat, int *pNumChannels,
                                  CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetFormat);
  CUresult __cuemu_e =
      cuemu::drv::__cuemu_texref_check(hTexRef, pFormat && pNumChannels);
  if (__cuemu_e == CUDA_SUCCESS) {
    *pFormat = hTexRef->__cuemu_format;
    *pNumChannels = hTexRef->__cuemu_channels;
  }
  return __cuemu_e;
}

inline CUresult cuTexRefGetMipmapFilterMode(CUfilter_mode *pfm,
                                            CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetMipmapFilterMode);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pfm);
  if (__cuemu_e == CUDA_SUCCESS)
    *pfm = hTexRef->__cuemu_mipmap_filter;
  return __cuemu_e;
}

inline CUresult cuTexRefGetMipmapLevelBias(float *pbias, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetMipmapLevelBias);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pbias);
  if (__cuemu_e == CUDA_SUCCESS)
    *pbias = hTexRef->__cuemu_bias;
  return __cuemu_e;
}

inline CUresult cuTexRefGetMipmapLevelClamp(float *pminMipmapLevelClamp,
                                            float *pmaxMipmapLevelClamp,
                                            CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetMipmapLevelClamp);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, pminMipmapLevelClamp && pmaxMipmapLevelClamp);
  if (__cuemu_e == CUDA_SUCCESS) {
    *pminMipmapLevelClamp = hTexRef->__cuemu_min_clamp;
    *pmaxMipmapLevelClamp = hTexRef->__cuemu_max_clamp;
  }
  return __cuemu_e;
}

inline CUresult cuTexRefGetMaxAnisotropy(int *pmaxAniso, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetMaxAnisotropy);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pmaxAniso);
  if (__cuemu_e == CUDA_SUCCESS)
    *pmaxAniso = static_cast<int>(hTexRef->__cuemu_anisotropy);
  return __cuemu_e;
}

inline CUresult cuTexRefGetBorderColor(float *pBorderColor, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetBorderColor);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pBorderColor);
  if (__cuemu_e == CUDA_SUCCESS)
    for (int __cuemu_i = 0; __cuemu_i < 4; ++__cuemu_i)
      pBorderColor[__cuemu_i] = hTexRef->__cuemu_border[__cuemu_i];
  return __cuemu_e;
}

inline CUresult cuTexRefGetFlags(unsigned int *pFlags, CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuTexRefGetFlags);
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(hTexRef, pFlags);
  if (__cuemu_e == CUDA_SUCCESS)
    *pFlags = hTexRef->__cuemu_flags;
  return __cuemu_e;
}

/* cuemu-status: refused (no module has a texture reference since CUDA 12) */
inline CUresult cuModuleGetTexRef(CUtexref *pTexRef, CUmodule hmod,
                                  const char *name) {
  CUEMU_DRV_SYMBOL(cuModuleGetTexRef);
  (void)hmod;
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return pTexRef && name ? CUDA_ERROR_NOT_FOUND : CUDA_ERROR_INVALID_VALUE;
}

/* cuemu-status: refused (no module has a surface reference since CUDA 12) */
inline CUresult cuModuleGetSurfRef(CUsurfref *pSurfRef, CUmodule hmod,
                                   const char *name) {
  CUEMU_DRV_SYMBOL(cuModuleGetSurfRef);
  (void)hmod;
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return pSurfRef && name ? CUDA_ERROR_NOT_FOUND : CUDA_ERROR_INVALID_VALUE;
}

/* cuemu-status: refused (no surface reference exists) */
inline CUresult cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray,
                                  unsigned int Flags) {
  CUEMU_DRV_SYMBOL(cuSurfRefSetArray);
  (void)hSurfRef;
  (void)hArray;
  (void)Flags;
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  return __cuemu_e != CUDA_SUCCESS ? __cuemu_e : CUDA_ERROR_INVALID_HANDLE;
}

/* cuemu-status: refused (no surface reference exists) */
inline CUresult cuSurfRefGetArray(CUarray *phArray, CUsurfref hSurfRef) {
  CUEMU_DRV_SYMBOL(cuSurfRefGetArray);
  (void)hSurfRef;
  int __cuemu_count = 0;
  CUresult __cuemu_e = cuDeviceGetCount(&__cuemu_count);
  if (__cuemu_e != CUDA_SUCCESS)
    return __cuemu_e;
  return phArray ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_INVALID_VALUE;
}

/* cuemu-status: no effect (no kernel can name a texture reference) */
inline CUresult cuParamSetTexRef(CUfunction hfunc, int texunit,
                                 CUtexref hTexRef) {
  CUEMU_DRV_SYMBOL(cuParamSetTexRef);
  (void)hfunc;
  CUresult __cuemu_e = cuemu::drv::__cuemu_texref_check(
      hTexRef, texunit == CU_PARAM_TR_DEFAULT);
  return __cuemu_e;
}

#endif /* CUEMU_DRIVER_TEXREF_API_H */
