# The capture path alone, without the voice stage: `glasses-audio record` opens HFP through the
# route engine (mediaFirst: it switches the card itself) and records the glasses' mic while the
# peer's mic says the sample; the WAV must carry the speech. When the round trip hears nothing,
# this tells the link from the voice stage. capture-msbc.sh runs it over mSBC: CAPTURE_RATE=16000
# (the mic's WAV for the link's codec) and CAPTURE_PHRASE (flite's phrase instead of the sample).
rate=${CAPTURE_RATE:-8000}
[[ -x $BIN/glasses-audio ]] || die "glasses-audio is not built ($BIN/glasses-audio)"
connected || die "run pair first: the glasses are not connected"
pactl set-card-profile "$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')" "$(card_profile a2dp-sink)"
peer wait sco-down 30 || die "the SCO link of an earlier case is still up"
if [[ -n ${CAPTURE_PHRASE:-} ]]; then
  command_wav /tmp/lab-mic-in.wav "$rate" "$CAPTURE_PHRASE" || die "flite could not make the spoken phrase"
else
  sox "$REPO/samples/hey-glasses-what-time.wav" -r "$rate" -c 1 -b 16 /tmp/lab-mic-in.wav
fi
sox -n -r "$rate" -c 1 -b 16 /tmp/lab-silence.wav trim 0 1
peer mic /tmp/lab-silence.wav 0
rm -f /tmp/lab-capture.wav
timeout --kill-after=10 300 "$GA" record --backend pulse --seconds 20 --rate 16000 --timeout 120 /tmp/lab-capture.wav \
  > /tmp/lab-capture.out 2> /tmp/lab-capture.err &
recorder=$!
recording() { grep -q "^recording" /tmp/lab-capture.err; }
wait_for 150 recording || { kill $recorder 2>/dev/null; cat /tmp/lab-capture.err; die "record did not start"; }
peer mic /tmp/lab-mic-in.wav 0.3 || die "the peer refused the mic WAV"
status=0
wait $recorder || status=$?
cat /tmp/lab-capture.out /tmp/lab-capture.err
cp /tmp/lab-capture.wav "$OUT/logs/capture.wav" 2>/dev/null || true
(( status == 0 )) || die "glasses-audio record exited $status"
read -r voiced level total < <(/usr/bin/python3 "$LAB/cases/speech_present.py" /tmp/lab-capture.wav)
echo "record captured ${total} s: ${voiced} s of sound at RMS ${level}"
awk -v v="${voiced:-0}" 'BEGIN { exit !(v >= 0.8) }' || die "the glasses' mic did not reach glasses-audio record (${voiced:-0} s of sound in ${total:-0} s)"
