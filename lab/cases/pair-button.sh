# The glasses' button opens the companion app's pairing window on real bluetoothd: glasses-audiod
# (pulse backend, BLE on) reads the connected glasses' AVRCP key device (bluetoothd's uinput
# "NAME (AVRCP)"); the glasses hold their PLAY for 3.5 s (the pass-through press repeated every
# second, as a held button does) and the daemon takes it as a long press: the window opens, the
# code is spoken through the glasses, and a phone (a Bumble LE central, lab/peer/phone.py) reads
# pairing status 1. A second hold while the window is open changes nothing (one code spoken, the
# window kept). A short touch is push-to-talk, not a window. Run after pair.
DAEMON=$BIN/glasses-audiod
[[ -x $DAEMON ]] || skip "glasses-audiod is not built ($DAEMON): swift build --product glasses-audiod"
connected || die "run pair first: the glasses are not connected"
AUTH=6e400001-b5a3-f393-e0a9-e50e24dcca9e
STATUS=6e400103-b5a3-f393-e0a9-e50e24dcca9e
PORT=18744
DATA=/tmp/lab-pair-button
LOG=/tmp/lab-pair-button.log
avrcp_device() { grep -q '^N: Name=".*(AVRCP)"' /proc/bus/input/devices; }
# bluetoothd makes the key device when AVRCP connects; a first touch brings AVRCP up when it is
# not (before the daemon runs: nothing takes that touch).
if ! avrcp_device; then
  answer=$(peer touch play) || die "touch (to bring AVRCP up): $answer"
  wait_for 30 avrcp_device || die "no (AVRCP) input device: $(cat /proc/bus/input/devices)"
fi
grep -B1 -A4 '(AVRCP)' /proc/bus/input/devices
rm -rf "$DATA"; mkdir -p "$DATA"
start=$(now)
nice -n 10 "$DAEMON" --backend pulse --listen false --http-port $PORT --wyoming-port 0 --data-dir "$DATA" \
  --ble on --log-level trace > "$LOG" 2>&1 &
daemon=$!
trap 'cp "$LOG" "$OUT/logs/pair-button-daemon.log" 2>/dev/null; kill $daemon 2>/dev/null || true' EXIT
registered() { grep -q "ble: GATT application registered" "$LOG"; }
reading() { grep -q "button: the touches of .* are read: .*; reading /dev/input/event" "$LOG"; }
wait_for 180 registered || { tail -30 "$LOG"; die "glasses-audiod did not register its GATT application with bluetoothd"; }
wait_for 60 reading || { grep "button: " "$LOG"; die "glasses-audiod does not read the glasses' key device"; }
grep "button: " "$LOG"
timing pair-button-ready "$(since "$start")"

# Held for 3.5 s: a long press; the window opens and the code is spoken through the glasses.
peer a2dp /tmp/lab-pair-button-a2dp.wav > /dev/null
peer speaker /tmp/lab-pair-button-sco.wav > /dev/null
start=$(now)
answer=$(peer touch play 3.5) || die "touch held: $answer"
echo "the glasses held PLAY: ${answer#ok }"
opened() { grep -q "ble: pairing window open for" "$LOG"; }
wait_for 60 opened || { grep "button: \|ble: " "$LOG" | grep -v "speech: saying"; die "the long press opened no pairing window"; }
grep -q "button: a long press: a pairing window for the companion app is asked for" "$LOG" || die "the window did not come from the button"
timing pair-button-window "$(since "$start")"
spoken() { grep -q "ble: the pairing code was spoken\|ble: the pairing code could not be spoken" "$LOG"; }
wait_for 180 spoken || die "the daemon did not say the code within 180 s"
grep "ble: the pairing code" "$LOG"
grep -q "ble: the pairing code was spoken" "$LOG" || die "the code was not spoken"
timing pair-button-code-spoken "$(since "$start")"
sleep 1
a2dp=$(peer a2dp-stop); sco=$(peer speaker-stop)
echo "the glasses' speaker: A2DP ${a2dp#ok }; HFP ${sco#ok } samples"
recording=/tmp/lab-pair-button-a2dp.wav
[[ -s $recording ]] && [[ ${a2dp} == *"frames="[1-9]* ]] || recording=/tmp/lab-pair-button-sco.wav
heard=$(/usr/bin/python3 "$LAB/cases/speech_present.py" "$recording" 0.0003 | awk '{print $1}')
echo "speech at the glasses' speaker ($(basename "$recording")): $heard s"
awk -v h="${heard:-0}" 'BEGIN { exit !(h >= 3) }' || die "no spoken code at the glasses' speaker ($heard s of sound)"

# A phone sees the window: pairing status 1.
found=$(peer phone 1 scan $AUTH 60) || die "phone 1 did not find the advertisement: $found"
address=$(sed -n 's/.*address=\([^ ]*\).*/\1/p' <<< "$found")
answer=$(peer phone 1 connect "$address") || die "phone 1 connect: $answer"
answer=$(peer phone 1 read $STATUS) || die "phone 1 pairing status: $answer"
echo "phone 1, pairing status in the window: $answer"
grep -q "hex=01 " <<< "$answer" || die "pairing status is not 1 (a window is open): $answer"
peer phone 1 disconnect > /dev/null || true

# A second hold while the window is open changes nothing.
answer=$(peer touch play 3.5) || die "second touch held: $answer"
kept() { grep -q "ble: a pairing window is open already" "$LOG"; }
wait_for 60 kept || { grep "button: \|ble: " "$LOG" | grep -v "speech: saying"; die "the second long press was not answered with the window kept"; }
grep "ble: a pairing window is open already" "$LOG"
[[ $(grep -c "ble: pairing window open for" "$LOG") == 1 ]] || die "a second window opened"
[[ $(grep -c "speech: saying \"Your pairing code is" "$LOG") == 1 ]] || die "a second code was spoken"

# A short touch is push-to-talk, not a window.
answer=$(peer touch play) || die "short touch: $answer"
short() { grep -q "button: a short touch: " "$LOG"; }
wait_for 60 short || die "the short touch was not taken"
grep "button: a short touch: " "$LOG"
[[ $(grep -c "ble: pairing window open for" "$LOG") == 1 ]] || die "a short touch opened a window"
grep "button: \|ble: pairing\|ble: a pairing" "$LOG"
kill $daemon
