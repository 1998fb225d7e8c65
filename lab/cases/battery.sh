# The glasses report their battery through HFP: AT+BIEV=2,N (HF indicator 2) and Apple's
# AT+IPHONEACCEV. bluetoothd -E turns what the sound server hands it into Battery1.Percentage.
# What each AG answered is printed: PipeWire 0.3.65 never answers OK to these (fixed upstream
# in 1.5.84), PulseAudio 16 answers OK.
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
answer=$(peer battery 77) || die "battery: $answer"
echo "AT+BIEV=2,77 answered: ${answer#ok }"
echo "observed $SERVER AT+BIEV ${answer#ok }"
wait_for 30 battery_is 77 || die "Battery1.Percentage is $(bluez_prop org.bluez.Battery1 Percentage), not 77"
answer=$(peer apple-battery 40) || die "apple-battery: $answer"
echo "observed $SERVER AT+IPHONEACCEV ${answer#ok }"
wait_for 30 battery_is 40 || die "Battery1.Percentage is $(bluez_prop org.bluez.Battery1 Percentage) after the Apple report, not 40"
if [[ -x $GA ]]; then
  "$GA" devices --json --backend pulse > /tmp/lab-devices.json || die "glasses-audio devices failed"
  grep -q '"battery" *: *40' /tmp/lab-devices.json || die "glasses-audio devices does not show battery 40: $(cat /tmp/lab-devices.json)"
fi
