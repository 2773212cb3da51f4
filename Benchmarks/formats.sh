#!/usr/bin/env bash
# The agent's CPU with each payload format (docs/BENCHMARKS.md, "Payload formats"): builds the agent as it
# is deployed (Deploy/build-release.sh), motion-bench and the C floor, then runs `motion-bench formats`
# against a private mosquitto on a free loopback port: the agent once per format (native JSON, CBOR,
# SenML JSON and CBOR, Sparkplug B alone), then the batched C floor, in the same run. About 2 minutes
# after the build with the default 20 s windows.
#
#   Benchmarks/formats.sh [motion-bench formats options...]     (e.g. --seconds 10, --json)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
source Deploy/install-deps.sh
scratch=(--scratch-path "${SCRATCH:-.build}")
agent=$(Deploy/build-release.sh)
swift build -c release "${scratch[@]}" --product motion-bench >&2
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
gcc -O2 -Wall -Wextra -o "$bin/motion-floor" Benchmarks/c-floor/floor.c -lmosquitto
"$bin/motion-bench" formats --agent "$agent" --floor "$bin/motion-floor" "$@"
