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

# A listening session with the wake word on, the mic playing speech in a loop, 30 s.
TIMEFORMAT='%U %S'
cpu=$( { time "$bin" listen --seconds 30 --mic samples/hey-glasses-weather.wav >/dev/null 2>/dev/null; } 2>&1 | tail -1)
percent=$(echo "$cpu" | awk '{ printf "%.1f", ($1 + $2) / 30 * 100 }')

printf '\nvoice round trip (simulated glasses, release):\n'
printf '  TTS first chunk (espeak-ng, embedded)                     median %8.1f ms   (n=15)\n' "$(cat "$tmp/tts")"
printf '  end of command -> reply chosen and speaking (local backend) median %8.1f ms   (n=5)\n' "$(cat "$tmp/reply")"
printf '  CPU of a listening session (wake word + VAD + AEC)        %8s %% of one core (30 s, includes start-up)\n' "$percent"
