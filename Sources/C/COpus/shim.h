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

/// Same reason: how long (in 48 kHz samples) the encoder may hold audio before writing its
/// page (OPE_SET_MUXING_DELAY); a streaming writer keeps it short so a killed recording loses little.
static inline int COpus_encoderSetMuxingDelay(OggOpusEnc *enc, opus_int32 samples) {
    return ope_encoder_ctl(enc, OPE_SET_MUXING_DELAY(samples));
}

/// Same reason: how much audio (in 48 kHz samples) the encoder buffers before encoding it
/// (OPE_SET_DECISION_DELAY, 2 s by default); a streaming writer keeps it short.
static inline int COpus_encoderSetDecisionDelay(OggOpusEnc *enc, opus_int32 samples) {
    return ope_encoder_ctl(enc, OPE_SET_DECISION_DELAY(samples));
}
