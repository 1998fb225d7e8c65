# The stack alone: hci0 is up, discovery finds the glasses, BlueZ pairs and connects, HFP's
# service-level connection comes up and the sound server makes a card.
btmgmt info | grep -q "addr C0:C1:C2:C3:C4:C5" || die "hci0 is not the lab's adapter: $(btmgmt info)"
start=$(now)
# Discovery lives as long as the D-Bus client that started it: bluetoothctl holds it open.
bluetoothctl --timeout 30 scan on > /tmp/lab-scan.log 2>&1 &
wait_for 30 known || die "discovery did not find $GLASSES"
timing discover "$(since "$start")"
start=$(now)
# BlueZ keeps the adapter non-bondable until someone sets Pairable: the kernel then asks for
# "No Bonding" and the key is forgotten at the first disconnect.
bluetoothctl pairable on
bluetoothctl --timeout 60 pair "$GLASSES"
bluetoothctl trust "$GLASSES"
paired || die "not paired"
timing pair "$(since "$start")"
start=$(now)
busctl --system --timeout=60 call org.bluez "$DEV_PATH" org.bluez.Device1 Connect
timing connect "$(since "$start")"
peer wait slc 60 || die "no HFP service-level connection"
timing hfp-ready "$(since "$start")"
wait_for 30 card_has bluez_card || die "no bluez card in $SERVER: $(pactl list cards short)"
pactl list cards
