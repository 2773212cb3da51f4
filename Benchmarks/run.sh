#!/usr/bin/env bash
# Runs MotionBridge's performance benchmarks (docs/BENCHMARKS.md): installs missing Debian packages via
# Deploy/install-deps.sh, builds the release products and the C floor program, then runs
# `motion-bench all` (agent on the simulated IMU at 1 kHz, the C floor doing the same job, and a QoS 0
# burst over one connection for both) against a private mosquitto on a free loopback port.
#
#   Benchmarks/run.sh [--update-docs] [motion-bench options...]
#
# Options after the script's own are passed to `motion-bench all` (e.g. --seconds 10, --device
# sim:rate=1000,batch=0.002, --json). --update-docs replaces the figures section of docs/BENCHMARKS.md
# with this run's table. Environment: SCRATCH (SwiftPM scratch path, default .build).
# A full run takes about a minute and a half after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

update_docs=false
if [ "${1:-}" = "--update-docs" ]; then update_docs=true; shift; fi

scratch=(--scratch-path "${SCRATCH:-.build}")
# The agent as it is deployed (Deploy/build-release.sh: static Swift runtime, no PIE).
agent=$(Deploy/build-release.sh)
swift build -c release "${scratch[@]}" --product motion-bench >&2
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
gcc -O2 -Wall -Wextra -o "$bin/motion-floor" Benchmarks/c-floor/floor.c -lmosquitto

output=$("$bin/motion-bench" all --agent "$agent" --floor "$bin/motion-floor" "$@")
printf '%s\n' "$output"

if $update_docs; then
    doc=docs/BENCHMARKS.md
    begin='<!-- figures:begin -->'
    end='<!-- figures:end -->'
    grep -q "$begin" "$doc" && grep -q "$end" "$doc" || { echo "run.sh: $doc has no figures markers" >&2; exit 1; }
    figures=$(mktemp)
    { echo "$begin"; echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD):"; echo; echo '```'
      printf '%s\n' "$output"; echo '```'; echo "$end"; } >"$figures"
    awk -v begin="$begin" -v end="$end" -v figures="$figures" '
        $0 == begin { while ((getline line < figures) > 0) print line; skipping = 1; next }
        $0 == end { skipping = 0; next }
        !skipping { print }' "$doc" >"$doc.new"
    mv "$doc.new" "$doc"
    rm -f "$figures"
    echo "run.sh: updated the figures in $doc" >&2
fi
