"""(Debian's python3 with python3-numpy: /usr/bin/python3, not the lab's venv.)
Which of several syntheses a recording says: `same_speech.py RECORDING REFERENCE...` prints one
line per reference, 'SCORE REFERENCE', best first. All WAVs at the same rate (the cases convert
them with sox first). The score is how alike the spectra are (the cosine of each 20 ms frame's
log band energies, less their mean: the shape, not the level) over the reference's voiced frames,
at the best offset of the reference in the recording. A recording of one text scores highest
against the synthesis of that same text by the same engine; a text with other digits differs in
the digits' frames (espeak-ng is deterministic, so the same text gives the same frames)."""

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
    voiced = energy_ref > energy_ref.max() - 40
    if len(shape_ref) > len(shape_rec):
        return 0.0
    best = 0.0
    for lag in range(len(shape_rec) - len(shape_ref) + 1):
        window = shape_rec[lag : lag + len(shape_ref)]
        heard = energy_rec[lag : lag + len(shape_ref)] > energy_rec.max() - 50
        both = voiced & heard
        if both.sum() < 0.8 * voiced.sum():
            continue
        value = float((window[voiced] * shape_ref[voiced]).sum(axis=1).mean())
        best = max(best, value)
    return best


recording = features(*samples(sys.argv[1]))
results = sorted(((score(recording, features(*samples(path))), path) for path in sys.argv[2:]), reverse=True)
for value, path in results:
    print(f"{value:.3f} {path}")
