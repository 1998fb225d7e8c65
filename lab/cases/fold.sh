# Fold mid-command: the link drops (supervision timeout) while push-to-talk is capturing over
# SCO; the command ends with deviceNotConnected and no stream is left. Then the glasses
# reconnect (`glasses-audio connect`) and HFP comes back.
[[ -x $GA ]] || die "glasses-audio is not built ($GA)"
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
sox -n -r 8000 -c 1 -b 16 /tmp/lab-silence.wav trim 0 1
peer mic /tmp/lab-silence.wav 0
pactl set-card-profile "$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')" "$(card_profile a2dp-sink)"
peer wait sco-down 30 || die "the SCO link of an earlier case is still up"
timeout --kill-after=10 300 "$GA" listen --now --once --json --backend pulse --seconds 240 > /tmp/lab-fold.json 2> /tmp/lab-fold.err &
listener=$!
peer wait sco 120 || { kill $listener; die "push-to-talk did not open SCO"; }
sleep 2
peer fold || die "the peer could not drop the link"
peer wait gone 10 || true
status=0
wait $listener || status=$?
cat /tmp/lab-fold.json; cat /tmp/lab-fold.err
(( status != 0 )) || grep -q '"type":"error"' /tmp/lab-fold.json || die "listen did not report the link loss (exit 0, no error event)"
grep -qi "not connected\|deviceNotConnected" /tmp/lab-fold.json /tmp/lab-fold.err || die "the error is not deviceNotConnected"
wait_for 20 not_connected || die "BlueZ still says connected after the fold"
left=$(pactl list short sinks | grep -c bluez || true)
(( left == 0 )) || die "a bluez sink is left after the fold: $(pactl list short sinks)"
start=$(now)
"$GA" connect "$GLASSES" || die "glasses-audio connect after the fold failed"
peer wait slc 60 || die "HFP did not come back after reconnecting"
timing reconnect "$(since "$start")"
