#!/usr/bin/env bash
# Deploy/cross-sdk.sh: the toolchain that builds MotionBridge for 64-bit ARM (aarch64), made once and then
# reused from a cache folder outside the checkout. Idempotent: each step leaves a stamp and is skipped when
# its stamp is there; remove the cache folder to start over. Its last line of output is the sysroot's path,
# for `qemu-aarch64-static -L "$(Deploy/cross-sdk.sh | tail -1)" BINARY`.
#
# What it makes (the route measured in ../shared/design/aarch64-route.md), in CACHE/trixie:
#   1. a Debian 13 (trixie) amd64 chroot (debootstrap --variant=minbase) whose own apt installs Swift 6.0.3
#      (`swiftlang`, the only Swift that has an aarch64 runtime in Debian) and the project's -dev packages;
#   2. in the same chroot, `dpkg --add-architecture arm64` and the arm64 -dev packages (all Multi-Arch:
#      same), so the chroot is also the aarch64 runtime root qemu loads libraries from;
#   3. the aarch64 Swift runtime (swiftlang:arm64's lib/swift, swift_static and clang trees, and
#      libswiftlang:arm64's shared libraries) under /opt/swift-aarch64 in the chroot;
#   4. a sysroot folder for the compiler, /opt/sysroot-aarch64 (hard links of the arm64 headers and
#      libraries: an SDK root of / would make every module warn "loaded from SDK");
#   5. a Swift SDK bundle, aarch64-trixie, in /opt/swift-sdks (lld links; absolute tool paths).
# Downloads come only from Debian's archive (the mirror of the host's own sources), through debootstrap
# and the chroot's own apt: the host's apt sources are never changed. About 5 minutes and 3 GB the first
# time; a second run checks the stamps and prints the path. Needs root (debootstrap, chroot).
#
# usage: Deploy/cross-sdk.sh [--cache DIR]        (default: $MOTIONBRIDGE_CROSS_CACHE, else /var/cache/motionbridge/cross)
set -euo pipefail
cache=${MOTIONBRIDGE_CROSS_CACHE:-/var/cache/motionbridge/cross}
while (($#)); do
    case "$1" in
        --cache) cache="$2"; shift 2 ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "cross-sdk.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "cross-sdk.sh: needs root (debootstrap and chroot)" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
root="$cache/trixie"
stamps="$cache/stamps"
mkdir -p "$stamps"
say() { echo "cross-sdk: $*" >&2; }
done_step() { [ -e "$stamps/$1" ]; }
mark() { touch "$stamps/$1"; }
# Commands in the chroot run through in-trixie.sh: a private mount namespace, so that no bind mount
# outlives them (a forgotten /dev bind would make `rm -rf CACHE` dangerous).
in_chroot() { MOTIONBRIDGE_CROSS_CACHE="$cache" "$here/in-trixie.sh" --no-checkout "$@"; }

# Host tools: debootstrap (the chroot), qemu-user-static (running aarch64 binaries; no binfmt_misc here).
missing=()
for package in debootstrap qemu-user-static; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    say "installing ${missing[*]} on the host"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! done_step debootstrap; then
    mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    say "1/5 a Debian 13 (trixie) amd64 chroot from $mirror in $root (about 1 minute)"
    rm -rf "$root"
    debootstrap --variant=minbase --arch=amd64 --include=pkg-config,ca-certificates trixie "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
        || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
    mark debootstrap
fi

# amd64: the compiler, the project's libraries and packaging (dpkg-shlibdeps); arm64: the same libraries
# for the target (Multi-Arch: same, beside the amd64 ones). What the test suite runs besides is
# Deploy/test-trixie.sh's to add. The step runs again when this list changes.
packages=(swiftlang libmosquitto-dev libjansson-dev libsqlite3-dev libcbor-dev libfftw3-dev libsystemd-dev libssl-dev linux-libc-dev
          libprotobuf-c-dev libstdc++-14-dev pkg-config git file binutils-aarch64-linux-gnu dpkg-dev
          libc6-dev:arm64 libstdc++-14-dev:arm64 libgcc-14-dev:arm64 libmosquitto-dev:arm64 libjansson-dev:arm64
          libsqlite3-dev:arm64 libcbor-dev:arm64 libfftw3-dev:arm64 libsystemd-dev:arm64 libssl-dev:arm64 libprotobuf-c-dev:arm64)
list_stamp="packages-$(printf '%s\n' "${packages[@]}" | md5sum | cut -c1-12)"
if ! done_step "$list_stamp"; then
    say "2/5 Swift 6.0.3 and the -dev packages in the chroot, amd64 and arm64 (about 2 minutes)"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    in_chroot dpkg --add-architecture arm64
    in_chroot apt-get update -qq
    in_chroot apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
    rm -f "$stamps"/packages* "$stamps/sysroot"  # the sysroot's links are made again from what is there now
    mark "$list_stamp"
fi

if ! done_step runtime; then
    say "3/5 the aarch64 Swift runtime (swiftlang:arm64 and libswiftlang:arm64, about 400 MB)"
    rm -rf "$root/tmp/debs" "$root/opt/swift-aarch64"
    mkdir -p "$root/tmp/debs" "$root/opt/swift-aarch64"
    chmod 777 "$root/tmp/debs"
    in_chroot sh -c 'cd /tmp/debs && apt-get download -q swiftlang:arm64 libswiftlang:arm64' >/dev/null
    dpkg-deb --fsys-tarfile "$root"/tmp/debs/swiftlang_*_arm64.deb | (cd "$root/opt/swift-aarch64" && tar -x --wildcards \
        './usr/libexec/swift/lib/swift/*' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*')
    dpkg -x "$root"/tmp/debs/libswiftlang_*_arm64.deb "$root/opt/swift-aarch64"
    rm -rf "$root/tmp/debs"
    mark runtime
fi

if ! done_step sysroot; then
    say "4/5 the compiler's sysroot (hard links of the arm64 headers and libraries)"
    sysroot="$root/opt/sysroot-aarch64"
    rm -rf "$sysroot"
    mkdir -p "$sysroot/usr/lib/gcc"
    cp -al "$root/usr/include" "$sysroot/usr/include"
    cp -al "$root/usr/lib/aarch64-linux-gnu" "$sysroot/usr/lib/aarch64-linux-gnu"
    cp -al "$root/usr/lib/gcc/aarch64-linux-gnu" "$sysroot/usr/lib/gcc/aarch64-linux-gnu"
    # trixie's linux-libc-dev keeps the kernel's headers there; include/<triplet>/asm links to them.
    cp -al "$root/usr/lib/linux" "$sysroot/usr/lib/linux"
    ln -s usr/lib "$sysroot/lib"
    mark sysroot
fi

if ! done_step sdk; then
    say "5/5 the Swift SDK bundle aarch64-trixie"
    bundle="$root/opt/swift-sdks/aarch64-trixie.artifactbundle"
    rm -rf "$bundle"
    mkdir -p "$bundle/aarch64-trixie"
    # Debian's swift calls its host x86_64-pc-linux-gnu: with only -unknown- the SDK is "not found".
    cat >"$bundle/info.json" <<'JSON'
{ "schemaVersion": "1.0",
  "artifacts": { "aarch64-trixie": { "type": "swiftSDK", "version": "6.0.3",
    "variants": [{ "path": "aarch64-trixie", "supportedTriples": ["x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu"] }] } } }
JSON
    cat >"$bundle/aarch64-trixie/swift-sdk.json" <<'JSON'
{ "schemaVersion": "4.0",
  "targetTriples": { "aarch64-unknown-linux-gnu": {
    "sdkRootPath": "/opt/sysroot-aarch64",
    "swiftResourcesPath": "/opt/swift-aarch64/usr/libexec/swift/lib/swift",
    "swiftStaticResourcesPath": "/opt/swift-aarch64/usr/libexec/swift/lib/swift_static",
    "toolsetPaths": ["toolset.json"] } } }
JSON
    # The linker's path must be absolute.
    cat >"$bundle/aarch64-trixie/toolset.json" <<'JSON'
{ "schemaVersion": "1.0", "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "linker": { "path": "/usr/libexec/swift/bin/ld.lld" } }
JSON
    in_chroot swift sdk list --swift-sdks-path /opt/swift-sdks | grep -qx aarch64-trixie \
        || { echo "cross-sdk.sh: swift does not list the SDK aarch64-trixie" >&2; exit 1; }
    mark sdk
fi

say "ready: Swift $(in_chroot swift --version 2>/dev/null | sed -n '1s/.*Swift version \([0-9.]*\).*/\1/p') in $root, SDK aarch64-trixie"
echo "$root"
