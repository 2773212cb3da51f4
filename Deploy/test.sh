#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, builds everything with warnings as errors,
# then runs every test target (unit tests, and integration tests that start a real mosquitto on a
# free loopback port and the real motion-agent executable).
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
