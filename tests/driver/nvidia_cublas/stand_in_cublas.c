/* stand_in_cublas.c: a stand-in for NVIDIA's cuBLAS, built as
 * nvidia/lib64/libcublas.so.13 (its SONAME, as NVIDIA's): its handle call
 * answers as NVIDIA's does on a machine without a GPU. */
int cublasCreate_v2(void **handle) {
  *handle = 0;
  return 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
}

int cublasDestroy_v2(void *handle) {
  (void)handle;
  return 1;
}

int cublasSgemm_v2(void) { return 1; }
