#!/usr/bin/env bash
# Builds the board's `motion-agent` for deployment: release, the Swift runtime and FoundationEssentials
# linked in statically (the board needs no Swift toolchain, only Debian's libmosquitto1, libsqlite3-0 and
# libjansson4), unused sections dropped, and not position-independent, so the loader has no relocations
# to apply to the Swift metadata at start (see docs/BENCHMARKS.md). The shipped executable is stripped;
# its symbols and debug information go to motion-agent.debug beside it (linked by .gnu_debuglink, for
# gdb and for symbolising a crash report). Prints the path of the executable.
# Scratch path: SCRATCH (default .build/static).
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

flags=(-c release --scratch-path "${SCRATCH:-.build/static}" --static-swift-stdlib
       -Xlinker --gc-sections -Xswiftc -Xclang-linker -Xswiftc -no-pie)
swift build "${flags[@]}" --product motion-agent >&2
built="$(swift build "${flags[@]}" --show-bin-path)/motion-agent"
deploy="${SCRATCH:-.build/static}/deploy"
mkdir -p "$deploy"
if [[ ! -e "$deploy/motion-agent" || "$built" -nt "$deploy/motion-agent" ]]; then
    objcopy --only-keep-debug "$built" "$deploy/motion-agent.debug"
    objcopy --strip-all --add-gnu-debuglink="$deploy/motion-agent.debug" "$built" "$deploy/motion-agent.tmp"
    mv "$deploy/motion-agent.tmp" "$deploy/motion-agent"
fi
echo "$(cd "$deploy" && pwd)/motion-agent"
