"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
How much of a WAV carries sound: prints 'VOICED_SECONDS RMS_OF_THOSE_FRAMES TOTAL_SECONDS'.
`speech_present.py FILE [THRESHOLD]`: a frame (20 ms) counts when its RMS is above THRESHOLD,
0.003 (-50 dBFS) unless given. The lab's links add no noise and silence arrives at the glasses'
speaker as exact zeros, so the level is only told from silence; how long it lasts is what tells
speech. At the glasses' speaker the cases give 0.0003 (-70 dBFS): PipeWire's default Bluetooth
volume (0.4, cubic) plays the reply at -38 dBFS at its loudest: at -50 dBFS "It is 8:00 PM."
counted 0.90 s of the 1.36 s above -70, and "It is 11:52 PM." 0.76 s, under the cases' 0.8 s
(an absent reply still counts 0: silence is zeros)."""

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
threshold = float(sys.argv[2]) if len(sys.argv) > 2 else 0.003
voiced = rms > threshold
level = float(numpy.sqrt(numpy.mean(frames[voiced] ** 2))) if voiced.any() else 0.0
print(f"{voiced.sum() / 50:.2f} {level:.4f} {len(samples) / rate:.2f}")
