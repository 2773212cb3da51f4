#!/usr/bin/env bash
# Builds the board's `motion-agent` for deployment: release, the Swift runtime and Foundation linked in
# statically (the board needs no Swift toolchain, only Debian's libmosquitto1, libsqlite3-0 and libjansson4), unused sections dropped,
# and not position-independent, so the loader has no relocations to apply to the Swift metadata at start
# (with them it touches ~15 MB of the binary; without, the agent runs in under 20 MB resident, see
# docs/BENCHMARKS.md). Prints the path of the executable. Scratch path: SCRATCH (default .build/static).
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

flags=(-c release --scratch-path "${SCRATCH:-.build/static}" --static-swift-stdlib
       -Xlinker --gc-sections -Xswiftc -Xclang-linker -Xswiftc -no-pie)
swift build "${flags[@]}" --product motion-agent >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/motion-agent"
