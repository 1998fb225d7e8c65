#!/usr/bin/env bash
# Routing latencies: the simulated glasses, and a private pulseaudio daemon with two null sinks.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
cat > "$dir/bench.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native
load-module module-null-sink sink_name=bench_a
load-module module-null-sink sink_name=bench_b
PA
XDG_RUNTIME_DIR=$dir HOME=$dir pulseaudio -n -F "$dir/bench.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do pactl --server "unix:$dir/native" info >/dev/null 2>&1 && break; sleep 0.05; done
BENCH_PULSE_SERVER="unix:$dir/native" "$(swift build -c release --show-bin-path)/RouteBench"
