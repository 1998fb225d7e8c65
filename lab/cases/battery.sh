# The glasses report their battery through HFP: AT+BIEV=2,N (HF indicator 2) and Apple's
# AT+IPHONEACCEV. bluetoothd -E turns what the sound server hands it into Battery1.Percentage.
# What each AG answered is printed: PipeWire 0.3.65 never answers OK to these (fixed upstream
# in 1.5.84), PulseAudio 16 answers OK.
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
# What Battery1 looks like before the first report (the emulator's appears at connect).
echo "observed $SERVER Battery1-before-report $(busctl --system get-property org.bluez "$DEV_PATH" org.bluez.Battery1 Percentage 2>&1 | head -1)"
# monitor (the route events) runs across the reports: each is a "battery N%" line. It says
# "watching" once it follows the events; the reports wait for that.
timeout 200 "$GA" monitor --backend pulse --seconds 180 > /tmp/lab-monitor.txt 2> /tmp/lab-monitor.err &
monitor=$!
watching() { grep -q "watching" /tmp/lab-monitor.err; }
wait_for 90 watching || { cat /tmp/lab-monitor.err; die "glasses-audio monitor did not start"; }
answer=$(peer battery 77) || die "battery: $answer"
echo "AT+BIEV=2,77 answered: ${answer#ok }"
echo "observed $SERVER AT+BIEV ${answer#ok }"
wait_for 30 battery_is 77 || die "Battery1.Percentage is $(bluez_prop org.bluez.Battery1 Percentage), not 77"
echo "observed $SERVER Battery1 $(busctl --system introspect org.bluez "$DEV_PATH" org.bluez.Battery1 2>&1 | awk '/^\./ && /property/ {printf "%s=%s ", $1, $4}')"
answer=$(peer apple-battery 40) || die "apple-battery: $answer"
echo "observed $SERVER AT+IPHONEACCEV ${answer#ok }"
wait_for 30 battery_is 40 || die "Battery1.Percentage is $(bluez_prop org.bluez.Battery1 Percentage) after the Apple report, not 40"
if [[ -x $BIN/glasses-audio ]]; then
  "$GA" devices --json --backend pulse > /tmp/lab-devices.json || die "glasses-audio devices failed"
  grep -q '"battery" *: *40' /tmp/lab-devices.json || die "glasses-audio devices does not show battery 40: $(cat /tmp/lab-devices.json)"
fi
monitor_saw() { grep -q "battery $1%" /tmp/lab-monitor.txt; }
wait_for 60 monitor_saw 40 || { kill $monitor 2>/dev/null; cat /tmp/lab-monitor.txt /tmp/lab-monitor.err; die "glasses-audio monitor did not report the battery at 40"; }
kill $monitor 2>/dev/null || true
grep battery /tmp/lab-monitor.txt
monitor_saw 77 || die "glasses-audio monitor did not report the first level (77)"
