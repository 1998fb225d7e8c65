"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
Prints the strongest frequency (Hz) of a WAV's loudest second: under emulation the links
are bursty, so a zero-crossing estimate over the whole file (sox's 'rough frequency') is not."""

import sys
import wave

import numpy

with wave.open(sys.argv[1], "rb") as source:
    rate, channels = source.getframerate(), source.getnchannels()
    samples = numpy.frombuffer(source.readframes(source.getnframes()), dtype="<i2").astype(float)
samples = samples.reshape(-1, channels)[:, 0]
if len(samples) < rate:
    print(0)
    sys.exit()
seconds = [samples[i : i + rate] for i in range(0, len(samples) - rate + 1, rate // 4)]
loudest = max(seconds, key=lambda chunk: float(numpy.sum(chunk * chunk)))
spectrum = numpy.abs(numpy.fft.rfft(loudest * numpy.hanning(len(loudest))))
print(int(round(numpy.argmax(spectrum[1:]) + 1) * rate / len(loudest)))
