#!/usr/bin/env bash
# Builds the board's `motion-agent` for deployment (see docs/BENCHMARKS.md for what each choice saves):
# - release, the Swift runtime, FoundationEssentials and libstdc++ linked in statically: the board needs
#   no Swift toolchain, only Debian's libmosquitto1, libsqlite3-0 and libjansson4;
# - unused sections dropped (--gc-sections), not position-independent, so the loader has no
#   relocations to apply to the Swift metadata at start;
# - every function in its own section and the functions the agent runs placed side by side
#   (Deploy/motion-agent.order, made by Deploy/make-order-file.sh; lld), so that the few hundred kB of
#   code it executes occupy a few hundred kB of pages instead of being spread over the 10 MB of text.
#   A stale order file costs memory, never correctness: names it lists that no longer exist are skipped;
# - public functions that nothing in the executable calls dropped like private ones (the frontend's
#   -internalize-at-link: Swift otherwise marks every public symbol of a module as retained, so that
#   --gc-sections keeps, for instance, the benchmark's recording variants in the agent): 0.49 MB less;
# - identical functions folded into one where no code compares their addresses (lld --icf=safe): the
#   C and C++ runtime's objects say which addresses matter (.llvm_addrsig); Swift's objects carry no
#   such table, so their functions are all kept. 9 kB less text on amd64;
# - no dynamic symbol table beyond what the libraries need (--no-export-dynamic overrides the Swift
#   driver's -export-dynamic): 4 000 exported names the loader would search at start and nothing uses.
# The shipped executable is stripped; its symbols and debug information go to motion-agent.debug beside
# it (linked by .gnu_debuglink, for gdb, valgrind and for symbolising a crash report). Prints the path
# of each executable, one a line.
#
# usage: Deploy/build-release.sh [--arch arm64] [PRODUCT…]   (default: motion-agent; the package adds
#        motionctl, which gets the same treatment, the order file naming only the agent's functions)
#   --arch arm64   for a 64-bit ARM board: cross-built in the Debian 13 toolchain of Deploy/cross-sdk.sh
#                  (made first when missing), with Swift 6.0.3 and the SDK aarch64-trixie; the result needs
#                  Debian 13 (glibc 2.38) on the board. Scratch path .build/arm64.
# Scratch path: SCRATCH (default .build/static). SWIFT_SDK: another Swift SDK to cross-build with (swift
# sdk list; see README "Deployment").
set -euo pipefail
cd "$(dirname "$0")/.."
arch=
if [[ "${1:-}" == "--arch" ]]; then arch=$2; shift 2; fi
case "$arch" in
    ""|"$(dpkg --print-architecture)") arch= ;;
    arm64) ;;
    *) echo "build-release: unsupported architecture $arch (this machine's or arm64)" >&2; exit 64 ;;
esac

products=("$@")
((${#products[@]})) || products=(motion-agent)
if [[ "$arch" == arm64 && -z "${MOTIONBRIDGE_IN_TRIXIE:-}" ]]; then
    # The toolchain first (cached), then this script again inside it, where the rest below runs.
    Deploy/cross-sdk.sh >/dev/null
    exec Deploy/in-trixie.sh env MOTIONBRIDGE_IN_TRIXIE=1 Deploy/build-release.sh --arch arm64 "${products[@]}"
fi
tools=
if [[ "$arch" == arm64 ]]; then
    # In the trixie chroot: the arm64 libraries' pkg-config files, the arm64 libstdc++, aarch64 binutils.
    export SWIFT_SDK=aarch64-trixie PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig
    scratch="${SCRATCH:-.build/arm64}"
    archive=/usr/lib/gcc/aarch64-linux-gnu/14/libstdc++.a
    tools=aarch64-linux-gnu-
else
    source Deploy/install-deps.sh
    scratch="${SCRATCH:-.build/static}"
    archive=$(clang -print-file-name=libstdc++.a)
fi
order="$PWD/Deploy/motion-agent.order"
# `-lstdc++` (from the Swift driver) finds the static archive first in a directory that holds only it.
static_cxx="$scratch/static-libstdc++"
[ -f "$archive" ] || { echo "build-release: libstdc++.a not found (libstdc++-12-dev)" >&2; exit 1; }
mkdir -p "$static_cxx" && ln -sf "$archive" "$static_cxx/libstdc++.a"

flags=(-c release --scratch-path "$scratch" --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -internalize-at-link
       -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld -Xswiftc -Xclang-linker -Xswiftc -no-pie
       -Xlinker --gc-sections -Xlinker -L"$(cd "$static_cxx" && pwd)"
       -Xlinker --symbol-ordering-file="$order" -Xlinker --no-warn-symbol-ordering
       -Xlinker --no-export-dynamic -Xlinker --icf=safe)
if [[ -n "${SWIFT_SDK:-}" ]]; then flags+=(--swift-sdk "$SWIFT_SDK"); fi
if [[ "$arch" == arm64 ]]; then flags+=(--swift-sdks-path /opt/swift-sdks); fi
bin="$(swift build "${flags[@]}" --show-bin-path)"
deploy="$scratch/deploy"
mkdir -p "$deploy"
for product in "${products[@]}"; do
    built="$bin/$product"
    # SwiftPM does not know the order file is an input of the link: a newer one forces it.
    if [[ -e "$built" && "$order" -nt "$built" ]]; then rm -f "$built"; fi
    swift build "${flags[@]}" --product "$product" >&2
    if [[ ! -e "$deploy/$product" || "$built" -nt "$deploy/$product" ]]; then
        listed=$(grep -cv '^#' "$order" || true)
        found=$("${tools}nm" --defined-only "$built" | awk 'NR == FNR { if ($0 !~ /^#/) want[$0] = 1; next } ($3 in want) { if (!seen[$3]++) n++ } END { print n + 0 }' "$order" -)
        echo "build-release: $product: $found of $listed functions of the order file are in the executable" >&2
        "${tools}objcopy" --only-keep-debug "$built" "$deploy/$product.debug"
        "${tools}objcopy" --strip-all --add-gnu-debuglink="$deploy/$product.debug" "$built" "$deploy/$product.tmp"
        mv "$deploy/$product.tmp" "$deploy/$product"
    fi
    echo "$(cd "$deploy" && pwd)/$product"
done
