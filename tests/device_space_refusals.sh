#!/bin/sh
# device_space_refusals.sh: what nvcc refuses across execution spaces,
# refused by cuemu-nvcc with g++ (its GCC plugin) at the user's line and in
# nvcc's words: a host function called from a __global__ or __device__
# function, a kernel called without <<<>>> from host or device code, a
# host variable odr-used in device code, a __device__ variable that needs
# dynamic initialization (one byte of an address too), a __constant__ variable assigned in a kernel,
# __shared__ in a host function, a constexpr host function (the user's,
# std::min) without --expt-relaxed-constexpr, the C++ library's host
# functions (std::sort, std::vector), a const array's element, a
# namespace's constexpr array's element (but in a constant expression or
# under sizeof, which the near misses hold), a class's constexpr array's
# element at a run-time offset or by address, a class's constexpr member
# or a namespace's constant bound to a reference (a reference's
# initializer, a call's or a constructor's reference parameter, through a
# conditional) (but read by value through `*&`, folded, which the near
# misses hold, also for an array of device function pointers called at a
# constant index, and a constexpr function's call of constants, folded),
# variable
# templates' and class templates' static members' instances, a virtual
# function overriding one of another execution space, a kernel template
# instantiated with a host lambda's closure type (also inside another
# template argument)
# (tests/driver/devref/space_refusals.cu,
# one form per -DCASE=N); without CASE, the near misses that nvcc accepts
# (constants read by value, implicit, defaulted and constexpr functions, a
# __device__ function defined after its caller, __shared__ in a __device__
# function, an empty __device__ constructor, a nested array declarator,
# overrides in their base's space (through two levels, of a pure virtual
# function),
# an extended lambda inside a class template's instance passed to a kernel,
# __device__ variable templates, std::move, integers initialised with
# addresses) build and run, with g++ and clang++, and so does a module
# with a function's prototype after a __device__ variable.
# tests/device_refusals.sh
# does the work.
# Run by `make check` with AM_TESTS_ENVIRONMENT.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
DEVREF_SOURCE=space_refusals.cu exec sh "$srcdir/tests/device_refusals.sh"
