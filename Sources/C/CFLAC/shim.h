// Shim for CFLAC: the one place Swift sees libFLAC (the FLAC decoder for Home Assistant's TTS
// and announcements, which it sends as FLAC when the device lists FLAC first).
// Debian: libflac-dev
#pragma once
#include <FLAC/stream_decoder.h>
