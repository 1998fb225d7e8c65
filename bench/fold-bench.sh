#!/usr/bin/env bash
# Folds mid-session, then the voice round trip (RoundTripBench): how the session ends (and how fast) through the sound server alone and
# through BlueZ, on a private pulseaudio with its bluetooth modules on a private bus where the
# emulator (started inside FoldBench) plays BlueZ and oFono.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product FoldBench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
swift build -c release --product RoundTripBench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
source bench/sandbox.sh
start_bus
start_pulse pulse "unix:path=$dir/bus" "load-module module-null-sink sink_name=speakers" "load-module module-bluez5-discover headset=ofono"
# The same glasses on PipeWire, when its Bluetooth plugin is installed: the emulator's own sandbox.
pipewire=()
if command -v pipewire >/dev/null && compgen -G "/usr/lib/*/spa-0.2/bluez5/libspa-bluez5.so" >/dev/null; then
  swift build -c release --product glasses-emulator 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
  "$(swift build -c release --show-bin-path)/glasses-emulator" --sound-server pipewire --script "wait server; 600s quit" > "$dir/pw.out" 2>"$dir/pw.err" &
  pids+=($!)
  for _ in $(seq 200); do grep -q "^PULSE_SERVER=" "$dir/pw.out" 2>/dev/null && break; sleep 0.05; done
  server=$(sed -n 's/^PULSE_SERVER=//p' "$dir/pw.out")
  # Until PipeWire has made the card (about 3 s after the glasses connect).
  for _ in $(seq 200); do pactl --server "$server" list cards short 2>/dev/null | grep -q bluez_card && break; sleep 0.05; done
  [[ -n $server ]] && pipewire=(BENCH_PW_PULSE_SERVER="$server")
fi
[[ -n ${SKIP_FOLD_BENCH:-} ]] || env "${pipewire[@]}" BENCH_BT_BUS="unix:path=$dir/bus" BENCH_BT_PULSE_SERVER="unix:$dir/pulse/native" "$(swift build -c release --show-bin-path)/FoldBench"
# The voice round trip on the same PulseAudio (its own emulated glasses).
BENCH_BT_BUS="unix:path=$dir/bus" BENCH_BT_PULSE_SERVER="unix:$dir/pulse/native" "$(swift build -c release --show-bin-path)/RoundTripBench"
