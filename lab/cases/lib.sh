# Helpers the cases share (sourced inside the guest, after run-in-guest.sh set the stack up).
DEV_PATH=/org/bluez/hci0/dev_${GLASSES//:/_}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
timing() { echo "timing $1 $2"; }
die() { echo "$*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
bluez_prop() { busctl --system get-property org.bluez "$DEV_PATH" "$1" "$2" 2>/dev/null | awk '{print $2}'; }
# Waits until a command succeeds (at most $1 seconds, polling every 0.5 s).
wait_for() { local limit=$1; shift; local end=$(( $(date +%s) + limit ))
  until "$@" > /dev/null 2>&1; do (( $(date +%s) < end )) || return 1; sleep 0.5; done; }
paired() { [[ $(bluez_prop org.bluez.Device1 Paired) == true ]]; }
connected() { [[ $(bluez_prop org.bluez.Device1 Connected) == true ]]; }
card_has() { pactl list cards 2>/dev/null | grep -q "$1"; }
known() { [[ -n $(bluez_prop org.bluez.Device1 Address) ]]; }
battery_is() { [[ $(busctl --system get-property org.bluez "$DEV_PATH" org.bluez.Battery1 Percentage 2>/dev/null | awk '{print $2}') == "$1" ]]; }
active_profile_is() { pactl list cards | grep "Active Profile" | grep -q "$1"; }
not_connected() { [[ $(bluez_prop org.bluez.Device1 Connected) == false ]]; }
hfp_nodes() { pactl list short sinks | grep -q bluez && pactl list short sources | grep bluez | grep -vq monitor; }
bluez_sink_up() { pactl list short sinks | grep -q bluez; }
# The bluez card's profile named $1 (a2dp-sink, headset-head-unit; PipeWire writes '-',
# PulseAudio '_'), or the first whose name starts with it, from the card's Profiles list.
card_profile() { pactl list cards | awk -v want="$1" '/^\tProfiles:/ { p = 1; next } /^\tActive Profile/ { p = 0 }
  p { raw = $1; sub(":$", "", raw); name = raw; gsub("_", "-", name)
      if (name == want) { exact = raw } else if (index(name, want) == 1 && first == "") { first = raw } }
  END { print (exact != "" ? exact : first) }'; }
# The spoken command "what time is it" as the glasses' mic sends it (8 kHz mono, 16-bit), in
# $1: flite's rms voice, 0.3 s of silence before and 0.5 s after. Push-to-talk commands carry no
# wake phrase. Not samples/hey-glasses-what-time.wav: the local recogniser hears that recording,
# clean and resampled to 8 kHz on the host, as "read" (`voice-eval commands`), so it cannot tell
# the link from the recogniser; this one it understands at 8 kHz with a wide margin.
command_wav() { flite -voice rms -t "what time is it" -o /tmp/lab-command-raw.wav \
  && sox /tmp/lab-command-raw.wav -r 8000 -c 1 -b 16 "$1" pad 0.3 0.5; }
