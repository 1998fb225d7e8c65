// Shim for CSBC: the one place Swift sees libsbc (the Bluetooth SBC codec).
// Debian: libsbc-dev
#pragma once
#include <sbc/sbc.h>
