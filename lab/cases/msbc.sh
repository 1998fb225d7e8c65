# Wideband speech (mSBC), by name: scripts/bt-lab pair msbc. The glasses list mSBC beside CVSD
# (AT+BAC=1,2, codec negotiation in their features) at a new service-level connection (a
# reconnect); records what the AG picks (+BCS, before the SCO link) and the link the kernel sets
# up, and checks audio both ways with tones only a wideband link carries (above CVSD's 4 kHz
# band): 5 kHz from the glasses' mic to the sound server's source, 6 kHz from its sink to the
# glasses' speaker (the peer encodes and decodes mSBC with libsbc). The glasses go back to CVSD
# alone (another reconnect) at the end, pass or fail, for the cases after it.
connected || die "run pair first: the glasses are not connected"
# (run-in-guest.sh's EXIT trap ends the case's background jobs; this one does that too, first.)
trap 'kill $(jobs -p) 2>/dev/null || true; back_to_cvsd' EXIT
start=$(now)
offer_msbc || die "the reconnect with mSBC listed failed"
timing msbc-reconnect "$(since "$start")"
grep "hfp-codec" "$OUT/logs/peer-events.log" || echo "no codec negotiated yet (the AG sends +BCS before its first SCO link)"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
[[ -n $card ]] || die "no bluez card"
profile=$(card_profile headset-head-unit)
[[ -n $profile ]] || profile=$(card_profile handsfree-head-unit)
[[ -n $profile ]] || die "the card offers no headset-head-unit profile: $(pactl list cards | grep -A12 Profiles)"
echo "-- the card's profiles:"; pactl list cards | sed -n '/^\tProfiles:/,/^\tActive Profile/p'
peer speaker /tmp/lab-msbc-speaker.wav
sox -n -r 16000 -c 1 -b 16 /tmp/lab-msbc-mic.wav synth 8 sine 5000 vol 0.5
peer mic /tmp/lab-msbc-mic.wav 1 || die "the peer refused the mic WAV"
start=$(now)
pactl set-card-profile "$card" "$profile"
wait_for 20 hfp_nodes || die "no bluez sink/source after switching to $profile: $(pactl list short sinks; pactl list short sources)"
sink=$(pactl list sinks short | awk '/bluez_output|bluez_sink/ {print $2; exit}')
source=$(pactl list sources short | awk '/bluez_input|bluez_source/ && !/monitor/ {print $2; exit}')
echo "-- HFP sink and source:"; pactl list sinks short | grep bluez; pactl list sources short | grep bluez | grep -v monitor
sox -n -r 16000 -c 1 -b 16 /tmp/lab-msbc-tone.wav synth 12 sine 6000 vol 0.5
paplay --device="$sink" /tmp/lab-msbc-tone.wav &
parec --device="$source" --rate=16000 --channels=1 --format=s16le > /tmp/lab-msbc-source.raw &
rec=$!
peer wait sco 60 || die "no SCO link with streams on $sink and $source"
timing msbc-sco-up "$(since "$start")"
grep -E "hfp-codec|sco-connected" "$OUT/logs/peer-events.log" | tail -3
echo "-- the kernel's synchronous connection (btmon):"
btmon -r "$OUT/logs/btsnoop.log" 2>/dev/null | grep -E -A12 "Enhanced Setup Synchronous|Setup Synchronous Connection \(|Synchronous Connect Complete" | grep -E "Synchronous|Air mode|Voice setting|Coding Format|Codec|Packet type" | head -30
link=$(grep "sco-connected" "$OUT/logs/peer-events.log" | tail -1)
[[ $link == *codec=mSBC* ]] || die "the AG set up the SCO link for CVSD, not mSBC ($(grep hfp-codec "$OUT/logs/peer-events.log" | tail -1 || echo 'no +BCS'): the glasses offered both)"
sleep 10
kill $rec 2>/dev/null || true
answer=$(peer speaker-stop)
samples=$(awk '{print $1}' <<< "${answer#ok }")
sox -t raw -r 16000 -e signed -b 16 -c 1 /tmp/lab-msbc-source.raw /tmp/lab-msbc-source.wav 2>/dev/null
echo "speaker got $samples samples (16 kHz); source capture $(stat -c %s /tmp/lab-msbc-source.raw) bytes"
at_glasses=$(/usr/bin/python3 "$LAB/cases/peak_frequency.py" /tmp/lab-msbc-speaker.wav)
at_source=$(/usr/bin/python3 "$LAB/cases/peak_frequency.py" /tmp/lab-msbc-source.wav)
echo "strongest frequency at the glasses' speaker: $at_glasses Hz (6000 Hz played); at the sound server's source: $at_source Hz (the mic said 5000 Hz)"
pactl set-card-profile "$card" "$(card_profile a2dp-sink)" || echo "switching back to A2DP failed"
awk -v f="${at_glasses:-0}" 'BEGIN { exit !(f > 5900 && f < 6100) }' || die "the 6 kHz tone did not reach the glasses' speaker over mSBC (strongest ${at_glasses:-none} Hz)"
awk -v f="${at_source:-0}" 'BEGIN { exit !(f > 4900 && f < 5100) }' || die "the mic's 5 kHz tone did not reach the sound server's source (strongest ${at_source:-none} Hz)"
