#!/usr/bin/env bash
# Routing latencies: the simulated glasses; a private pulseaudio with two null sinks; and a
# private pulseaudio with its bluetooth modules on a private bus where the emulator (started
# inside RouteBench) plays BlueZ and oFono.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/sandbox.sh
start_bus
start_pulse nullsinks "unix:path=$dir/no-bus" "load-module module-null-sink sink_name=bench_a" "load-module module-null-sink sink_name=bench_b"
start_pulse bluetooth "unix:path=$dir/bus" "load-module module-null-sink sink_name=speakers" "load-module module-bluez5-discover headset=ofono"

BENCH_PULSE_SERVER="unix:$dir/nullsinks/native" BENCH_BT_BUS="unix:path=$dir/bus" BENCH_BT_PULSE_SERVER="unix:$dir/bluetooth/native" \
  "$(swift build -c release --show-bin-path)/RouteBench"
