// Shim for CSoxr: the one place Swift sees the soxr headers.
// Debian: libsoxr-dev
#pragma once
#include <soxr.h>

/// SOXR_HQ and SOXR_VHQ are macros of macros; named here so Swift can use them.
static const unsigned long CSoxr_qualityHigh = SOXR_HQ;
static const unsigned long CSoxr_qualityVeryHigh = SOXR_VHQ;
