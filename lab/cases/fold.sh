# Fold (link loss: the glasses drop the link, supervision timeout, and answer no page until
# unfolded — else bluetoothd's policy reconnects them at once) mid-command and mid-reply:
# listen ends with deviceNotConnected, no bluez stream or sink is left, and
# `glasses-audio connect` brings the glasses and HFP back each time. The peer folds on its own
# state, never on a delay or on polling listen (under TCG a poll and a peerctl call took tens
# of seconds, and the command had ended or the reply, a second or two long, was over):
# mid-command when its mic is 1 s into the spoken command, mid-reply at the first sound its
# speaker gets.
[[ -x $BIN/glasses-audio ]] || die "glasses-audio is not built ($BIN/glasses-audio)"
connected || die "run pair first: the glasses are not connected"
command_wav /tmp/lab-mic-in.wav || die "flite could not make the spoken command"
sox -n -r 8000 -c 1 -b 16 /tmp/lab-silence.wav trim 0 1

# fold_during command|reply: starts listen with the mic armed (the command 2 s into the SCO
# link, as in roundtrip) and the peer's fold armed, waits for the fold, checks the outcome,
# reconnects.
fold_during() {
  local phase=$1 out=/tmp/lab-fold-$1
  peer wait slc 60 || die "no HFP service-level connection before folding mid-$phase"
  peer mic /tmp/lab-silence.wav 0
  pactl set-card-profile "$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')" "$(card_profile a2dp-sink)"
  peer wait sco-down 30 || die "the SCO link of an earlier case is still up"
  peer mic /tmp/lab-mic-in.wav 2 || die "the peer refused the mic WAV"
  case $phase in
    command) peer fold-at-mic 1 || die "the peer could not arm the fold" ;;
    reply) peer fold-on-sound || die "the peer could not arm the fold" ;;
  esac
  timeout --kill-after=10 420 "$GA" listen --now --once --json --backend pulse --seconds 400 --end-silence 5 --command-wait 60 --reply-timeout 120 \
    > $out.json 2> $out.err &
  local listener=$! status=0
  peer wait gone 300 || { peer fold-at-mic off; peer fold-on-sound off; kill $listener 2>/dev/null; cat $out.json $out.err
    die "(mid-$phase) the peer never folded"; }
  wait $listener || status=$?
  echo "-- fold mid-$phase: listen exited $status"; cat $out.json $out.err
  grep '"type":"error"' $out.json | grep -qi "not connected" || die "(mid-$phase) listen did not end with deviceNotConnected"
  case $phase in
    command) ! grep -q '"type":"commandCaptured"' $out.json || die "(mid-command) the command was over before the fold" ;;
    reply) grep -q '"type":"replyStarted"' $out.json || die "(mid-reply) the fold came before the reply" ;;
  esac
  wait_for 20 not_connected || die "(mid-$phase) BlueZ still says connected after the fold"
  local left
  left=$(pactl list short sinks | grep -c bluez || true)
  (( left == 0 )) || die "(mid-$phase) a bluez sink is left after the fold: $(pactl list short sinks)"
  left=$(pactl list short source-outputs | wc -l)
  (( left == 0 )) || die "(mid-$phase) a capture stream is left after the fold: $(pactl list short source-outputs)"
  left=$(pactl list short sink-inputs | wc -l)
  (( left == 0 )) || die "(mid-$phase) a playback stream is left after the fold: $(pactl list short sink-inputs)"
  peer unfold || die "the peer could not unfold"
  local start
  start=$(now)
  "$GA" connect "$GLASSES" || die "(mid-$phase) glasses-audio connect after the fold failed"
  peer wait slc 60 || die "(mid-$phase) HFP did not come back after reconnecting"
  timing reconnect "$(since "$start")"
  wait_for 60 card_has bluez_card || die "(mid-$phase) no bluez card after reconnecting"
}

fold_during command
fold_during reply
