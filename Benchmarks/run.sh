#!/usr/bin/env bash
# Runs MotionBridge's performance benchmarks (docs/BENCHMARKS.md): installs missing Debian packages via
# Deploy/install-deps.sh, builds the release products and the C floor program, then runs
# `motion-bench all` (agent on the simulated IMU at 1 kHz, the C floor doing the same job, and a QoS 0
# burst over one connection for both) against a private mosquitto on a free loopback port, then
# `motion-bench vibration` (the vibration service's CPU at 1600 and 6660 Hz, beside the C floor).
#
#   Benchmarks/run.sh [--update-docs] [motion-bench options...]
#
# Options after the script's own are passed to `motion-bench all` (e.g. --seconds 10, --device
# sim:rate=1000,batch=0.002, --json); --seconds, --warmup, --broker and --json go to `motion-bench
# vibration` too. --update-docs replaces the figures section of docs/BENCHMARKS.md with this run's table,
# and its vibration section with the vibration table. Environment: SCRATCH (SwiftPM scratch path,
# default .build). A full run takes about five minutes after the build (2 for `all`, 3 for `vibration`).
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

# The options `motion-bench vibration` shares with `all`.
vibration_options=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds | --warmup | --broker) vibration_options+=("$1" "${2:-}"); shift 2 || shift ;;
        --json) vibration_options+=("$1"); shift ;;
        *) shift ;;
    esac
done
vibration_command=(motion-bench vibration --agent "$agent" --floor "$bin/motion-floor" "${vibration_options[@]}")
vibration=$("$bin/motion-bench" vibration --agent "$agent" --floor "$bin/motion-floor" "${vibration_options[@]}")
printf '\n%s\n' "$vibration"

# Replaces the lines between the markers BEGIN and END of $doc (both kept) with the file FIGURES.
replace_block() {
    local begin=$1 end=$2 figures=$3
    grep -q "$begin" "$doc" && grep -q "$end" "$doc" || { echo "run.sh: $doc has no $begin markers" >&2; exit 1; }
    awk -v begin="$begin" -v end="$end" -v figures="$figures" '
        $0 == begin { while ((getline line < figures) > 0) print line; skipping = 1; next }
        $0 == end { skipping = 0; next }
        !skipping { print }' "$doc" >"$doc.new"
    mv "$doc.new" "$doc"
}

if $update_docs; then
    doc=docs/BENCHMARKS.md
    run="Run of $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
    figures=$(mktemp)
    begin='<!-- figures:begin -->'
    end='<!-- figures:end -->'
    { echo "$begin"; echo "$run:"; echo; echo '```'; printf '%s\n' "$output"; echo '```'; echo "$end"; } >"$figures"
    replace_block "$begin" "$end" "$figures"
    begin='<!-- vibration:begin -->'
    end='<!-- vibration:end -->'
    { echo "$begin"; echo "$run, \`${vibration_command[*]}\`:"; echo; echo '```'; printf '%s\n' "$vibration"; echo '```'
      echo "$end"; } >"$figures"
    replace_block "$begin" "$end" "$figures"
    rm -f "$figures"
    echo "run.sh: updated the figures and the vibration figures in $doc" >&2
fi
