# The glasses' button sends AT+BVRA=1. What the AG answers is what this stack does with it.
connected || die "run pair first: the glasses are not connected"
peer wait slc 30 || die "no HFP service-level connection"
answer=$(peer bvra) || die "bvra: $answer"
echo "observed $SERVER AT+BVRA=1 ${answer#ok }"
case $SERVER:${answer#ok } in
  pipewire:ERROR|pulseaudio:OK) ;;
  *) die "AT+BVRA=1 on $SERVER answered ${answer#ok } (expected ERROR on PipeWire 0.3.65, OK on PulseAudio 16)" ;;
esac
