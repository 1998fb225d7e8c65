# The spoken round trip over wideband speech (mSBC), by name: scripts/bt-lab --server pipewire
# pair roundtrip-msbc. The glasses list mSBC beside CVSD at a reconnect (as in the msbc case) and
# PipeWire 0.3.65 picks it; then roundtrip.sh with the wake word: the glasses' mic says "hey
# glasses, what time is it" (16 kHz, mSBC-encoded by the peer) 2 s into the SCO link, `listen
# --once` hears the wake phrase and the command, the reply is heard at the glasses' speaker, and
# the card goes back to A2DP. The link must have been mSBC. The glasses go back to CVSD alone
# (another reconnect) at the end, pass or fail. (PulseAudio 16 is killed on mSBC: docs/bluez.md.)
connected || die "run pair first: the glasses are not connected"
trap 'kill $(jobs -p) 2>/dev/null || true; back_to_cvsd' EXIT
start=$(now)
offer_msbc || die "the reconnect with mSBC listed failed"
timing roundtrip-msbc-reconnect "$(since "$start")"
ROUNDTRIP_RATE=16000 ROUNDTRIP_WAKE=1
source "$LAB/cases/roundtrip.sh"
link=$(grep "sco-connected" "$OUT/logs/peer-events.log" | tail -1)
echo "the round trip's link: $link ($(grep hfp-codec "$OUT/logs/peer-events.log" | tail -1 || echo 'no +BCS'))"
[[ $link == *codec=mSBC* ]] || die "the round trip ran over CVSD, not mSBC: the glasses offered both"
