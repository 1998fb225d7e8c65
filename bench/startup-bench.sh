#!/usr/bin/env bash
# glasses-audiod (release) start-up on the simulated glasses with the Home Assistant backend:
# from the process's start to its HTTP API, to the wake engine ready (a head in place), and to
# "listening" (which also waits for the glasses' route to switch to the voice profile). Five
# starts, medians. Run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product glasses-audiod 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' >&2 || true
bin="$(swift build -c release --show-bin-path)/glasses-audiod"
echo "glasses-audiod start-up (release, simulated glasses, Home Assistant backend, 5 starts):"
python3 - "$bin" <<'PY'
import os, shutil, subprocess, sys, tempfile, time
binary = sys.argv[1]
marks = [("HTTP API listening", "HTTP API up"), ("wake word 'hey glasses'", "wake engine ready"), ("assistant: listening", "listening (route ready)")]
runs = []
for _ in range(5):
    folder = tempfile.mkdtemp()
    start = time.monotonic()
    daemon = subprocess.Popen(
        [binary, "--data-dir", folder + "/data", "--backend", "simulated", "--http-port", "0", "--wyoming-port", "0",
         "--esphome-port", "0", "--listen", "true", "--assistant-backend", "home-assistant"],
        stderr=subprocess.PIPE, text=True)
    seen = {}
    for line in daemon.stderr:
        for text, _ in marks:
            if text in line and text not in seen:
                seen[text] = (time.monotonic() - start) * 1000
        if len(seen) == len(marks):
            break
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(folder, ignore_errors=True)
    runs.append(seen)
for text, label in marks:
    values = sorted(run.get(text, float("nan")) for run in runs)
    print(f"  {label:28} median {values[len(values) // 2]:6.0f} ms   ({', '.join(f'{v:.0f}' for v in values)})")
PY
