#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, builds everything with warnings as errors,
# then runs every test target (unit tests, and integration tests that start a real mosquitto on a
# free loopback port and the real motion-agent executable), then every fuzz target for a bounded time
# (Fuzz/README.md), the fleet broker's configuration (Deploy/mosquitto/verify.sh), the Debian
# package (Deploy/package-test.sh: built, linted, installed with dpkg -i, run, purged) and the arm64
# build under emulation (Deploy/test-arm64.sh: the package, its agent under qemu against a real broker,
# the suites that need no broker or program under qemu; the Debian 13 toolchain cached outside the
# checkout, in /var/cache/motionbridge/cross) and the whole test suite again, natively on Debian 13 with
# Swift 6.0.3 in that toolchain's chroot (Deploy/test-trixie.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source Deploy/install-deps.sh

swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
# The fuzz targets, 20 s each (only for the whole suite: a filtered run is a developer's quick check).
if (($# == 0)); then
    Fuzz/run.sh --seconds "${MOTION_FUZZ_SECONDS:-20}"
    # The fleet broker's configuration and ACL against a real mosquitto (35 checks, about 16 s).
    verify_log=$(mktemp)
    if Deploy/mosquitto/verify.sh > "$verify_log" 2>&1; then
        echo "Deploy/mosquitto/verify.sh: $(tail -n 1 "$verify_log")"
        rm -f "$verify_log"
    else
        cat "$verify_log"
        rm -f "$verify_log"
        exit 1
    fi
    # The Debian package, built (static release) and really installed, run and purged (about 5 minutes).
    package_log=$(mktemp)
    status=0
    Deploy/package-test.sh > "$package_log" 2>&1 || status=$?
    if ((status == 0)); then
        grep '^package-test:' "$package_log"
    elif ((status == 77)); then
        echo "Deploy/package-test.sh: SKIPPED: $(tail -n 1 "$package_log")"
    else
        cat "$package_log"
        rm -f "$package_log"
        exit 1
    fi
    rm -f "$package_log"
    # 64-bit ARM, under qemu (about 10 minutes with the toolchain cached, 2 more the first time).
    arm64_log=$(mktemp)
    if Deploy/test-arm64.sh > "$arm64_log" 2>&1; then
        grep -E '^(test-arm64|  qemu-smoke):' "$arm64_log"
        rm -f "$arm64_log"
    else
        cat "$arm64_log"
        rm -f "$arm64_log"
        exit 1
    fi
    # The whole suite on Debian 13: Swift 6.0.3, mosquitto 2.0.21, OpenSSL 3.5, RabbitMQ 4.0 (about 10 minutes).
    trixie_log=$(mktemp)
    if Deploy/test-trixie.sh > "$trixie_log" 2>&1; then
        echo "Deploy/test-trixie.sh (Debian 13, Swift 6.0.3): $(grep -E '^✔ Test run with' "$trixie_log" | tail -n 1 | sed 's/^✔ //')"
        rm -f "$trixie_log"
    else
        grep -E '✘|error:' "$trixie_log" | head -60
        tail -n 5 "$trixie_log"
        rm -f "$trixie_log"
        exit 1
    fi
fi
