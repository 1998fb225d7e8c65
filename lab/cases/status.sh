# The daemon's /api/status on the real stack: glasses-audiod (pulse backend, no listening) says
# the glasses are connected, and the battery the glasses report through HFP (AT+BIEV=2,66 →
# BlueZ's Battery1) is the status's battery.
DAEMON=$BIN/glasses-audiod
[[ -x $DAEMON ]] || skip "glasses-audiod is not built ($DAEMON): swift build --product glasses-audiod"
connected || die "run pair first: the glasses are not connected"
peer wait slc 60 || die "no HFP service-level connection"
rm -rf /tmp/lab-daemon; mkdir -p /tmp/lab-daemon
nice -n 10 "$DAEMON" --backend pulse --listen false --http-port 18742 --wyoming-port 0 --data-dir /tmp/lab-daemon \
  > /tmp/lab-daemon.out 2> /tmp/lab-daemon.err &
daemon=$!
# The API wants the key the daemon writes to its data directory (X-API-Key; 401 without it).
status_json() { [[ -s /tmp/lab-daemon/api_key ]] &&
  curl -sf -H "X-API-Key: $(cat /tmp/lab-daemon/api_key)" http://127.0.0.1:18742/api/status > /tmp/lab-status.json; }
wait_for 180 status_json || { kill $daemon; cat /tmp/lab-daemon.err | tail -20; die "glasses-audiod did not answer /api/status"; }
cat /tmp/lab-status.json; echo
grep -q '"connected" *: *true' /tmp/lab-status.json || die "/api/status does not say connected: $(cat /tmp/lab-status.json)"
answer=$(peer battery 66) || die "battery: $answer"
echo "AT+BIEV=2,66 answered ${answer#ok }"
battery_66() { status_json && grep -q '"battery" *: *66' /tmp/lab-status.json; }
wait_for 60 battery_66 || { cat /tmp/lab-status.json; die "/api/status does not show the battery 66"; }
cat /tmp/lab-status.json; echo
kill $daemon
