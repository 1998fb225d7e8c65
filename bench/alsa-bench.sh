#!/usr/bin/env bash
# ALSA vs PulseAudio (capture -> VAD decision at 16 kHz) on one private pulseaudio, and BlueALSA
# (glasses connect -> A2DP PCM announced -> route change) with a real bluealsa on a private bus
# where the emulator (inside ALSABench) plays BlueZ.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c "${BENCH_CONFIGURATION:-release}" --product ALSABench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
source bench/sandbox.sh
start_bus
start_pulse pulse "unix:path=$dir/no-bus" "load-module module-null-sink sink_name=room rate=16000 channels=1"
bt=()
command -v bluealsa >/dev/null && bt=(BENCH_BT_BUS="unix:path=$dir/bus")
env "${bt[@]}" BENCH_DIR="$dir" BENCH_ALSA_PULSE_SERVER="unix:$dir/pulse/native" "$(swift build -c "${BENCH_CONFIGURATION:-release}" --show-bin-path)/ALSABench"
