"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
How much of a WAV carries sound: prints 'VOICED_SECONDS RMS_OF_THOSE_FRAMES TOTAL_SECONDS'.
A frame (20 ms) counts when its RMS is above 0.003 (-50 dBFS): the lab's links add no noise,
silence arrives as zeros, and PipeWire's default Bluetooth volume (0.4, cubic) makes speech
quiet, so the level is only told from silence; how long it lasts is what tells speech."""

import sys
import wave

import numpy

with wave.open(sys.argv[1], "rb") as source:
    rate, channels = source.getframerate(), source.getnchannels()
    samples = numpy.frombuffer(source.readframes(source.getnframes()), dtype="<i2").astype(float) / 32768
samples = samples.reshape(-1, channels)[:, 0]
frame = rate // 50
count = len(samples) // frame
if count == 0:
    print("0 0 0")
    sys.exit()
frames = samples[: count * frame].reshape(count, frame)
rms = numpy.sqrt(numpy.mean(frames * frames, axis=1))
voiced = rms > 0.003
level = float(numpy.sqrt(numpy.mean(frames[voiced] ** 2))) if voiced.any() else 0.0
print(f"{voiced.sum() / 50:.2f} {level:.4f} {len(samples) / rate:.2f}")
