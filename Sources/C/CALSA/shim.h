// Shim for CALSA: the one place Swift sees the alsa headers.
// Debian: libasound2-dev
#pragma once
#include <alsa/asoundlib.h>
