# The voice round trip over a real SCO link: push-to-talk (`listen --now --once`, mediaFirst)
# opens HFP, the glasses' mic says "hey glasses, what time is it", the assistant answers, the
# reply arrives at the glasses' speaker, and the card goes back to A2DP.
[[ -x $GA ]] || die "glasses-audio is not built ($GA)"
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
# From A2DP with no SCO link, as mediaFirst expects to find the glasses.
pactl set-card-profile "$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')" "$(card_profile a2dp-sink)"
peer wait sco-down 30 || die "the SCO link of an earlier case is still up"
sox "$REPO/samples/hey-glasses-what-time.wav" -r 8000 -c 1 -b 16 /tmp/lab-mic-in.wav
# The capture starts a few seconds after SCO is up (routeReady): the mic waits for it.
peer mic /tmp/lab-mic-in.wav 6 || die "the peer refused the mic WAV"
peer speaker /tmp/lab-reply.wav
start=$(now)
status=0
timeout --kill-after=10 300 "$GA" listen --now --once --json --backend pulse --seconds 240 > /tmp/lab-listen.json 2> /tmp/lab-listen.err || status=$?
cat /tmp/lab-listen.json; cat /tmp/lab-listen.err
timing roundtrip "$(since "$start")"
answer=$(peer speaker-stop)
(( status == 0 )) || die "glasses-audio listen exited $status"
grep -q '"type":"transcript"' /tmp/lab-listen.json || die "no transcript: the command was not heard over SCO"
grep '"type":"transcript"' /tmp/lab-listen.json | grep -qi "time" || die "the transcript does not say 'time': $(grep transcript /tmp/lab-listen.json)"
grep -q '"type":"replyFinished"' /tmp/lab-listen.json || die "the reply did not finish"
samples=$(awk '{print $1}' <<< "${answer#ok }")
rms=$(sox /tmp/lab-reply.wav -n stat 2>&1 | awk '/RMS +amplitude/ {print $3}')
echo "the glasses' speaker recorded $samples samples, RMS $rms"
awk -v r="${rms:-0}" 'BEGIN { exit !(r > 0.01) }' || die "the reply did not reach the glasses' speaker (RMS ${rms:-none})"
wait_for 30 active_profile_is a2dp || die "the card did not go back to A2DP: $(pactl list cards | grep 'Active Profile')"
