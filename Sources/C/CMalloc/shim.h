// Shim for glibc's malloc tuning (mallopt, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), which the Glibc
// module leaves out. Part of libc6-dev: nothing to install.
#pragma once
#include <malloc.h>

/// glasses-audiod's malloc settings (its benchmarks call this too, so what they measure is the
/// service's memory):
/// - a fixed mmap threshold (setting it turns glibc's sliding one off): every block of 256 KiB or
///   more (a Wyoming payload's buffer, a decoded file) is its own mapping and goes back to the
///   kernel when freed, instead of staying in an arena as RSS that grows with each round of big
///   messages;
/// - two arenas, not glibc's eight a core: each arena a thread opened kept its own free memory.
///   The listening daemon (Home Assistant backend) 21.1 -> 18.7 MB anonymous; 200 neural Wyoming
///   streams 272 -> 237 MB (peak 285 -> 269) at the same CPU a stream (docs/benchmarks.md).
static inline void glasses_service_malloc_settings(void) {
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_ARENA_MAX, 2);
}
