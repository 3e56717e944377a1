/* project_include/toolkit_only.h: a project's header of the same name as
 * one of the toolkit's (as a vendored nvtx3/nvToolsExt.h), in a folder
 * named after the toolkit's: nvcc takes the toolkit's, which comes first
 * on the include path (toolkit_include_path.cu). */
#pragma once
#define TOOLKIT_ONLY_VALUE 7
