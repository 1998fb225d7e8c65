#!/usr/bin/env bash
# Issue 30's memory table: glasses-audiod (release) per assistant configuration — idle (wake word,
# echo canceller and TTS ready, not listening), listening (the simulated glasses' mic says "hey
# glasses, what is the date" in a loop, so round trips run), and the peak of a process that has
# been through round trips — beside Home Assistant's own stack for the same job
# (wyoming-satellite + wyoming-openwakeword, from PyPI into .build/ha-stack, a real-time mic).
# Medians of 3 starts; run by `make bench`. Set DAEMON_MEMORY_HA_STACK=0 to skip the stack.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product glasses-audiod 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2
bin=$(swift build -c release --show-bin-path)
source bench/common.sh
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# One daemon start: prints "RSS HWM" (MB) after $1 seconds; the rest are the daemon's flags.
daemon_reading() {
  local seconds=$1; shift
  local log=$tmp/daemon-$RANDOM.log
  "$bin/glasses-audiod" --backend simulated --data-dir "$tmp/data-$RANDOM" --http-port 0 --wyoming-port 0 \
    --esphome-port 0 "$@" 2>"$log" &
  local pid=$!
  pids+=("$pid")
  sleep "$seconds"
  echo "$(status_mb "$pid" VmRSS) $(status_mb "$pid" VmHWM) $(grep -c 'commandCaptured' "$log" || true)"
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
}

declare -A figure
for backend in home-assistant local; do
  : > "$tmp/idle"; : > "$tmp/listening"; : > "$tmp/peak"; : > "$tmp/trips"
  for _ in 1 2 3; do
    daemon_reading 4 --listen false --assistant-backend "$backend" | awk '{ print $1 }' >> "$tmp/idle"
    read -r rss hwm trips < <(daemon_reading 12 --listen true --assistant-backend "$backend")
    echo "$rss" >> "$tmp/listening"; echo "$hwm" >> "$tmp/peak"; echo "$trips" >> "$tmp/trips"
  done
  figure[$backend-idle]=$(median < "$tmp/idle")
  figure[$backend-listening]=$(median < "$tmp/listening")
  figure[$backend-peak]=$(median < "$tmp/peak")
  figure[$backend-trips]=$(median < "$tmp/trips")
done

printf '\nglasses-audiod (release) memory by configuration (issue 30: <= 30 MB with Home Assistant, <= 45 MB local):\n'
printf '  %-34s %8s %10s %22s\n' "configuration" "idle" "listening" "peak (round trips)"
for backend in home-assistant local; do
  printf '  %-34s %6.1f MB %8.1f MB %9.1f MB (%s commands)\n' "--assistant-backend $backend" \
    "${figure[$backend-idle]}" "${figure[$backend-listening]}" "${figure[$backend-peak]}" "${figure[$backend-trips]}"
done

[[ "${DAEMON_MEMORY_HA_STACK:-1}" == 0 ]] && exit 0
# Home Assistant's stack: each in its own virtual environment (their wyoming pins differ);
# numpy < 2 because tflite-runtime's interpreter fails to load a model with numpy 2.
stack=.build/ha-stack
if [[ ! -x $stack/openwakeword/bin/python || ! -x $stack/satellite/bin/python ]]; then
  python3 -m venv "$stack/openwakeword" && "$stack/openwakeword/bin/pip" install -q "wyoming-openwakeword==1.8.2" "numpy<2"
  python3 -m venv "$stack/satellite" && "$stack/satellite/bin/pip" install -q "wyoming-satellite==1.0.0"
fi
sox -q samples/hey-glasses-what-time.wav -t raw -r 16000 -c 1 -b 16 -e signed "$tmp/mic.raw"
cat > "$tmp/mic.py" <<'PY'
import sys, time
data = open(sys.argv[1], "rb").read()
start, sent = time.monotonic(), 0
while True:  # 80 ms chunks of 16 kHz 16-bit mono, in real time, in a loop
    for i in range(0, len(data), 2560):
        sys.stdout.buffer.write(data[i:i + 2560]); sys.stdout.flush()
        sent += 1
        time.sleep(max(0, start + sent * 0.08 - time.monotonic()))
PY
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
: > "$tmp/stack"
for _ in 1 2 3; do
  "$stack/openwakeword/bin/python" -m wyoming_openwakeword --uri "tcp://127.0.0.1:$port" --preload-model hey_jarvis 2>"$tmp/oww.log" &
  oww=$!; pids+=("$oww")
  for _ in $(seq 200); do grep -q Ready "$tmp/oww.log" && break; sleep 0.05; done
  "$stack/satellite/bin/python" -m wyoming_satellite --name bench --uri tcp://127.0.0.1:0 \
    --mic-command "python3 $tmp/mic.py $tmp/mic.raw" --wake-uri "tcp://127.0.0.1:$port" --wake-word-name hey_jarvis 2>/dev/null &
  satellite=$!; pids+=("$satellite")
  sleep 12
  before=$(( $(ticks "$oww") + $(ticks "$satellite") )); sleep 30; after=$(( $(ticks "$oww") + $(ticks "$satellite") ))
  echo "$(status_mb "$satellite" VmRSS) $(status_mb "$oww" VmRSS) $(awk -v a="$before" -v b="$after" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz / 30 * 100 }')" >> "$tmp/stack"
  kill "$satellite" "$oww"; wait "$satellite" "$oww" 2>/dev/null || true
done
satellite_mb=$(awk '{ print $1 }' "$tmp/stack" | median)
oww_mb=$(awk '{ print $2 }' "$tmp/stack" | median)
stack_cpu=$(awk '{ print $3 }' "$tmp/stack" | median)
printf '  %-34s %19.1f MB (wyoming-satellite %.1f + wyoming-openwakeword %.1f; CPU %s %% of a core)\n' \
  "Home Assistant's stack, listening" "$(awk -v a="$satellite_mb" -v b="$oww_mb" 'BEGIN { print a + b }')" "$satellite_mb" "$oww_mb" "$stack_cpu"
printf '  (the listening CPU of glasses-audio itself: bench/assistant-bench.sh)\n'
