# The HFP profile on the card, with a stream on it, opens a real SCO link (CVSD): audio arrives in each direction.
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
[[ -n $card ]] || die "no bluez card"
# PipeWire names HFP's profile headset-head-unit; PulseAudio 16's native backend handsfree_head_unit.
profile=$(card_profile headset-head-unit)
[[ -n $profile ]] || profile=$(card_profile handsfree-head-unit)
[[ -n $profile ]] || die "the card offers no headset-head-unit profile: $(pactl list cards | grep -A12 Profiles)"
peer speaker /tmp/lab-speaker.wav
sox "$REPO/samples/hey-glasses-what-time.wav" -r 8000 -c 1 -b 16 /tmp/lab-mic-in.wav
peer mic /tmp/lab-mic-in.wav || die "the peer refused the mic WAV"
start=$(now)
pactl set-card-profile "$card" "$profile"
# The sound servers open SCO when a stream starts on the HFP sink or source, not at the switch.
wait_for 20 hfp_nodes || die "no bluez sink/source after switching to $profile: $(pactl list short sinks; pactl list short sources)"
sink=$(pactl list sinks short | awk '/bluez_output|bluez_sink/ {print $2; exit}')
source=$(pactl list sources short | awk '/bluez_input|bluez_source/ && !/monitor/ {print $2; exit}')
[[ -n $sink && -n $source ]] || die "no bluez sink/source: $(pactl list short sinks; pactl list short sources)"
sox -n -r 8000 -c 1 -b 16 /tmp/lab-tone.wav synth 12 sine 440 vol 0.5
paplay --device="$sink" /tmp/lab-tone.wav &
parec --device="$source" --rate=8000 --channels=1 --format=s16le > /tmp/lab-mic.raw &
rec=$!
peer wait sco 60 || die "no SCO link with streams on $sink and $source"
timing sco-up "$(since "$start")"
wait_for 30 grep -q "sco-first-buffer" "$OUT/logs/peer-events.log" || die "nothing arrived at the glasses over SCO"
timing sco-first-buffer "$(since "$start")"
# The mic speaks now that both streams run (the servers' sources start late under emulation).
peer mic /tmp/lab-mic-in.wav 0.5 || die "the peer refused the mic WAV"
sleep 9
kill $rec 2>/dev/null || true
answer=$(peer speaker-stop)
samples=$(awk '{print $1}' <<< "${answer#ok }")
echo "speaker got $samples samples; mic capture $(stat -c %s /tmp/lab-mic.raw) bytes"
(( samples > 8000 )) || die "the glasses' speaker got only $samples samples"
(( $(stat -c %s /tmp/lab-mic.raw) > 16000 )) || die "the sound server's SCO source gave only $(stat -c %s /tmp/lab-mic.raw) bytes"
heard=$(sox -t raw -r 8000 -e signed -b 16 -c 1 /tmp/lab-mic.raw -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
said=$(sox /tmp/lab-speaker.wav -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
pitch=$(/usr/bin/python3 "$LAB/cases/peak_frequency.py" /tmp/lab-speaker.wav)
echo "strongest frequency at the glasses' speaker: $pitch Hz (440 Hz played)"
echo "RMS at the glasses' speaker $said (a 440 Hz tone at 0.5 was played); RMS of what the source captured $heard (the mic said the sample)"
# Under emulation the link is bursty (gaps of silence between bursts): a level well above
# silence is what is asked, not the tone's full level.
awk -v r="${said:-0}" 'BEGIN { exit !(r > 0.005) }' || die "the tone did not reach the glasses' speaker (RMS ${said:-none})"
awk -v f="${pitch:-0}" 'BEGIN { exit !(f > 400 && f < 480) }' || die "what reached the glasses' speaker is not the 440 Hz tone (strongest ${pitch:-none} Hz)"
awk -v r="${heard:-0}" 'BEGIN { exit !(r > 0.005) }' || die "the glasses' mic did not reach the sound server's source (RMS ${heard:-none})"
