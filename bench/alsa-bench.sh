#!/usr/bin/env bash
# ALSA vs PulseAudio (capture -> VAD decision at 16 kHz) on one private pulseaudio, and BlueALSA
# (glasses connect -> A2DP PCM announced -> route change) with a real bluealsa on a private bus
# where the emulator (inside ALSABench) plays BlueZ.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c "${BENCH_CONFIGURATION:-release}" --product ALSABench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
dir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [[ -n ${KEEP_BENCH_LOGS:-} ]] || rm -rf "$dir"' EXIT
cat > "$dir/bus.conf" <<CONF
<busconfig><type>custom</type><listen>unix:path=$dir/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>
CONF
dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [[ -S $dir/bus ]] && break; sleep 0.05; done
mkdir -p "$dir/pulse"
{ echo "load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/pulse/native"
  echo "load-module module-null-sink sink_name=room rate=16000 channels=1"; } > "$dir/pulse/bench.pa"
XDG_RUNTIME_DIR=$dir/pulse HOME=$dir/pulse DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/no-bus \
  pulseaudio -n -F "$dir/pulse/bench.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes >"$dir/pulse/pulse.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do pactl --server "unix:$dir/pulse/native" info >/dev/null 2>&1 && break; sleep 0.05; done
bt=()
command -v bluealsa >/dev/null && bt=(BENCH_BT_BUS="unix:path=$dir/bus")
env "${bt[@]}" BENCH_DIR="$dir" BENCH_ALSA_PULSE_SERVER="unix:$dir/pulse/native" "$(swift build -c "${BENCH_CONFIGURATION:-release}" --show-bin-path)/ALSABench"
