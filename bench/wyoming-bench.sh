#!/usr/bin/env bash
# Concurrent Wyoming wake-word streams served in real time (release build, DTW "hey glasses",
# then the neural head, with the memory per stream and at each level):
# each client sends the wake phrase at 16 kHz in 64 ms chunks on a real-time schedule; a level
# is "real time" when the ping after each pass comes back within 500 ms (p95) and every pass
# is detected. Run by `make bench`; WYOMING_BENCH_STREAMS overrides the levels.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product WyomingBench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|Conflicting identity' >&2
bin="$(swift build -c release --show-bin-path)/WyomingBench"
echo "Wyoming wake-word service, concurrent real-time streams ($(nproc) cores), dtw:"
"$bin" --streams "${WYOMING_BENCH_STREAMS:-64,128,200,256,320}" --passes 2
echo "The same with the neural head (the daemon's default once the phrase's head is ready):"
"$bin" --engine neural --per-stream 32
"$bin" --engine neural --streams "${WYOMING_BENCH_NEURAL_STREAMS:-64,128,200}" --passes 2
