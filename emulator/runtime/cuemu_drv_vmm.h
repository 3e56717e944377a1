/*
 * cuemu_drv_vmm.h: what the runtime's memory calls need of the virtual
 * memory management (cuemu_drv_vmm.c). Internal to libcuemu.
 */
#ifndef CUEMU_DRV_VMM_H
#define CUEMU_DRV_VMM_H

/* Non-zero when `ptr` lies in a mapping or a reservation of cuMemMap and
 * cuMemAddressReserve (cudaFree and cuMemFree refuse it). */
int cuemu__vmm_owns(const void *ptr);

/* cudaDeviceReset of `device` (-1: every device): the mappings of its
 * physical allocations are unmapped (remembered as freed, so that a later
 * use is told as a use after free) and the allocations released, their
 * handles no longer valid; reservations stay. Called before the table of
 * allocations is reset, which must not free these ranges itself. */
void cuemu__vmm_reset(int device);

#endif /* CUEMU_DRV_VMM_H */
