/* toolkit_include/cuda_runtime_api.h: stands for the CUDA toolkit's own cuda_runtime_api.h, found through
 * -I$(CUDA_DIR)/include as Rodinia's and many other Makefiles pass it.
 * cuemu's shims replace the toolkit's runtime headers: this one must never
 * be read (toolkit_include_path.cu). */
#error "the toolkit's own cuda_runtime_api.h was read instead of cuemu's shim"
