// Shim for CPulse: the one place Swift sees the libpulse-simple headers.
// Debian: libpulse-dev
#pragma once
#include <pulse/pulseaudio.h>
#include <pulse/simple.h>
#include <pulse/error.h>
