// Shim for CBLAS: the one place Swift sees the BLAS headers (OpenBLAS's cblas.h).
// Debian: libopenblas-dev
#pragma once
#include <cblas.h>
