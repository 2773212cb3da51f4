#!/usr/bin/env bash
# Runs every fuzz target for longer than CI does (default an hour each) and keeps the grown corpus, so
# that a night's run leaves new seeds to look at: Fuzz/soak.sh [SECONDS] [CORPUS_DIR]
# (default corpus directory: ./fuzz-corpus). Merge interesting inputs into Fuzz/Corpus/TARGET by hand.
set -euo pipefail
exec "$(dirname "$0")/run.sh" --seconds "${1:-3600}" --corpus "${2:-$PWD/fuzz-corpus}"
