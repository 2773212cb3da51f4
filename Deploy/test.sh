#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, builds everything with warnings as errors,
# then runs every test target (unit tests, and integration tests that start a real mosquitto on a
# free loopback port and the real motion-agent executable), then every fuzz target for a bounded time
# (Fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
# The fuzz targets, 20 s each (only for the whole suite: a filtered run is a developer's quick check).
if (($# == 0)); then
    Fuzz/run.sh --seconds "${MOTION_FUZZ_SECONDS:-20}"
fi
