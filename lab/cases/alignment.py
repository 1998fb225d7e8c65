"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
Where a received copy of the mic's speech lost or gained audio: `alignment.py SAID GOT`, two
mono 16-bit WAVs at the same rate (the mic's: 8 kHz for CVSD, 16 kHz for mSBC) (SAID what the mic said, GOT what a hop received, e.g. the
command listen kept, decoded). Each 50 ms window of SAID's speech is found in GOT (normalised
cross-correlation, to the sample); the offset of the first window is the copy's start, and every
later change of offset is audio dropped (negative: GOT runs ahead) or inserted (positive) before
that window. Prints one line: 'shifts: none' or 'shifts: T s OFFSET ms, ...' (T in seconds of
SAID's speech, OFFSET from the start's), windows matched below 0.98 left out as unsure (one
across a shift matches part of each side: 0.90-0.97).
The unit of a shift tells who made it: PipeWire's graph cycles are 1024 samples at 48 kHz
(21.33 ms; the guest's default quantum), our capture and voice stage work in 20 ms frames."""

import sys
import wave

import numpy


def load(path):
    with wave.open(path, "rb") as source:
        samples = numpy.frombuffer(source.readframes(source.getnframes()), dtype="<i2").astype(float) / 32768
        return samples.reshape(-1, source.getnchannels())[:, 0], source.getframerate()


said, rate = load(sys.argv[1])
got, got_rate = load(sys.argv[2])
if rate != got_rate:
    sys.exit(f"alignment.py: {sys.argv[1]} is at {rate} Hz, {sys.argv[2]} at {got_rate} Hz (resample one)")
loud = numpy.flatnonzero(numpy.abs(said) > 0.003)
if len(loud) == 0 or len(got) < rate // 20:
    print("shifts: nothing to align")
    sys.exit()
window = rate // 20
energy = numpy.sqrt(numpy.convolve(got * got, numpy.ones(window), mode="valid"))
# The whole copy's offset first (FFT), then each window within 0.2 s of the offset before it:
# cheap enough for the lab's emulated guest (a search over the whole copy took minutes there).
size = 1 << int(numpy.ceil(numpy.log2(len(said) + len(got))))
whole = numpy.fft.irfft(numpy.fft.rfft(got, size) * numpy.conj(numpy.fft.rfft(said, size)), size)
offset = int(numpy.argmax(whole))
offset = offset if offset < size // 2 else offset - size
reach = rate // 5
offsets = []
for start in range(loud[0], loud[-1] - window, window):
    part = said[start : start + window]
    norm = numpy.linalg.norm(part)
    if norm < 0.01:
        continue
    low = max(0, start + offset - reach)
    high = min(len(got) - window, start + offset + reach)
    if high <= low:
        continue
    match = numpy.correlate(got[low : high + window], part, mode="valid") / (norm * energy[low : high + 1] + 1e-12)
    best = int(numpy.argmax(match))
    if match[best] >= 0.98:
        offset = low + best - start
        offsets.append(((start - loud[0]) / rate, offset))
if not offsets:
    print("shifts: no window matched")
    sys.exit()
first = offsets[0][1]
shifts, last = [], first
for at, offset in offsets[1:]:
    if abs(offset - last) > rate // 2000:  # more than 0.5 ms
        shifts.append(f"{at:.2f} s {(offset - first) / rate * 1000:+.2f} ms")
        last = offset
print("shifts: " + (", ".join(shifts) if shifts else "none"))
