#!/usr/bin/env bash
# The voice round trip (release build, simulated glasses): TTS first chunk, end of command ->
# reply (the backend's decision and the reply's first chunk), and the CPU of a listening session.
# Medians; run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product glasses-audio 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2
bin=$(swift build -c release --show-bin-path)/glasses-audio
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GLASSES_AUDIO_BACKEND=simulated
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for _ in $(seq 15); do
  "$bin" say "It is twenty past one in the afternoon." --out "$tmp/say.wav" --json \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["first_chunk_milliseconds"])'
done | median > "$tmp/tts"

for _ in $(seq 5); do
  "$bin" listen --once --json --mic samples/hey-glasses-what-time.wav --mic-mode once 2>/dev/null | python3 -c '
import json, sys
events = [json.loads(line) for line in sys.stdin if line.startswith("{")]
captured = next(e["time"] for e in events if e["type"] == "commandCaptured")
reply = next(e["time"] for e in events if e["type"] == "replyStarted")
print((reply - captured) * 1000)'
done | median > "$tmp/reply"

# A listening session on each sound server (PulseAudio 16, then PipeWire's pulse server) with the
# emulated glasses (their mic plays everyday speech without the wake phrase in a loop, so nothing
# wakes; voiceFirst holds HFP and listens all the time): the CPU of the glasses-audio process
# alone over 30 s of steady listening, after 15 s for start-up (models, route). PulseAudio hands
# the client each HFP packet (every 3 ms or so) as it comes, PipeWire the 80 ms fragment it asks for.
emulator=$(swift build -c release --show-bin-path)/glasses-emulator
swift build -c release --product glasses-emulator 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2
espeak-ng -w "$tmp/talk.wav" "The train was late again this morning, so we walked along the river instead. \
It was cold but bright, and the market had already opened. We bought bread, apples and a newspaper, \
then sat for a while watching the boats before going back home for lunch."
listening_cpu() {
  "$emulator" --sound-server "$1" --mic "$tmp/talk.wav" --loop --script "wait server; 120s quit" > "$tmp/emulator.out" 2>/dev/null &
  local emulator_pid=$!
  for _ in $(seq 200); do grep -q '^PULSE_SERVER=' "$tmp/emulator.out" 2>/dev/null && break; sleep 0.05; done
  local server
  server=$(sed -n 's/^PULSE_SERVER=//p' "$tmp/emulator.out")
  for _ in $(seq 200); do pactl --server "$server" list cards short 2>/dev/null | grep -q bluez_card && break; sleep 0.05; done
  GLASSES_AUDIO_BACKEND=pulse PULSE_SERVER=$server "$bin" listen --policy voiceFirst --seconds 50 >/dev/null 2>&1 &
  local listen_pid=$!
  ticks() { awk '{ print $14 + $15 }' "/proc/$listen_pid/stat"; }
  local before after
  sleep 15; before=$(ticks); sleep 30; after=$(ticks)
  awk -v a="$before" -v b="$after" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz / 30 * 100 }'
  wait "$listen_pid" || true
  kill "$emulator_pid" 2>/dev/null || true
  wait "$emulator_pid" 2>/dev/null || true
}
pulse_percent=$(listening_cpu pulseaudio)
pipewire_percent=$(listening_cpu pipewire)

printf '\nvoice round trip (release; TTS and reply decision on the simulated glasses):\n'
printf '  TTS first chunk (espeak-ng, embedded)                     median %8.1f ms   (n=15)\n' "$(cat "$tmp/tts")"
printf '  end of command -> reply chosen and speaking (local backend) median %8.1f ms   (n=5)\n' "$(cat "$tmp/reply")"
printf '  CPU of a listening session (PulseAudio 16 + emulated glasses) %6s %% of one core (30 s steady, after start-up; goal <= 1.5)\n' "$pulse_percent"
printf '  CPU of a listening session (PipeWire + emulated glasses)     %6s %% of one core (the same)\n' "$pipewire_percent"
