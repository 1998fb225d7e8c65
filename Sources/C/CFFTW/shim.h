// Shim for CFFTW: the one place Swift sees the fftw3f headers.
// Debian: libfftw3-dev
#pragma once
#include <fftw3.h>

/// FFTW_ESTIMATE is a shifted macro Swift cannot import.
static const unsigned CFFTW_ESTIMATE = FFTW_ESTIMATE;
