/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libsubcmd's option parser, perf's own.  Its header leans on
 * BUILD_BUG_ON_ZERO from the kernel's tools/include; supply it here
 * rather than put all of tools/include on the include path.
 */
#ifndef PERF_GPU_UTIL_OPTIONS_H
#define PERF_GPU_UTIL_OPTIONS_H

#ifndef BUILD_BUG_ON_ZERO
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#endif
#include <subcmd/parse-options.h>

#endif
