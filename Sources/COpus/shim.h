// Shim for COpus: the one place Swift sees the opusfile headers.
// Debian: libopus-dev libopusenc-dev libopusfile-dev
#pragma once
#include <opus.h>
#include <opusenc.h>
#include <opusfile.h>

/// `ope_encoder_ctl` is variadic and its requests are macros; Swift can call neither.
static inline int COpus_encoderSetBitrate(OggOpusEnc *enc, opus_int32 bitsPerSecond) {
    return ope_encoder_ctl(enc, OPUS_SET_BITRATE(bitsPerSecond));
}

/// Same reason: tells the encoder the content is speech (OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE)).
static inline int COpus_encoderSetVoiceSignal(OggOpusEnc *enc) {
    return ope_encoder_ctl(enc, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
}
