#!/usr/bin/env bash
# glasses-audiod as an ESPHome voice satellite, measured from Home Assistant's side with the
# real aioesphomeapi (scripts/esphome/ha_bench.py): wake → first VoiceAssistantAudio frame at
# the client (goal ≤ 30 ms), TTS URL received → the reply's first samples handed to the
# simulated speaker for a local WAV (goal ≤ 150 ms), and the daemon's resident memory with
# the ESPHome API on and Home Assistant subscribed, idle and listening. Medians; run by
# `make bench`. BENCH_CONFIGURATION=debug uses the debug build; RUNS sets the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${BENCH_CONFIGURATION:-release}
swift build -c "$configuration" --product glasses-audiod 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2 || true
bin=$(swift build -c "$configuration" --show-bin-path)
tmp=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
rss() { awk '/^VmRSS/ { printf "%.1f\n", $2 / 1024 }' "/proc/$1/status"; }

# Starts the daemon ($@ are extra flags), plaintext ESPHome API on a free port; sets $pid,
# $port (HTTP), $esphome, $key.
start() {
  local data=$tmp/data-$RANDOM log=$tmp/daemon-$RANDOM.log
  "$bin/glasses-audiod" --data-dir "$data" --backend simulated --http-port 0 --wyoming-port 0 --esphome-port 0 --esphome-key none "$@" 2>"$log" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 600); do grep -qs "HTTP API listening" "$log" && grep -qs "esphome: listening" "$log" && break; sleep 0.05; done
  port=$(grep -so 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$')
  esphome=$(grep -so 'esphome: listening on 127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$')
  key=$(cat "$data/api_key")
}
stop() { kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; }

# A local WAV as Home Assistant's TTS answer (1 s at 22050 Hz), served over HTTP.
mkdir -p "$tmp/media"
sox -n -r 22050 -b 16 -c 1 "$tmp/media/reply.wav" synth 1 sine 440 vol 0.5
python3 -u scripts/esphome/media_server.py "$tmp/media" >"$tmp/media.log" 2>&1 &
pids+=("$!")
for _ in $(seq 200); do grep -qs "port " "$tmp/media.log" && break; sleep 0.05; done
media=$(grep -o 'port [0-9]*' "$tmp/media.log" | grep -o '[0-9]*$')

# Memory: Home Assistant subscribed (ha_client.py holds the connection 5 s), the assistant
# asleep-free but not listening (idle), then listening to the simulated mic's speech loop.
for _ in 1 2 3; do
  start --listen false
  scripts/esphome-peer ha_client.py 127.0.0.1 "$esphome" --idle 5 >/dev/null &
  sleep 4; rss "$pid"; wait $! || true; stop
done | median >"$tmp/idle"

# Latencies, and the memory while listening (after the runs): RUNS runs on one daemon.
start --listen true --policy voiceFirst --mic samples/hey-glasses-what-time.wav --mic-mode loop
scripts/esphome-peer ha_bench.py 127.0.0.1 "$esphome" "$port" "$key" "http://127.0.0.1:$media/reply.wav" --runs "${RUNS:-7}" >"$tmp/bench.json"
rss "$pid" >"$tmp/listening"
stop
echo "ESPHome voice satellite ($configuration build, $(nproc) cores; aioesphomeapi as Home Assistant, plaintext):"
python3 - "$tmp/bench.json" "$(cat "$tmp/idle")" "$(cat "$tmp/listening")" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
if "error" in summary or "timed_out" in summary:
    print("  the runs did not complete:", summary)
for name, label, goal in (("wake_to_first_audio_ms", "wake → first VoiceAssistantAudio at the client", 30),
                          ("tts_url_to_first_sample_ms", "TTS URL sent → reply's first samples to the speaker", 150)):
    figures = summary.get(name)
    if figures:
        print(f"  {label}: median {figures['median']} ms (min {figures['min']}, max {figures['max']}, n {figures['n']}; goal ≤ {goal} ms)")
    else:
        print(f"  {label}: not measured")
print(f"  daemon RSS, ESPHome API on, HA subscribed: idle {sys.argv[2]} MB, listening {sys.argv[3]} MB")
PY
