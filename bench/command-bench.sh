#!/usr/bin/env bash
# The local assistant's commands on 8 and 16 kHz links (docs/voice.md, "Commands"): a held-out
# corpus of in-grammar and out-of-grammar requests in espeak-ng and flite voices with pink,
# babble or hum noise at 5-20 dB (scripts/make-command-corpus, the test phrasings, seed 2), then
# the confusion table per link, 8 kHz at several limits of other words (voice-eval commands).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
per_link="${COMMAND_BENCH_PER_LINK:-60}"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
swift build -c release --product voice-eval 2>&1 | { grep -vE '^\[[0-9]+/[0-9]+\]' || true; }
scripts/make-command-corpus "$corpus" --per-link "$per_link" --seed 2 --split test
"$(swift build -c release --show-bin-path)/voice-eval" commands --corpus "$corpus"
