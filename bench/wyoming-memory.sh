#!/usr/bin/env bash
# glasses-audiod's resident memory under hostile Wyoming clients (issue 28): rounds of N
# connections that each declare an 8 MiB audio-chunk payload, send 7 MiB of it and close.
# Prints the RSS before and after each round (MB); with the buffer budget and the freed
# buffers it stays flat. BENCH_CONFIGURATION=debug uses the debug build; ROUNDS, CLIENTS.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${BENCH_CONFIGURATION:-release}
if [[ -z "${DAEMON_BIN:-}" ]]; then  # DAEMON_BIN: another build's glasses-audiod, to compare
  swift build -c "$configuration" --product glasses-audiod 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2 || true
fi
bin=$(dirname "${DAEMON_BIN:-$(swift build -c "$configuration" --show-bin-path)/glasses-audiod}")
tmp=$(mktemp -d)
"$bin/glasses-audiod" --backend simulated --listen false --data-dir "$tmp/data" --http-port 0 --wyoming-port 0 2>"$tmp/log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 200); do grep -qs "HTTP API listening" "$tmp/log" && break; sleep 0.05; done
port=$(grep -ao 'wyoming: listening on 127.0.0.1:[0-9]*' "$tmp/log" | grep -o '[0-9]*$')
rss() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status"; }
echo "rss before: $(rss) MB"
ROUNDS=${ROUNDS:-4} CLIENTS=${CLIENTS:-20} PORT=$port DAEMON_PID=$pid python3 - <<'PY'
import os, socket, time
rounds, clients, port = int(os.environ["ROUNDS"]), int(os.environ["CLIENTS"]), int(os.environ["PORT"])
pid = os.environ["DAEMON_PID"]
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) // 1024
header = b'{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 8388608}\n'
chunk = b"\x11" * (1 << 20)
for round in range(1, rounds + 1):
    sockets, refused = [], 0
    for _ in range(clients):
        s = socket.create_connection(("127.0.0.1", port))
        try:
            s.sendall(header)
            for _ in range(7): s.sendall(chunk)
        except OSError:
            refused += 1
        sockets.append(s)
    peak = rss()
    for s in sockets: s.close()
    time.sleep(1)
    print(f"round {round}: {clients} clients x 7 MiB sent ({refused} cut off by the budget), rss while open {peak} MB, after close {rss()} MB")
PY
