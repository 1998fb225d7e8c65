# A probe, not a check: how a playback stream set up as our reply's (16 kHz float mono, 200 ms
# target latency, 50 ms requests, ADJUST_LATENCY: pacat with the same attributes pipewire-pulse
# gives ours) reaches the glasses' speaker from the HFP sink: once opened at the profile switch
# with the capture, before the SCO link, and left idle 15 s; once opened on a running link and
# idle 10 s. Prints when each write began and where each tone lies in the speaker's recording.
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
card=$(pactl list cards short | awk '/bluez_card/ {print $2; exit}')
profile=$(card_profile headset-head-unit)
[[ -n $profile ]] || profile=$(card_profile handsfree-head-unit)
sox -n -r 16000 -c 1 -e floating-point -b 32 /tmp/probe-tone.wav synth 3 sine 440 vol 0.5
sox /tmp/probe-tone.wav -t raw /tmp/probe-tone.raw
# As the route engine does: from A2DP, the profile switch, then the capture and an idle playback
# stream opened at once (before the SCO link is up); the playback is written 15 s later.
pactl set-card-profile "$card" "$(card_profile a2dp-sink)"
wait_for 30 active_profile_is a2dp || die "the card is not on A2DP"
peer wait sco-down 30 || true
peer speaker /tmp/probe-speaker.wav
t0=$(now)
mark() { echo "probe $(since "$t0") $*"; }
snapshot() { pactl list sink-inputs | grep -E "Sink Input|application.name|Corked|Buffer Latency|Sink Latency|node.latency|pulse.attr" | tr -s ' \t' ' ' | paste -sd' ' || true; }
pactl set-card-profile "$card" "$profile"
wait_for 20 hfp_nodes || die "no bluez sink/source after switching to $profile"
sink=$(pactl list sinks short | awk '/bluez_output|bluez_sink/ {print $2; exit}')
source=$(pactl list sources short | awk '/bluez_input|bluez_source/ && !/monitor/ {print $2; exit}')
mark "switched; capture and idle playback open"
parec --device="$source" --rate=16000 --channels=1 --format=float32le --latency-msec=20 > /dev/null &
( sleep 15; mark "early pacat write begins" >&2; cat /tmp/probe-tone.raw ) | pacat --playback --device="$sink" --rate=16000 --channels=1 --format=float32le \
  --latency-msec=200 --process-time-msec=50 &
writer=$!
peer wait sco 60 || die "no SCO link"
mark "SCO up"
sleep 16; mark "early pacat: $(snapshot)"
wait $writer; mark "early pacat done"
sleep 2
mark "pacat (200 ms, 50 ms requests) opened, idle 10 s"
( sleep 10; mark "pacat write begins" >&2; cat /tmp/probe-tone.raw ) | pacat --playback --device="$sink" --rate=16000 --channels=1 --format=float32le \
  --latency-msec=200 --process-time-msec=50 &
writer=$!
sleep 11; mark "pacat writing: $(snapshot)"
wait $writer; mark "pacat done"
sleep 3
peer speaker-stop > /dev/null
mark "speaker stopped"
/usr/bin/python3 - /tmp/probe-speaker.wav <<'EOF'
import sys, wave, numpy
with wave.open(sys.argv[1]) as w:
    rate = w.getframerate(); x = numpy.frombuffer(w.readframes(w.getnframes()), dtype="<i2") / 32768
step = rate // 10; start = None
print(f"speaker: {len(x) / rate:.1f} s recorded")
for i in range(len(x) // step + 1):
    voiced = i < len(x) // step and numpy.sqrt(numpy.mean(x[i * step:(i + 1) * step] ** 2)) > 0.003
    if voiced and start is None: start = i
    if not voiced and start is not None:
        print(f"speaker: sound {start / 10:.1f}-{i / 10:.1f} s"); start = None
EOF
cp /tmp/probe-speaker.wav "$OUT/logs/probe-speaker.wav" 2>/dev/null || true
