// Shim for CEspeak: the one place Swift sees the espeak-ng headers.
// Debian: libespeak-ng-dev
#pragma once
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
