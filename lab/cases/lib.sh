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
# A spoken phrase as the glasses' mic sends it (mono, 16-bit), in $1, at $2 Hz (8000 for CVSD,
# 16000 for mSBC; default 8000): $3 (default "what time is it") in flite's rms voice, 0.3 s of
# silence before and 0.5 s after. Push-to-talk commands carry no wake phrase; the wake word's
# round trip says "hey glasses, what time is it" in one breath (the DTW wake engine missed "hey
# glasses" synthesised alone and joined to the command). Not samples/hey-glasses-what-time.wav:
# the local recogniser hears that recording, clean and resampled to 8 kHz on the host, as "read"
# (`voice-eval commands`), so it cannot tell the link from the recogniser; flite's it
# understands at 8 kHz with a wide margin.
command_wav() { flite -voice rms -t "${3:-what time is it}" -o /tmp/lab-command-raw.wav \
  && sox /tmp/lab-command-raw.wav -r "${2:-8000}" -c 1 -b 16 "$1" pad 0.3 0.5; }
# Disconnects the glasses and connects them again (a new service-level connection, where the
# glasses list their codecs), waiting for the SLC and the card.
reconnect() {
  "$GA" disconnect "$GLASSES" > /dev/null || return 1
  wait_for 20 not_connected || return 1
  peer wait sco-down 20 > /dev/null
  "$GA" connect "$GLASSES" || return 1
  peer wait slc 60 && wait_for 30 card_has bluez_card
}
# The glasses list mSBC beside CVSD from the next reconnect on; back_to_cvsd undoes it (with a
# reconnect) for the cases after.
offer_msbc() { peer codecs cvsd,msbc > /dev/null && reconnect; }
back_to_cvsd() { peer codecs cvsd > /dev/null; reconnect > /dev/null || echo "the reconnect with CVSD alone failed"; }
# How much of the spoken command reached the voice stage: the seconds of sound (20 ms frames
# above -50 dBFS, speech_present.py) in the command listen kept in its history folder $1 (Opus,
# decoded to WAV through the simulated backend's speaker) against those in the mic's WAV $2.
# Prints "GOT SAID"; the captured command is whole when GOT is about SAID. (PulseAudio 16 read
# 144 bytes of each 240-byte SCO packet: the voice stage got 0.58-0.60 s of 1.00 s.)
command_speech() { local opus; opus=$(ls "$1"/*.opus 2>/dev/null | head -1)
  [[ -n $opus ]] || { echo "0 $(/usr/bin/python3 "$LAB/cases/speech_present.py" "$2" | awk '{print $1}')"; return; }
  "$GA" play --backend simulated --sim-speed 20 --speaker-out /tmp/lab-command-got.wav "$opus" > /dev/null 2>&1 || true
  echo "$(/usr/bin/python3 "$LAB/cases/speech_present.py" /tmp/lab-command-got.wav 2>/dev/null | awk '{print $1}') $(/usr/bin/python3 "$LAB/cases/speech_present.py" "$2" | awk '{print $1}')"; }
# Fails the case when the voice stage got less than 0.8 of the command's sound.
check_command_whole() { local got said; read -r got said < <(command_speech "$1" "$2")
  echo "the voice stage got ${got:-0} s of the ${said} s of sound the mic said"
  awk -v g="${got:-0}" -v s="$said" 'BEGIN { exit !(g >= 0.8 * s) }' \
    || die "the captured command is not whole: ${got:-0} s of sound of ${said} s (audio lost between the glasses' mic and the voice stage)"; }
# Records the glasses' Bluetooth source to the WAV $1 (8 kHz mono s16) once it appears (up to
# 120 s), as a second client of the sound server (parec; PipeWire 0.3.65's pw-record --target
# recorded only silence beside our capture). Runs until stopped (kill -TERM closes the WAV).
record_source() { local name=""
  for _ in $(seq 240); do name=$(pactl list short sources 2>/dev/null | awk '/bluez/ && !/monitor/ {print $2; exit}'); [[ -n $name ]] && break; sleep 0.5; done
  [[ -n $name ]] || { echo "record_source: no Bluetooth source appeared"; return 1; }
  echo "record_source: recording $name"
  exec parec --device="$name" --rate=8000 --channels=1 --format=s16le --file-format=wav "$1"; }
# The kernel's count of SCO packets received from the controller (hci0's 'RX ... sco:N').
kernel_sco_rx() { hciconfig -a hci0 2>/dev/null | awk '/RX bytes/ { for (i = 1; i <= NF; i++) if ($i ~ /^sco:/) { sub("sco:", "", $i); print $i } }'; }
# Where the mic's audio went, hop by hop: the peer's count of packets sent and the kernel's of
# packets received (hci0's counter since KERNEL_SCO_RX_BEFORE), then as seconds of sound
# (speech_present.py): what the mic said ($1), what a second client of the sound server
# recorded from the Bluetooth source ($2), what reached our voice stage (the command in listen's
# history folder $3), and our capture's own account (holes, frames dropped). btmon's capture is
# no measure of this hop: at nice 10 under TCG it missed packets (1732 of 1961 sent in a run
# whose voice stage got the whole command).
report_hops() {
  rm -f /tmp/lab-command-got.wav  # (command_speech makes it anew when listen kept a command)
  echo "hop kernel count: $(( $(kernel_sco_rx) - ${KERNEL_SCO_RX_BEFORE:-0} )) SCO packets received by hci0 during the case"
  echo "hop mic: $(/usr/bin/python3 "$LAB/cases/speech_present.py" "$1" | awk '{print $1}') s of sound said"
  echo "hop server: $(/usr/bin/python3 "$LAB/cases/speech_present.py" "$2" 2>/dev/null | awk '{print $1 " s of sound in " $3 " s"}') recorded from the source by a second client"
  echo "hop voice stage: $(command_speech "$3" "$1" | awk '{print $1}') s of sound in the command listen kept"
  # Audio dropped or inserted on the way, in whose units (alignment.py: PipeWire's 21.33 ms
  # graph cycles, our 20 ms frames), from the kept command against the mic's WAV.
  sox /tmp/lab-command-got.wav -r "$(soxi -r "$1")" /tmp/lab-command-got-at-mic-rate.wav 2>/dev/null \
    && echo "hop voice stage $(/usr/bin/python3 "$LAB/cases/alignment.py" "$1" /tmp/lab-command-got-at-mic-rate.wav)"
  grep "capture from" /tmp/lab-listen.err | sed 's/^/hop our capture: /' || true
  grep "sco-stats\|mic-done\|mic-speech-start" "$OUT/logs/peer-events.log" | tail -3 | sed 's/^/hop peer: /' || true
  cp "$2" "$OUT/logs/roundtrip-source.wav" 2>/dev/null || true; }
