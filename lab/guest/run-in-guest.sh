#!/usr/bin/env bash
# Runs inside the lab VM (scripts/bt-lab boots it): brings up the real Bluetooth stack once —
# dbus-daemon (system and session buses), bluetoothd -E, the glasses peer on /dev/vhci, the
# sound server — then runs each case in lab/cases/ that was asked for, and writes one result
# line per case to $OUT/results. Logs of everything go to $OUT/logs/.
#
#   run-in-guest.sh SERVER OUT REPO CASE...      SERVER: pipewire | pulseaudio
set -uo pipefail
SERVER=$1 OUT=$2 REPO=$3
shift 3
CASES=("$@")
# The lab this script is part of (bt-lab hands the guest a copy taken at its start).
LAB=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/opt/btlab-venv/bin:/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p "$OUT/logs"
: > "$OUT/results"
t0=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
timing() { echo "timing $SERVER $1 $2" >> "$OUT/timings"; echo "bt-lab[$SERVER]: $1 $2 s"; }
fail_stack() { echo "stack $SERVER failed: $*" >> "$OUT/results"; echo "bt-lab[$SERVER]: stack failed: $*"; exit 0; }

# A private runtime: writable state in tmpfs, nothing from the host's session.
export XDG_RUNTIME_DIR=/tmp/lab-xdg XDG_CONFIG_HOME=/tmp/lab-config HOME=/tmp/lab-home
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$HOME" /run/dbus /var/lib/bluetooth
chmod 700 "$XDG_RUNTIME_DIR"

modprobe hci_vhci && modprobe rfcomm && modprobe bnep 2>/dev/null
modprobe uinput 2>/dev/null
[[ -e /dev/vhci ]] || fail_stack "/dev/vhci missing after modprobe hci_vhci"

dbus-daemon --system --fork --nopidfile || fail_stack "system dbus-daemon did not start"
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket
dbus-daemon --session --fork --nopidfile --address="unix:path=$XDG_RUNTIME_DIR/bus" || fail_stack "session dbus-daemon did not start"
export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus

# btmon at a low priority, the glasses' peer at a real-time one: the peer stands for two
# controllers (hardware, which nothing on the host can starve), and under TCG on a loaded
# machine everything else in the guest (the sound server's SCO thread, the cases' sox and numpy)
# took its CPU until HCI commands waited seconds behind audio (AVDTP Start timed out).
nice -n 10 btmon -w "$OUT/logs/btsnoop.log" > /dev/null 2>&1 &
PEER_SOCKET=/tmp/lab-peer.sock
PRIORITY=(chrt --rr 20)
"${PRIORITY[@]}" true 2>/dev/null || PRIORITY=(nice -n -15)
( cd "$LAB/peer" && exec "${PRIORITY[@]}" python3 glasses_peer.py --control "$PEER_SOCKET" ) \
  > "$OUT/logs/peer-events.log" 2> "$OUT/logs/peer.log" &
for _ in $(seq 1200); do grep -q "^event .* ready" "$OUT/logs/peer-events.log" 2>/dev/null && break; sleep 0.2; done
grep -q "^event .* ready" "$OUT/logs/peer-events.log" || fail_stack "the glasses peer did not start (see peer.log)"

# bluetoothd 5.66 (with kernel 6.1) segfaults when its policy plugin's reconnect after a link
# loss fails with Page Timeout (seen in the fold case: device_bonding_failed, resume_discovery,
# SIGSEGV; bluez/bluez#1070 reports the same versions crashing after a reconnect). Glasses that
# fold answer no page, so the lab's bluetoothd does not reconnect by itself (ReconnectAttempts=0);
# `glasses-audio connect` brings the glasses back.
sed 's/^\[Policy\]$/[Policy]\nReconnectAttempts=0/' /etc/bluetooth/main.conf > /tmp/lab-bluetooth.conf
/usr/libexec/bluetooth/bluetoothd -n -d -E -f /tmp/lab-bluetooth.conf > "$OUT/logs/bluetoothd.log" 2>&1 &
for _ in $(seq 150); do btmgmt info 2>/dev/null | grep -q "current settings:.*powered" && break
  btmgmt power on > /dev/null 2>&1; sleep 0.2; done

case $SERVER in
  pipewire)
    # No logind in the VM: WirePlumber's Bluetooth monitor waits for an active seat forever
    # unless told not to ask.
    mkdir -p "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d"
    echo 'bluez_monitor.properties["with-logind"] = false' > "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/51-bt-lab.lua"
    pipewire > "$OUT/logs/pipewire.log" 2>&1 &
    sleep 1
    wireplumber > "$OUT/logs/wireplumber.log" 2>&1 &
    pipewire-pulse > "$OUT/logs/pipewire-pulse.log" 2>&1 &
    ;;
  pulseaudio)
    # BT_LAB_PA_LOG_LEVEL=debug for its whole story (-vvvv); how it ended is written last
    # (a signal shows as 128+N: 137 SIGKILL, e.g. RLIMIT_RTTIME; 139 SIGSEGV), and a crash
    # leaves a core in logs/ (gdb on the host reads it: the guest runs the host's binaries).
    ulimit -c unlimited
    echo "$OUT/logs/core.%e.%p" > /proc/sys/kernel/core_pattern 2>/dev/null || true
    # BT_LAB_PA_FLAGS: more of its options (--realtime=no: its IO threads without SCHED_RR,
    # so without the RLIMIT_RTTIME that SIGKILLs an RT thread busy for 200 ms).
    ( pulseaudio -n --daemonize=no --exit-idle-time=-1 --log-level="${BT_LAB_PA_LOG_LEVEL:-info}" --log-time=yes ${BT_LAB_PA_FLAGS:-} \
        -L module-native-protocol-unix -L module-null-sink -L module-always-sink \
        -L "module-bluetooth-policy" -L "module-bluetooth-discover headset=native" \
        -L module-card-restore -L module-default-device-restore -L module-switch-on-port-available
      echo "bt-lab: pulseaudio exited with status $? at $(date +%s.%N)" ) > "$OUT/logs/pulseaudio.log" 2>&1 &
    ;;
esac
for _ in $(seq 300); do pactl info > /dev/null 2>&1 && break; sleep 0.2; done
pactl info > /dev/null 2>&1 || fail_stack "$SERVER did not start (see its log)"
timing stack-up "$(since "$t0")"

export LAB OUT SERVER PEER_SOCKET REPO
export GLASSES=F0:F1:F2:F3:F4:F5
# Our binaries (BT_LAB_BIN: .build/debug, or .build/release with BT_LAB_RELEASE=1) run at a
# lower priority than the stack they talk to: under TCG the debug build's voice stage took the
# CPU from the kernel's HCI work and the sound server until the SCO audio arrived in late bursts
# that PulseAudio dropped. On real hardware the stack is not starved by an app; here the app
# gets what is left.
export BIN=${BT_LAB_BIN:-$REPO/.build/debug}
printf '#!/bin/sh\nexec nice -n 10 %s "$@"\n' "$BIN/glasses-audio" > /tmp/lab-glasses-audio
chmod +x /tmp/lab-glasses-audio
export GA=/tmp/lab-glasses-audio
peer() { python3 "$LAB/peer/peerctl.py" "$PEER_SOCKET" "$@"; }
export -f peer

for name in "${CASES[@]}"; do
  script=$LAB/cases/$name.sh
  start=$(date +%s.%N)
  if [[ ! -f $script ]]; then
    echo "case $name failed: no such case ($script)" >> "$OUT/results"; continue
  fi
  echo "bt-lab[$SERVER]: case $name"
  # A case named twice (two runs in a row) keeps each run's log: case-NAME.log, case-NAME-2.log…
  log=$OUT/logs/case-$name.log run=1
  while [[ -e $log ]]; do run=$((run + 1)); log=$OUT/logs/case-$name-$run.log; done
  set +e
  # What a case left running in the background (a listen it gave up on) ends with it.
  ( set -euo pipefail; trap 'kill $(jobs -p) 2>/dev/null || true' EXIT; source "$LAB/cases/lib.sh"; source "$script" ) > "$log" 2>&1
  status=$?
  set -e +e
  took=$(since "$start")
  case $status in
    0) echo "case $name passed $took" >> "$OUT/results" ;;
    77) echo "case $name skipped $took $(tail -1 "$log")" >> "$OUT/results" ;;
    *) echo "case $name failed $took $(tail -1 "$log")" >> "$OUT/results" ;;
  esac
  grep -h "^timing " "$log" | sed "s/^timing /timing $SERVER /" >> "$OUT/timings" || true
  tail -1 "$OUT/results"
done
peer quit > /dev/null 2>&1 || true
echo "bt-lab[$SERVER]: done after $(since "$t0") s"
