#!/usr/bin/env bash
# Deploy/test-trixie.sh: the whole test suite on Debian 13 (trixie), natively, in the chroot of
# Deploy/cross-sdk.sh: Swift 6.0.3, libmosquitto and mosquitto 2.0.21, OpenSSL 3.5, libcbor 0.10, as a
# board on Debian 13 or Raspberry Pi OS based on it has them. Adds to the chroot, once, what the tests run
# besides the compiler (mosquitto, the schema and CBOR validators, SciPy, systemd-analyze, Prometheus and its MQTT
# exporter, RabbitMQ), builds with warnings as errors (scratch path .build/trixie; lld links the test
# bundle: the 6.0.3 test bundle does not link with bfd), and runs every test target. Arguments go to
# `swift test` (a --filter, say). About 10 minutes from a clean checkout; Deploy/test.sh (CI) runs it last.
#
# usage: Deploy/test-trixie.sh [SWIFT TEST ARGUMENTS…]
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
cd "$(dirname "$0")/.."
root=$(Deploy/cross-sdk.sh | tail -n 1)
stamps="$(dirname "$root")/stamps"
tools=(mosquitto mosquitto-clients openssl python3-jsonschema python3-cbor2 python3-jinja2 python3-scipy procps systemd
       prometheus prometheus-mqtt-exporter rabbitmq-server)
stamp="$stamps/test-tools-$(printf '%s\n' "${tools[@]}" | md5sum | cut -c1-12)"
if [ ! -e "$stamp" ]; then
    echo "test-trixie: adding what the tests run to the chroot: ${tools[*]}" >&2
    # Installed for the tests only: no service of theirs is started in a chroot (policy-rc.d says so).
    printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    Deploy/in-trixie.sh --no-checkout apt-get install -y -qq --no-install-recommends "${tools[@]}" >/dev/null
    rm -f "$stamps"/test-tools-*
    touch "$stamp"
fi
# kpn-senml (the SenML decode test's independent reader) and pysparkplug with paho-mqtt and protobuf (the
# Sparkplug host test's): the copies install-deps fetched from PyPI on the host (the chroot has neither pip nor
# the host's certificate store), into the chroot's /opt. protobuf's compiled part is left behind: its pure-Python
# form serves Debian 13's Python as well.
python_path="${MOTION_PYTHON_PATH:-${XDG_CACHE_HOME:-$HOME/.cache}/motionbridge/python}"
for package in kpn_senml pysparkplug paho google; do
    [ -d "$python_path/$package" ] || { echo "test-trixie: no $package in $python_path (Deploy/install-deps.sh fetches it)" >&2; exit 1; }
done
rm -rf "$root/opt/motionbridge-python"
mkdir -p "$root/opt/motionbridge-python"
for package in kpn_senml pysparkplug paho google; do cp -r "$python_path/$package" "$root/opt/motionbridge-python/"; done
rm -rf "$root/opt/motionbridge-python/google/_upb"
Deploy/in-trixie.sh swift build -j 2 --scratch-path .build/trixie --build-tests -Xswiftc -warnings-as-errors -Xswiftc -use-ld=lld
Deploy/in-trixie.sh env MOTION_PYTHON_PATH=/opt/motionbridge-python \
    swift test --skip-build --scratch-path .build/trixie -Xswiftc -use-ld=lld "$@"
