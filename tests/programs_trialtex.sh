#!/bin/sh
# programs_trialtex.sh: programs of tests/programs/trialtex, from a trial of
# image-processing, volume-rendering and graphics-style CUDA code (texture
# and surface objects of every shape, CUDA arrays and their copies), each
# checking itself against a host model of the texture unit written from
# the Programming Guide's "Texture Fetching" appendix (common.h), built
# with cuemu-nvcc.
PROGRAMS_COMBINE=1 exec sh "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs.sh" "${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/programs/trialtex"
