# A2DP: a tone played on the glasses' A2DP sink arrives at the glasses as SBC, and decodes
# (libsbc, in the peer) back to a tone.
connected || die "run pair first: the glasses are not connected"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
[[ -n $card ]] || die "no bluez card"
pactl set-card-profile "$card" "$(card_profile a2dp-sink)"
wait_for 20 bluez_sink_up || die "no bluez A2DP sink: $(pactl list short sinks)"
sink=$(pactl list short sinks | awk '/bluez/ {print $2; exit}')
peer a2dp /tmp/lab-a2dp.wav
sox -n -r 48000 -c 2 -b 16 /tmp/lab-a2dp-tone.wav synth 6 sine 1000 vol 0.5
start=$(now)
paplay --device="$sink" /tmp/lab-a2dp-tone.wav
sleep 1
answer=$(peer a2dp-stop) || die "a2dp-stop: $answer"
echo "the glasses decoded: ${answer#ok }"
grep -h "a2dp-first-frame" "$OUT/logs/peer-events.log" | tail -1
frames=$(grep -oE "frames=[0-9]+" <<< "$answer" | cut -d= -f2)
(( ${frames:-0} > 100 )) || die "only ${frames:-0} SBC frames arrived"
rms=$(sox /tmp/lab-a2dp.wav -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
freq=$(/usr/bin/python3 "$LAB/cases/peak_frequency.py" /tmp/lab-a2dp.wav)
echo "decoded RMS $rms, strongest frequency $freq Hz (1000 Hz played)"
# PipeWire gives a new Bluetooth sink its default volume (0.4, cubic: about 0.06 of the
# amplitude), PulseAudio full volume: the tone's level is not compared, only told from silence.
awk -v r="${rms:-0}" 'BEGIN { exit !(r > 0.005) }' || die "the decoded A2DP audio is silent (RMS ${rms:-none})"
awk -v f="${freq:-0}" 'BEGIN { exit !(f > 900 && f < 1100) }' || die "the decoded A2DP audio is not the 1000 Hz tone (strongest frequency ${freq:-none} Hz)"
