"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
Which of several syntheses a recording says: `same_speech.py RECORDING REFERENCE...` prints one
line per reference, 'SCORE REFERENCE', best first. All WAVs at the same rate (the cases convert
them with sox first). Each frame (32 ms, one every 10 ms) is described by the shape of its log band energies (less
their mean: the shape, not the level). The score is the mean likeness (cosine) of the
reference's voiced frames to the recording's sounding frames along the best alignment in time
of one to the other: each reference frame in turn meets the recording's next frame, the same
one again, or the one after next. So speech that reached the recording with pieces lost (the
lab's A2DP once lost 0.8 s of an 8.4 s sentence under TCG), or slower or faster, still lines
up; each lost piece costs its own frames, not the rest of the sentence. A recording of one
text scores highest against the synthesis of that same text by the same engine; a text with
other digits differs in the digits' frames (espeak-ng is deterministic, so the same text gives
the same frames)."""

import sys
import wave

import numpy

FRAME, HOP, BANDS = 0.032, 0.010, 24


def samples(path):
    with wave.open(path, "rb") as source:
        rate, channels = source.getframerate(), source.getnchannels()
        data = numpy.frombuffer(source.readframes(source.getnframes()), dtype="<i2").astype(float) / 32768
    return data.reshape(-1, channels)[:, 0], rate


def features(data, rate):
    size, hop = int(FRAME * rate), int(HOP * rate)
    count = max(0, (len(data) - size) // hop + 1)
    if count == 0:
        return numpy.zeros((0, BANDS)), numpy.zeros(0)
    window = numpy.hanning(size)
    frames = numpy.stack([data[i * hop : i * hop + size] * window for i in range(count)])
    power = numpy.abs(numpy.fft.rfft(frames, axis=1)) ** 2
    frequencies = numpy.fft.rfftfreq(size, 1 / rate)
    edges = numpy.geomspace(150, min(3800, rate / 2 - 1), BANDS + 1)
    bands = numpy.stack([power[:, (frequencies >= lo) & (frequencies < hi)].sum(axis=1)
                         for lo, hi in zip(edges[:-1], edges[1:])], axis=1)
    logs = numpy.log10(bands + 1e-12)
    energy = 10 * numpy.log10(power.sum(axis=1) + 1e-12)
    shape = logs - logs.mean(axis=1, keepdims=True)
    shape /= numpy.linalg.norm(shape, axis=1, keepdims=True) + 1e-12
    return shape, energy


def score(recording, reference):
    shape_rec, energy_rec = recording
    shape_ref, energy_ref = reference
    if len(shape_rec) == 0 or len(shape_ref) == 0:
        return 0.0
    ref = shape_ref[energy_ref > energy_ref.max() - 40]
    rec = shape_rec[energy_rec > energy_rec.max() - 50]
    if len(ref) > 2 * len(rec):
        return 0.0  # not even half of the reference's speech reached the recording
    likeness = ref @ rec.T  # one row per reference frame, one column per recording frame
    # best[j]: the highest total likeness of the reference's frames so far, the last of them
    # met at the recording's frame j (the first may meet any frame: the speech starts anywhere).
    best = likeness[0].copy()
    for row in likeness[1:]:
        before = best.copy()  # the same recording frame again
        before[1:] = numpy.maximum(before[1:], best[:-1])  # the next one
        before[2:] = numpy.maximum(before[2:], best[:-2])  # the one after next
        best = before + row
    return max(0.0, float(best.max()) / len(ref))


recording = features(*samples(sys.argv[1]))
results = sorted(((score(recording, features(*samples(path))), path) for path in sys.argv[2:]), reverse=True)
for value, path in results:
    print(f"{value:.3f} {path}")
