/*
 * cuemu_driver_peer_types.h: the types of the driver API's IPC handles and
 * stream attributes (CUipcMemHandle, CUipcEventHandle, the access policy,
 * synchronization policy and memory sync domain under the driver's names:
 * the runtime's types), in CUDA 13's layout. C reads them too: cuda.h's C
 * view (cuemu_driver_c_decls.h, written by scripts/driver_c_view.py)
 * includes this header where cuemu_driver_peer_api.h reads it.
 */
/* cuda.h first, outside the guard: included alone, this header is then
 * read at its place in cuda.h, after what it uses. */
#include "cuda.h"
#ifndef CUEMU_DRIVER_PEER_TYPES_H
#define CUEMU_DRIVER_PEER_TYPES_H

typedef struct CUipcMemHandle_st {
  char reserved[CU_IPC_HANDLE_SIZE];
} CUipcMemHandle_v1;
typedef CUipcMemHandle_v1 CUipcMemHandle;
typedef struct CUipcEventHandle_st {
  char reserved[CU_IPC_HANDLE_SIZE];
} CUipcEventHandle_v1;
typedef CUipcEventHandle_v1 CUipcEventHandle;

typedef enum CUipcMem_flags_enum {
  CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1
} CUipcMem_flags;


/* The values' types under the driver's names: a CUlaunchAttributeValue is
 * the runtime's cudaLaunchAttributeValue, whose fields have the runtime's
 * types. */
typedef enum cudaAccessProperty CUaccessProperty;
#define CU_ACCESS_PROPERTY_NORMAL cudaAccessPropertyNormal
#define CU_ACCESS_PROPERTY_STREAMING cudaAccessPropertyStreaming
#define CU_ACCESS_PROPERTY_PERSISTING cudaAccessPropertyPersisting
typedef struct cudaAccessPolicyWindow CUaccessPolicyWindow_v1;
typedef CUaccessPolicyWindow_v1 CUaccessPolicyWindow;
typedef enum cudaSynchronizationPolicy CUsynchronizationPolicy;
#define CU_SYNC_POLICY_AUTO cudaSyncPolicyAuto
#define CU_SYNC_POLICY_SPIN cudaSyncPolicySpin
#define CU_SYNC_POLICY_YIELD cudaSyncPolicyYield
#define CU_SYNC_POLICY_BLOCKING_SYNC cudaSyncPolicyBlockingSync
typedef cudaLaunchMemSyncDomain CUlaunchMemSyncDomain;
#define CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT cudaLaunchMemSyncDomainDefault
#define CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE cudaLaunchMemSyncDomainRemote

typedef CUlaunchAttributeID CUstreamAttrID;
typedef CUlaunchAttributeValue CUstreamAttrValue_v1;
typedef CUstreamAttrValue_v1 CUstreamAttrValue;
#define CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW                               \
  CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW
#define CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY                             \
  CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY
#define CU_STREAM_ATTRIBUTE_PRIORITY CU_LAUNCH_ATTRIBUTE_PRIORITY
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP                                \
  CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP
#define CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN

#endif /* CUEMU_DRIVER_PEER_TYPES_H */
