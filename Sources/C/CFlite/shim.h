// Shim for libflite (Debian: flite1-dev) and the five US English voices Debian builds in. The
// voices' register functions are declared by no installed header (flite's own program declares
// them the same way).
#pragma once
#include <flite/flite.h>

cst_voice *register_cmu_us_kal(const char *voxdir);
cst_voice *register_cmu_us_kal16(const char *voxdir);
cst_voice *register_cmu_us_awb(const char *voxdir);
cst_voice *register_cmu_us_rms(const char *voxdir);
cst_voice *register_cmu_us_slt(const char *voxdir);
