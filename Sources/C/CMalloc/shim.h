// Shim for glibc's malloc tuning (mallopt, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), which the Glibc
// module leaves out. Part of libc6-dev: nothing to install.
#pragma once
#include <malloc.h>
