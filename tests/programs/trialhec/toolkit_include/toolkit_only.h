/* toolkit_include/toolkit_only.h: a header that only the toolkit's include
 * folder has (as nvToolsExt.h or a library's header): it must still be
 * found there (toolkit_include_path.cu). */
#pragma once
#define TOOLKIT_ONLY_VALUE 42
