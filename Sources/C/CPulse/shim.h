// Shim for CPulse: the one place Swift sees the libpulse headers.
// Debian: libpulse-dev
#pragma once
#include <pulse/pulseaudio.h>
#include <pulse/error.h>
