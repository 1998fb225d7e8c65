#!/usr/bin/env bash
# glasses-audiod (release): resident memory idle (wake word loaded) and listening, HTTP
# requests/s on /api/status (wrk), and the latency from a sound-server event (a card profile
# switched with pactl on the emulator's PulseAudio) to its route.changed on /api/events.
# Medians; run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product glasses-audiod 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2
swift build -c release --product glasses-emulator 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2
bin=$(swift build -c release --show-bin-path)
source bench/common.sh

# Starts the daemon ($@ are extra flags) on a free port; sets $pid, $port, $key.
start() {
  local data=$tmp/data-$RANDOM log=$tmp/daemon-$RANDOM.log
  "$bin/glasses-audiod" --data-dir "$data" --http-port 0 --wyoming-port 0 "$@" 2>"$log" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 200); do grep -qs "HTTP API listening" "$log" && break; sleep 0.05; done
  port=$(grep -so 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$')
  key=$(cat "$data/api_key")
}
stop() { kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; }

# Resident memory: idle (the wake word's templates loaded, nothing listening) and listening
# (the simulated mic plays speech in a loop: wake word, command, reply, again), 3 runs each.
for _ in 1 2 3; do start --backend simulated --listen false; sleep 3; status_mb "$pid" VmRSS; stop; done | median > "$tmp/idle"
# Listening is read at 10 s and again at 60 s of the same start: the 10 s figure is not the
# steady state (the mic's history filled for 29 s; before issue 30 it grew for 60 s).
for _ in 1 2 3; do
  start --backend simulated --listen true
  sleep 10; status_mb "$pid" VmRSS >> "$tmp/listening-10s"
  sleep 50; status_mb "$pid" VmRSS >> "$tmp/listening-60s"
  stop
done
median < "$tmp/listening-10s" > "$tmp/listening"
median < "$tmp/listening-60s" > "$tmp/listening-60"
# The same idle daemon answering through a WebSocket backend: no local recogniser is loaded.
for _ in 1 2 3; do start --backend simulated --listen false --assistant-backend websocket; sleep 3; status_mb "$pid" VmRSS; stop; done | median > "$tmp/idle-socket"

# HTTP: wrk, 2 threads, 16 connections, 10 s on /api/status, 3 runs.
start --backend simulated --listen false
for _ in 1 2 3; do
  wrk -t2 -c16 -d10s -H "X-API-Key: $key" "http://127.0.0.1:$port/api/status" | awk '/Requests\/sec/ { print $2 }'
done | median > "$tmp/rps"
stop

# SSE latency from the sound server: on the emulator's PulseAudio, pactl switches the glasses'
# card profile (t0, before pactl starts) and a client on /api/events times its route.changed.
emulator_out=$tmp/emulator.out
"$bin/glasses-emulator" --script "wait server; 120s quit" >"$emulator_out" 2>&1 &
pids+=("$!")
for _ in $(seq 200); do grep -q DBUS_SYSTEM_BUS_ADDRESS "$emulator_out" && break; sleep 0.05; done
export PULSE_SERVER=$(grep '^PULSE_SERVER=' "$emulator_out" | cut -d= -f2-)
export DBUS_SYSTEM_BUS_ADDRESS=$(grep '^DBUS_SYSTEM_BUS_ADDRESS=' "$emulator_out" | cut -d= -f2-)
start --backend pulse --listen false --policy voiceFirst
python3 - "$port" "$key" > "$tmp/sse" <<'PY'
import http.client, subprocess, sys, time
port, key = int(sys.argv[1]), sys.argv[2]
conn = http.client.HTTPConnection("127.0.0.1", port)
conn.request("GET", "/api/events", headers={"X-API-Key": key})
stream = conn.getresponse()
def next_route_change():
    event = None
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line == "" and event is not None:
            if event == "route.changed":
                return
            event = None
card = "bluez_card.C0_FF_EE_00_00_02"
latencies = []
for i in range(21):
    profile = "off" if i % 2 == 0 else "handsfree_head_unit"
    t0 = time.monotonic()
    subprocess.run(["pactl", "set-card-profile", card, profile], check=True)
    next_route_change()
    latencies.append((time.monotonic() - t0) * 1000)
    time.sleep(0.3)
for value in latencies[1:]:
    print(f"{value:.2f}")
PY
median < "$tmp/sse" > "$tmp/sse-median"
stop

printf '\nglasses-audiod (release):\n'
printf '  resident memory, idle (wake word loaded)                  median %8.1f MB   (n=3)\n' "$(cat "$tmp/idle")"
printf '  resident memory, listening (mic looping speech, 10 s)     median %8.1f MB   (n=3)\n' "$(cat "$tmp/listening")"
printf '  resident memory, listening, the same starts at 60 s       median %8.1f MB   (n=3)\n' "$(cat "$tmp/listening-60")"
printf '  resident memory, idle, --assistant-backend websocket      median %8.1f MB   (n=3)\n' "$(cat "$tmp/idle-socket")"
printf '  GET /api/status with wrk (2 threads, 16 connections)      median %8.0f req/s (n=3 x 10 s)\n' "$(cat "$tmp/rps")"
printf '  pactl card switch -> route.changed on /api/events         median %8.1f ms   (n=20, includes pactl start-up)\n' "$(cat "$tmp/sse-median")"
