# The glasses' touch: an AVRCP pass-through PLAY (pressed, released) from the glasses'
# controller role. Records what this stack does with it: the AG's response, the input device
# bluetoothd makes through uinput and the key that arrives there, and any MediaPlayer1.
connected || die "run pair first: the glasses are not connected"
devices_before=$(grep -c "^N: Name=" /proc/bus/input/devices 2>/dev/null || echo 0)
answer=$(peer touch play) || die "touch: $answer"
echo "observed $SERVER AVRCP PLAY ${answer#ok }"
grep "avrcp" "$OUT/logs/peer-events.log" || true
echo "-- input devices (/proc/bus/input/devices):"; cat /proc/bus/input/devices
echo "-- bluez objects:"; busctl --system tree org.bluez 2>/dev/null | grep -i "player\|dev_" || true
grep -iE "avctp|avrcp|uinput|player" "$OUT/logs/bluetoothd.log" | tail -20 || true
input=$(awk -v mac="$GLASSES" 'BEGIN { IGNORECASE = 1 } /^N: Name=/ { name = $0 } /^H: Handlers=/ && (index(name, mac) || index(name, "Lab Glasses") || index(name, "AVRCP")) { for (i = 1; i <= NF; i++) if ($i ~ /^event/) print $i }' /proc/bus/input/devices | tail -1)
[[ -n $input ]] || die "no input device for the glasses' AVRCP (uinput): the touch reaches nothing we can read"
echo "the glasses' AVRCP keys arrive at /dev/input/$input"
# A second touch, read from the input device this time (KEY_PLAYCD is 200, KEY_PLAYPAUSE 164).
/usr/bin/python3 - "/dev/input/$input" > /tmp/lab-keys.txt <<'PY' &
import os, select, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
ready, _, _ = select.select([fd], [], [], 60)
keys = []
while ready:
    data = os.read(fd, 24 * 16)
    for offset in range(0, len(data) - 23, 24):
        _, _, kind, code, value = struct.unpack_from("qqHHi", data, offset)
        if kind == 1:
            keys.append(f"{code}:{value}")
    if any(k.endswith(":0") for k in keys):
        break
    ready, _, _ = select.select([fd], [], [], 10)
print(" ".join(keys))
PY
reader=$!
sleep 1
answer=$(peer touch play) || die "touch: $answer"
wait $reader || true
echo "keys read at /dev/input/$input: $(cat /tmp/lab-keys.txt) (code:value; 200 KEY_PLAYCD, 164 KEY_PLAYPAUSE)"
[[ -s /tmp/lab-keys.txt ]] || die "no key arrived at /dev/input/$input"
