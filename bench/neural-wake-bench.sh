#!/usr/bin/env bash
# The neural wake engine's CPU over a long file: `glasses-audio wake --engine neural --json` (release)
# over 146.7 s of speech with the phrase (the two samples/hey-glasses-*.wav, 14 times each,
# alternating), user + sys CPU of the process, seven runs, median; the same over 0.5 s of silence
# (start-up: loading the models, OpenBLAS's thread), and the difference per second of audio.
# With NEURAL_WAKE_BEFORE=path/to/another/glasses-audio, the two binaries run interleaved and their
# --json outputs are compared. Run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
# OpenBLAS starts a thread per core when it loads, before the voice code sets it to one; that
# thread spins for up to 0.1 s of CPU at start-up, in some runs and not others. Not started here.
export OPENBLAS_NUM_THREADS=1
swift build -c release --product glasses-audio 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2 || true
bin="$(swift build -c release --show-bin-path)/glasses-audio"
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
files=()
for _ in $(seq 14); do files+=(samples/hey-glasses-weather.wav samples/hey-glasses-what-time.wav); done
sox "${files[@]}" "$folder/speech.wav"
sox -n -r 16000 -c 1 -b 16 "$folder/short.wav" trim 0 0.5
binaries=("$bin")
[[ -n "${NEURAL_WAKE_BEFORE:-}" ]] && binaries=("$NEURAL_WAKE_BEFORE" "$bin")
echo "neural wake engine over $(printf "%.1f" "$(soxi -D "$folder/speech.wav")") s of speech (glasses-audio wake --engine neural, release, 7 runs):"
python3 - "$folder" "$(soxi -D "$folder/speech.wav")" "${binaries[@]}" <<'PY'
import resource, subprocess, sys
folder, seconds, binaries = sys.argv[1], float(sys.argv[2]) - 0.5, sys.argv[3:]
times = {(b, f): [] for b in binaries for f in ("speech", "short")}
outputs = {}
for _ in range(7):
    for binary in binaries:
        for name in ("speech", "short"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([binary, "wake", "--engine", "neural", "--json", f"{folder}/{name}.wav"],
                                 capture_output=True, text=True, check=True).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[(binary, name)].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if name == "speech": outputs[binary] = out
for binary in binaries:
    long, short = sorted(times[(binary, "speech")]), sorted(times[(binary, "short")])
    print(f"  {binary}")
    print(f"    median {long[3]:.3f} s of CPU ({', '.join(f'{v:.2f}' for v in long)}); start-up {short[3]:.3f} s;"
          f" {1000 * (long[3] - short[3]) / seconds:.2f} ms of CPU per second of audio")
if len(binaries) == 2:
    print("  --json outputs " + ("identical" if outputs[binaries[0]] == outputs[binaries[1]] else "DIFFER"))
PY
