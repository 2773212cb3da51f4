#!/usr/bin/env bash
# Installs what MotionBridge needs from Debian's packages when it is missing:
# libmosquitto-dev (the C library the MQTT module wraps), libjansson-dev (the strict JSON parser of the
# configuration and commands), libsqlite3-dev (the durable offline buffer), mosquitto (the broker the tests and the demo
# start on a loopback port), mosquitto-clients, pkg-config, openssl (the TLS tests make their certificates),
# linux-libc-dev (the kernel's <linux/i2c-dev.h> for the I2C shim), libsystemd-dev (sd_notify: readiness and the
# watchdog of a Type=notify unit), libcbor-dev (the CBOR form of the data
# topics), libfftw3-dev (the vibration service's spectra), libprotobuf-c-dev (the Sparkplug B payload) and
# protobuf-c-compiler (the test that its generated C code is current), python3-scipy (the tests compare the spectra with SciPy's welch), python3-jsonschema, python3-cbor2 and python3-jinja2 (the tests validate every payload, JSON and
# CBOR, against schemas/ and render the Home Assistant templates),
# prometheus-mqtt-exporter and prometheus (the tests run the exporter of Deploy/prometheus/ on a loopback
# port and check the alert rules with promtool; their system services are not left running), systemd (the tests
# check Deploy/systemd/ with systemd-analyze), dpkg-dev and lintian (Deploy/package.sh computes the package's
# dependencies with dpkg-shlibdeps; the package test checks it with lintian), rabbitmq-server (the cluster
# tests start a two-node RabbitMQ with its MQTT plugin on loopback; its system service is not left running), debootstrap and
# qemu-user-static (Deploy/cross-sdk.sh makes the arm64 toolchain in a Debian 13 chroot; Deploy/test-arm64.sh runs
# the arm64 agent and tests under emulation), python3-pip (for kpn-senml, below). Needs root (or sudo) only when
# something is missing.
# From PyPI, into a cache outside the checkout ($MOTION_PYTHON_PATH, default ~/.cache/motionbridge/python), not
# the system's Python: kpn-senml (Apache-2.0), an independent SenML decoder the tests read the agent's SenML with, and
# pysparkplug (Apache-2.0, with paho-mqtt 1.6 and protobuf), the independent Sparkplug B host the tests drive the edge
# node with.
set -euo pipefail

packages=(libmosquitto-dev libjansson-dev libsqlite3-dev libcbor-dev libfftw3-dev libprotobuf-c-dev protobuf-c-compiler libsystemd-dev systemd mosquitto mosquitto-clients pkg-config openssl linux-libc-dev
          python3-jsonschema python3-cbor2 python3-jinja2 python3-scipy prometheus-mqtt-exporter prometheus dpkg-dev lintian rabbitmq-server
          debootstrap qemu-user-static python3-pip)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}" >&2
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
        as_root=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Installed for the tests only: not a Prometheus server or an exporter listening on every interface.
    if [ -d /run/systemd/system ]; then
        "${as_root[@]}" systemctl disable --now prometheus prometheus-mqtt-exporter prometheus-node-exporter \
            rabbitmq-server epmd.socket epmd.service >/dev/null 2>&1 || true
    fi
fi

python_path="${MOTION_PYTHON_PATH:-${XDG_CACHE_HOME:-$HOME/.cache}/motionbridge/python}"
# Debian's Python, the one the tests run (another python3 earlier on PATH may have its own packages).
if ! PYTHONPATH="$python_path" /usr/bin/python3 -c 'import kpn_senml' 2>/dev/null; then
    echo "install-deps: installing kpn-senml 1.0.1 from PyPI into $python_path" >&2
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$python_path" kpn-senml==1.0.1
fi
if ! PYTHONPATH="$python_path" /usr/bin/python3 -c 'import pysparkplug' 2>/dev/null; then
    echo "install-deps: installing pysparkplug 0.6.1 (with paho-mqtt and protobuf) from PyPI into $python_path" >&2
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --target "$python_path" pysparkplug==0.6.1
fi

if ! command -v swift >/dev/null; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        [ -x "$candidate/swift" ] && export PATH="$candidate:$PATH" && break
    done
fi
command -v swift >/dev/null || { echo "install-deps: the Swift 6 toolchain is not installed (see swift.org)" >&2; exit 1; }
