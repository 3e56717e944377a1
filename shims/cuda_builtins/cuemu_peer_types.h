/*
 * cuemu_peer_types.h: the IPC handles of memory, events and pool
 * allocations, the attributes of the link between two devices and the
 * atomic operations asked about it (CUDA's driver_types.h). C and C++
 * (cuemu_peer_api.h, cuemu_p2p_attribute_api.h, cuemu_pool_ipc_api.h).
 */
#ifndef CUEMU_PEER_TYPES_H
#define CUEMU_PEER_TYPES_H

#define CUDA_IPC_HANDLE_SIZE 64
#define cudaIpcMemLazyEnablePeerAccess 0x01

typedef struct cudaIpcMemHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;

typedef struct cudaIpcEventHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;

enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* The atomic operations and their forms that
 * cudaDeviceGetP2PAtomicCapabilities asks about (CUDA 13). */
enum cudaAtomicOperation {
  cudaAtomicOperationIntegerAdd = 0,
  cudaAtomicOperationIntegerMin = 1,
  cudaAtomicOperationIntegerMax = 2,
  cudaAtomicOperationIntegerIncrement = 3,
  cudaAtomicOperationIntegerDecrement = 4,
  cudaAtomicOperationAnd = 5,
  cudaAtomicOperationOr = 6,
  cudaAtomicOperationXOR = 7,
  cudaAtomicOperationExchange = 8,
  cudaAtomicOperationCAS = 9,
  cudaAtomicOperationFloatAdd = 10,
  cudaAtomicOperationFloatMin = 11,
  cudaAtomicOperationFloatMax = 12
};

enum cudaAtomicOperationCapability {
  cudaAtomicCapabilitySigned = 1u << 0,
  cudaAtomicCapabilityUnsigned = 1u << 1,
  cudaAtomicCapabilityReduction = 1u << 2,
  cudaAtomicCapabilityScalar32 = 1u << 3,
  cudaAtomicCapabilityScalar64 = 1u << 4,
  cudaAtomicCapabilityScalar128 = 1u << 5,
  cudaAtomicCapabilityVector32x4 = 1u << 6
};

/* A pool allocation's export (cudaMemPoolExportPointer). */
struct cudaMemPoolPtrExportData {
  unsigned char reserved[64];
};

#endif /* CUEMU_PEER_TYPES_H */
