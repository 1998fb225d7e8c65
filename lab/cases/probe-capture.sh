# A probe, not a test (run by name; it fails only when it cannot run): what PulseAudio's (or
# PipeWire's) HFP source gives a capture (a) alone, (b) with a stream playing on the HFP sink,
# and (c) to `glasses-audio record` alone, while the glasses' mic says the sample each time.
# Prints the seconds of sound each captured. (The round trip heard silence on PulseAudio 16.)
connected || die "run pair first: the glasses are not connected"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
profile=$(card_profile headset-head-unit); [[ -n $profile ]] || profile=$(card_profile handsfree-head-unit)
sox "$REPO/samples/hey-glasses-what-time.wav" -r 8000 -c 1 -b 16 /tmp/lab-mic-in.wav
sox -n -r 8000 -c 1 -b 16 /tmp/lab-silence-long.wav trim 0 14
measure() { sox -t raw -r 8000 -e signed -b 16 -c 1 "$1" /tmp/lab-probe.wav 2>/dev/null; /usr/bin/python3 "$LAB/cases/speech_present.py" /tmp/lab-probe.wav; }
switch_to_hfp() {
  pactl set-card-profile "$card" "$(card_profile a2dp-sink)"; peer wait sco-down 30 > /dev/null
  pactl set-card-profile "$card" "$profile"
  wait_for 20 hfp_nodes || die "no HFP nodes"
}
source_name() { pactl list sources short | awk '/bluez_input|bluez_source/ && !/monitor/ {print $2; exit}'; }
sink_name() { pactl list sinks short | awk '/bluez_output|bluez_sink/ {print $2; exit}'; }
for variant in alone with-playback; do
  peer mic /tmp/lab-silence-long.wav 0 > /dev/null
  switch_to_hfp
  [[ $variant == with-playback ]] && { paplay --device="$(sink_name)" /tmp/lab-silence-long.wav & player=$!; }
  parec --device="$(source_name)" --rate=8000 --channels=1 --format=s16le > /tmp/lab-probe-$variant.raw &
  rec=$!
  peer wait sco 60 > /dev/null || die "no SCO ($variant)"
  wait_for 30 test -s /tmp/lab-probe-$variant.raw || echo "($variant) parec got no bytes in 30 s"
  said=$(grep -c "mic-done samples=5" "$OUT/logs/peer-events.log" || true)
  peer mic /tmp/lab-mic-in.wav 0.3 > /dev/null
  spoken() { (( $(grep -c "mic-done samples=5" "$OUT/logs/peer-events.log" || true) > said )); }
  wait_for 60 spoken
  sleep 3  # the tail of the speech through the server's buffers: a probe, not a check
  kill $rec; [[ $variant == with-playback ]] && kill $player 2>/dev/null
  echo "probe $SERVER parec-$variant: $(measure /tmp/lab-probe-$variant.raw) (voiced s, rms, total s)"
done
pactl set-card-profile "$card" "$(card_profile a2dp-sink)"; peer wait sco-down 30 > /dev/null
peer mic /tmp/lab-silence-long.wav 0 > /dev/null
"$GA" record --backend pulse --seconds 16 --rate 8000 --timeout 120 /tmp/lab-probe-record.wav > /tmp/lab-probe-record.out 2> /tmp/lab-probe-record.err &
recorder=$!
wait_for 150 grep -q "^recording" /tmp/lab-probe-record.err
peer mic /tmp/lab-mic-in.wav 0.3 > /dev/null
wait $recorder || true
cat /tmp/lab-probe-record.out
echo "probe $SERVER glasses-audio-record: $(/usr/bin/python3 "$LAB/cases/speech_present.py" /tmp/lab-probe-record.wav) (voiced s, rms, total s)"
