# The capture path alone over mSBC, by name: scripts/bt-lab --server pipewire pair capture-msbc.
# The glasses reconnect listing mSBC (PipeWire 0.3.65 picks it); then capture.sh with the mic
# saying "hey glasses, what time is it" (16 kHz, flite, as in roundtrip-msbc): what
# `glasses-audio record` got is kept in the logs (capture.wav), to be heard or fed to the voice
# stage on the host (`glasses-audio listen --backend simulated --mic logs/capture.wav`) when
# roundtrip-msbc hears no wake phrase. The link must have been mSBC; back to CVSD alone after.
connected || die "run pair first: the glasses are not connected"
trap 'kill $(jobs -p) 2>/dev/null || true; back_to_cvsd' EXIT
offer_msbc || die "the reconnect with mSBC listed failed"
CAPTURE_RATE=16000 CAPTURE_PHRASE="hey glasses, what time is it"
source "$LAB/cases/capture.sh"
link=$(grep "sco-connected" "$OUT/logs/peer-events.log" | tail -1)
echo "the capture's link: $link"
[[ $link == *codec=mSBC* ]] || die "the capture ran over CVSD, not mSBC: the glasses offered both"
