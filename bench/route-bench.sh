#!/usr/bin/env bash
# Routing latencies: the simulated glasses; a private pulseaudio with two null sinks; and a
# private pulseaudio with its bluetooth modules on a private bus where the emulator (started
# inside RouteBench) plays BlueZ and oFono.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$dir"' EXIT

start_pulse() {  # name, system bus address, modules...
  local name=$1 bus=$2
  shift 2
  mkdir -p "$dir/$name"
  { echo "load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/$name/native"; printf '%s\n' "$@"; } > "$dir/$name/bench.pa"
  XDG_RUNTIME_DIR=$dir/$name HOME=$dir/$name DBUS_SYSTEM_BUS_ADDRESS=$bus \
    pulseaudio -n -F "$dir/$name/bench.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do pactl --server "unix:$dir/$name/native" info >/dev/null 2>&1 && return; sleep 0.05; done
  echo "route-bench: pulseaudio ($name) did not start" >&2
  exit 1
}

cat > "$dir/bus.conf" <<CONF
<busconfig><type>custom</type><listen>unix:path=$dir/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>
CONF
dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [[ -S $dir/bus ]] && break; sleep 0.05; done

start_pulse nullsinks "unix:path=$dir/no-bus" "load-module module-null-sink sink_name=bench_a" "load-module module-null-sink sink_name=bench_b"
start_pulse bluetooth "unix:path=$dir/bus" "load-module module-null-sink sink_name=speakers" "load-module module-bluez5-discover headset=ofono"

BENCH_PULSE_SERVER="unix:$dir/nullsinks/native" BENCH_BT_BUS="unix:path=$dir/bus" BENCH_BT_PULSE_SERVER="unix:$dir/bluetooth/native" \
  "$(swift build -c release --show-bin-path)/RouteBench"
