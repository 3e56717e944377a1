/*
 * cuemu_omp_wait.c: the wait policy of OpenMP's idle threads in a program
 * that runs kernels here. libgomp's team threads spin some 300,000 rounds
 * after every parallel region before they sleep (OMP_WAIT_POLICY unset);
 * on a GPU that costs nothing, but here the kernels that the program
 * launches next run on the same cores, and a scientific code alternating
 * an OpenMP loop on the host with kernel launches (the shallow-water trial
 * of tests/programs_trialsci.sh) ran several times slower than with the
 * passive policy. So when libgomp is in the process and the environment
 * sets neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT, libcuemu's constructor
 * sets OMP_WAIT_POLICY=passive before libgomp reads its environment.
 *
 * That needs libcuemu's constructor to run before libgomp's: the loader
 * starts libraries that do not depend on each other in the reverse of the
 * program's DT_NEEDED order, so cuemu-nvcc puts -lgomp before libcuemu in
 * a link with OpenMP (cuemu__links_openmp), and cuemu-toolkit's
 * lib64/libcudart_static.a names the C compiler's libgomp as needed before
 * libcuemu_cudart.so (emulator/export/toolkit.am), for a link by gcc or
 * gfortran -fopenmp with it. Its lib64/libcudart.so is a filter library,
 * which Python's ctypes loads too, and cannot name libgomp: a link by the
 * host compiler with -fopenmp and -lcudart starts libgomp first unless it
 * names -lgomp before -lcudart (README). A program linked otherwise, or
 * that loads libcuemu later, keeps libgomp's default; nothing else changes.
 * The variable stays set for the program's children, as if the user had
 * set it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

__attribute__((constructor)) static void cuemu_omp_wait_passive(void) {
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT"))
    return;
  /* libgomp is mapped (every DT_NEEDED library is before any starts), but
   * its constructor has not read the environment yet. LLVM's libomp has
   * libgomp's entry points too, and reads the same variable. */
  if (!dlsym(RTLD_DEFAULT, "GOMP_parallel"))
    return;
  setenv("OMP_WAIT_POLICY", "passive", 0);
}
