# Sourced by the bench scripts (not run by itself): a private folder, a private D-Bus and private
# pulseaudio servers for one benchmark run, all stopped and removed on exit
# (KEEP_BENCH_LOGS=1 keeps the folder and its logs).
dir=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; [[ -n ${KEEP_BENCH_LOGS:-} ]] || rm -rf "$dir"' EXIT

start_bus() {  # a private bus at unix:path=$dir/bus (the sound servers' and the emulator's system bus)
  cat > "$dir/bus.conf" <<CONF
<busconfig><type>custom</type><listen>unix:path=$dir/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>
CONF
  dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile --nosyslog 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do [[ -S $dir/bus ]] && return; sleep 0.05; done
  echo "bench: dbus-daemon did not start" >&2
  exit 1
}

start_pulse() {  # name, system bus address, modules...: a pulseaudio at unix:$dir/NAME/native
  local name=$1 bus=$2
  shift 2
  mkdir -p "$dir/$name"
  { echo "load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/$name/native"; printf '%s\n' "$@"; } > "$dir/$name/bench.pa"
  XDG_RUNTIME_DIR=$dir/$name HOME=$dir/$name DBUS_SYSTEM_BUS_ADDRESS=$bus \
    pulseaudio -n -F "$dir/$name/bench.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no --disable-shm=yes >"$dir/$name/pulse.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do pactl --server "unix:$dir/$name/native" info >/dev/null 2>&1 && return; sleep 0.05; done
  echo "bench: pulseaudio ($name) did not start" >&2
  exit 1
}
