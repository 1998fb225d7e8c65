# Fold (link loss: the glasses drop the link, supervision timeout, and answer no page until
# unfolded — else bluetoothd's policy reconnects them at once) mid-command (at listen's
# speechStarted) and mid-reply (the peer folds at the first sound its speaker gets, which
# follows replyStarted; a reply lasts a second or two, shorter than polling for the event):
# listen ends with deviceNotConnected, no bluez stream or sink is left, and
# `glasses-audio connect` brings the glasses and HFP back each time. Every step waits on a
# state (listen's events, the peer's), never on a delay.
[[ -x $BIN/glasses-audio ]] || die "glasses-audio is not built ($BIN/glasses-audio)"
connected || die "run pair first: the glasses are not connected"
command_wav /tmp/lab-mic-in.wav || die "flite could not make the spoken command"
# Mid-command: the user is still speaking (the sample three times over) when the glasses fold.
sox /tmp/lab-mic-in.wav /tmp/lab-mic-in.wav /tmp/lab-mic-in.wav /tmp/lab-mic-long.wav
sox -n -r 8000 -c 1 -b 16 /tmp/lab-silence.wav trim 0 1

# fold_during PHASE_EVENT MIC_WAV: starts listen, has the mic say MIC_WAV once the command
# capture started, folds at listen's PHASE_EVENT (replyStarted: at the reply's first sound),
# checks the outcome, reconnects.
fold_during() {
  local phase=$1 mic=$2 out=/tmp/lab-fold-$1
  peer wait slc 60 || die "no HFP service-level connection before folding at $phase"
  peer mic /tmp/lab-silence.wav 0
  pactl set-card-profile "$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')" "$(card_profile a2dp-sink)"
  peer wait sco-down 30 || die "the SCO link of an earlier case is still up"
  [[ $phase == replyStarted ]] && { peer fold-on-sound || die "the peer could not arm the fold"; }
  timeout --kill-after=10 420 "$GA" listen --now --once --json --backend pulse --seconds 400 --end-silence 5 --command-wait 60 --reply-timeout 120 \
    > $out.json 2> $out.err &
  local listener=$! status=0
  has() { grep -q "\"type\":\"$1\"" $out.json; }
  # The awaited event, or listen's end (then the case fails, saying so).
  reached() { has "$1" || ! kill -0 $listener 2>/dev/null; }
  wait_for 120 has commandStarted || { kill $listener; cat $out.json $out.err; die "($phase) the capture did not start"; }
  peer mic "$mic" 0.3 || die "the peer refused the mic WAV"
  wait_for 240 reached "$phase" && has "$phase" || { kill $listener 2>/dev/null; cat $out.json $out.err; die "($phase) listen never reached $phase"; }
  if [[ $phase == replyStarted ]]; then
    peer wait gone 60 || { peer fold-on-sound off; die "($phase) no fold: the reply's sound never reached the glasses"; }
  else
    peer fold || die "the peer could not drop the link"
    peer wait gone 10 || true
  fi
  wait $listener || status=$?
  echo "-- fold at $phase: listen exited $status"; cat $out.json $out.err
  grep '"type":"error"' $out.json | grep -qi "not connected" || die "($phase) listen did not end with deviceNotConnected"
  wait_for 20 not_connected || die "($phase) BlueZ still says connected after the fold"
  local left
  left=$(pactl list short sinks | grep -c bluez || true)
  (( left == 0 )) || die "($phase) a bluez sink is left after the fold: $(pactl list short sinks)"
  left=$(pactl list short source-outputs | wc -l)
  (( left == 0 )) || die "($phase) a capture stream is left after the fold: $(pactl list short source-outputs)"
  peer unfold || die "the peer could not unfold"
  local start
  start=$(now)
  "$GA" connect "$GLASSES" || die "($phase) glasses-audio connect after the fold failed"
  peer wait slc 60 || die "($phase) HFP did not come back after reconnecting"
  timing reconnect "$(since "$start")"
  wait_for 60 card_has bluez_card || die "($phase) no bluez card after reconnecting"
}

fold_during speechStarted /tmp/lab-mic-long.wav
fold_during replyStarted /tmp/lab-mic-in.wav
