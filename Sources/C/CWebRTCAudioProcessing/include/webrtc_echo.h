// A thin C face on webrtc-audio-processing's echo canceller (Debian's
// libwebrtc-audio-processing-dev, the one PulseAudio's module-echo-cancel uses), so Swift can
// call it: 10 ms mono frames of float samples in [-1, 1].
#ifndef WEBRTC_ECHO_H
#define WEBRTC_ECHO_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct webrtc_echo webrtc_echo;

/// A canceller for `sample_rate` (8000, 16000, 32000 or 48000) mono audio, with the extended
/// filter and delay-agnostic mode (it finds the speaker-to-mic delay itself). NULL on failure.
webrtc_echo *webrtc_echo_create(int sample_rate);
void webrtc_echo_destroy(webrtc_echo *echo);
/// One frame of what the speaker plays (the far end). 0, or webrtc's error code.
int webrtc_echo_render(webrtc_echo *echo, const float *frame);
/// One frame of the mic, replaced by the mic with the echo taken out. 0, or webrtc's error code.
int webrtc_echo_capture(webrtc_echo *echo, float *frame);
/// The delay the canceller found between the far end and its echo (ms, median and standard
/// deviation over its last period); -1 before it has one.
int webrtc_echo_delay(webrtc_echo *echo, int *median_ms, int *deviation_ms);

#ifdef __cplusplus
}
#endif

#endif
