# After HFP, the card goes back to A2DP: bluetoothd re-acquires the A2DP transport (AVDTP Start
# to the glasses) and SBC arrives again. Run after sco (which leaves the card on HFP).
# On PulseAudio 16 this fails in the lab: "Transport Acquire() failed (Input/output error)",
# and the card falls to off; on PipeWire it passes. Not in CI until that is understood.
connected || die "run pair first: the glasses are not connected"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
[[ -n $card ]] || die "no bluez card"
start=$(now)
pactl set-card-profile "$card" "$(card_profile a2dp-sink)" || die "switching back to A2DP failed: $(pactl list cards | grep 'Active Profile')"
wait_for 20 bluez_sink_up || die "no bluez A2DP sink after the switch back"
timing a2dp-restore "$(since "$start")"
