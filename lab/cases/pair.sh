# `glasses-audio pair`: discovery, pairing through our Agent1 (no bluetoothctl), trust,
# connect; then HFP's service-level connection comes up and the sound server makes a card.
# `devices` and `doctor` then tell the truth about the real adapter and the glasses.
[[ -x $BIN/glasses-audio ]] || die "glasses-audio is not built ($BIN/glasses-audio)"
btmgmt info | grep -q "addr C0:C1:C2:C3:C4:C5" || die "hci0 is not the lab's adapter: $(btmgmt info)"
start=$(now)
"$GA" pair "$GLASSES" --json > /tmp/lab-pair.json || die "glasses-audio pair failed"
cat /tmp/lab-pair.json
timing discover "$(python3 -c 'import json,sys; print("%.1f" % json.load(open("/tmp/lab-pair.json"))["discovery_seconds"])')"
timing pair "$(python3 -c 'import json,sys; print("%.1f" % json.load(open("/tmp/lab-pair.json"))["pair_seconds"])')"
timing connect "$(python3 -c 'import json,sys; print("%.1f" % json.load(open("/tmp/lab-pair.json"))["connect_seconds"])')"
paired || die "BlueZ says the glasses are not paired"
[[ $(bluez_prop org.bluez.Device1 Trusted) == true ]] || die "BlueZ says the glasses are not trusted"
connected || die "BlueZ says the glasses are not connected"
peer wait slc 60 || die "no HFP service-level connection"
timing hfp-ready "$(since "$start")"
wait_for 30 card_has bluez_card || die "no bluez card in $SERVER: $(pactl list cards short)"
"$GA" devices --backend pulse > /tmp/lab-devices.txt 2>&1 || die "glasses-audio devices failed: $(cat /tmp/lab-devices.txt)"
cat /tmp/lab-devices.txt
grep -q "$GLASSES" /tmp/lab-devices.txt || die "glasses-audio devices does not list $GLASSES"
"$GA" doctor > /tmp/lab-doctor.txt 2>&1; cat /tmp/lab-doctor.txt
grep -qi "C0:C1:C2:C3:C4:C5\|hci0" /tmp/lab-doctor.txt || die "glasses-audio doctor does not name the adapter"
# Auto-detection (no --backend) finds the sound server by its socket, however slowly it answers
# under emulation (a 1 s protocol probe used to fall back to the simulated glasses here).
"$GA" devices > /tmp/lab-devices-auto.txt 2> /tmp/lab-devices-auto.err || die "glasses-audio devices (auto) failed: $(cat /tmp/lab-devices-auto.err)"
cat /tmp/lab-devices-auto.err
grep -q "backend: pulse" /tmp/lab-devices-auto.err || die "auto-detection did not pick the sound server: $(cat /tmp/lab-devices-auto.err)"
grep -q "$GLASSES" /tmp/lab-devices-auto.txt || die "glasses-audio devices (auto) does not list $GLASSES: $(cat /tmp/lab-devices-auto.txt)"
