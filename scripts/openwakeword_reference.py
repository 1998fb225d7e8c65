"""pyopen-wakeword on WAV files, fed in 1280-sample chunks; see scripts/openwakeword-reference."""
import argparse, json, sys, time, wave

from pyopen_wakeword.openwakeword import OpenWakeWord, OpenWakeWordFeatures

CHUNK = 1280


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--head")
    parser.add_argument("--no-embeddings", action="store_true")
    parser.add_argument("--window", help="comma-separated 16x96 embeddings: print the head's score for them")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.window:
        import numpy as np
        head = OpenWakeWord.from_model(args.head)
        window = np.array([float(v) for v in args.window.split(",")], dtype=np.float32).reshape(1, 1, 16, 96)
        print(list(head.process_streaming(window))[-1])
        return
    features = OpenWakeWordFeatures.from_builtin()
    head = OpenWakeWord.from_model(args.head) if args.head else None
    for path in args.files:
        with wave.open(path, "rb") as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
                sys.exit(f"{path}: needs 16 kHz mono 16-bit WAV")
            pcm = w.readframes(w.getnframes())
        features.reset()
        if head: head.reset()
        embeddings, scores = [], []
        start = time.process_time()
        for i in range(0, len(pcm) - 2 * CHUNK + 1, 2 * CHUNK):
            for emb in features.process_streaming(pcm[i:i + 2 * CHUNK]):
                if not args.no_embeddings:
                    embeddings.append([round(float(v), 6) for v in emb.reshape(-1)])
                if head: scores.extend(float(s) for s in head.process_streaming(emb))
        cpu = time.process_time() - start
        print(json.dumps({"file": path, "embeddings": embeddings, "scores": scores, "cpu_seconds": cpu}))


if __name__ == "__main__":
    main()
