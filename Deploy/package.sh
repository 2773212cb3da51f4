#!/usr/bin/env bash
# Builds the Debian package motion-agent_VERSION_ARCH.deb with dpkg-deb:
#   /usr/bin/motion-agent, /usr/bin/motionctl      Deploy/build-release.sh: release, the Swift runtime linked
#                                                  in statically, stripped (their .debug files stay in the build)
#   /etc/motion-agent/agent.json                   conffile (Deploy/debian/agent.json: device auto, local broker,
#                                                  state in /var/lib/motion-agent)
#   /lib/systemd/system/motion-agent.service       Deploy/systemd/
#   /lib/udev/rules.d/60-motion-agent.rules        Deploy/udev/, with /usr/libexec/motion-agent/iio-permissions
#   /usr/lib/sysusers.d/motion-agent.conf          Deploy/sysusers/: the system user motion-agent
#   /usr/share/man/man{1,5,8}/…                    Deploy/man/: motionctl(1), motion-agent.json(5), motion-agent(8)
#   /usr/share/doc/motion-agent/                   copyright, changelog, the README, configuration and contract
#   /usr/share/lintian/overrides/motion-agent      the deliberate no-PIE build, explained
# Depends: computed by dpkg-shlibdeps from the two executables (libmosquitto1, libsystemd0, libsqlite3-0, …).
# Maintainer scripts: Deploy/debian/{postinst,prerm,postrm} (user, state directory, udev, unit).
#
# usage: Deploy/package.sh [--arch ARCH] [--version VERSION] [--output DIR] [--binaries DIR]
#   --arch       Debian architecture (default: this machine's, dpkg --print-architecture). arm64: built and
#                packaged in the Debian 13 toolchain of Deploy/cross-sdk.sh (made first when missing), the
#                Depends computed against Debian 13's arm64 libraries: for Debian 13 and Raspberry Pi OS
#                based on it. armhf: cross-builds with the Swift SDK named by SWIFT_SDK (README "Deployment")
#   --version    package version (default: AgentVersion.current, Sources/MotionAgent/AgentVersion.swift)
#   --output     where the .deb goes (default .build/package); prints its path
#   --binaries   take motion-agent and motionctl from DIR instead of building them
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
arguments=("$@")
arch=$(dpkg --print-architecture)
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MotionAgent/AgentVersion.swift)
output=.build/package
binaries=
while (($#)); do
    case "$1" in
        --arch) arch=$2; shift 2 ;;
        --version) version=$2; shift 2 ;;
        --output) output=$2; shift 2 ;;
        --binaries) binaries=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "package: unknown argument $1" >&2; usage >&2; exit 64 ;;
    esac
done
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || { echo "package: version $version is not a Debian version" >&2; exit 64; }
case "$arch" in
    "$(dpkg --print-architecture)") ;;
    arm64)
        if [[ -z "${MOTIONBRIDGE_IN_TRIXIE:-}" ]]; then
            # The toolchain first (cached), then this script again inside it: the arm64 libraries and their
            # shlibs files, which dpkg-shlibdeps reads, are there.
            Deploy/cross-sdk.sh >/dev/null
            exec Deploy/in-trixie.sh env MOTIONBRIDGE_IN_TRIXIE=1 Deploy/package.sh "${arguments[@]}"
        fi ;;
    armhf)
        [[ -n "$binaries" || -n "${SWIFT_SDK:-}" ]] || {
            echo "package: --arch $arch needs SWIFT_SDK (a Swift SDK for the board, see README \"Deployment\") or --binaries DIR" >&2
            exit 64
        } ;;
    *) echo "package: unsupported architecture $arch (this machine's, arm64 or armhf)" >&2; exit 64 ;;
esac
for tool in dpkg-deb dpkg-shlibdeps gzip; do
    command -v "$tool" >/dev/null || { echo "package: $tool is missing (apt install dpkg-dev)" >&2; exit 69; }
done

if [[ -z "$binaries" ]]; then
    build_arch=()
    [[ "$arch" == arm64 ]] && build_arch=(--arch arm64)
    binaries=$(dirname "$(Deploy/build-release.sh "${build_arch[@]}" motion-agent motionctl | tail -n 1)")
fi
for program in motion-agent motionctl; do
    [[ -x "$binaries/$program" ]] || { echo "package: $binaries/$program is missing" >&2; exit 66; }
done

mkdir -p "$output"
stage=$(mktemp -d "$output/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root="$stage/root"
doc="$root/usr/share/doc/motion-agent"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/etc/motion-agent" "$root/lib/systemd/system" \
    "$root/lib/udev/rules.d" "$root/usr/libexec/motion-agent" "$root/usr/lib/sysusers.d" "$doc" \
    "$root/usr/share/man/man1" "$root/usr/share/man/man5" "$root/usr/share/man/man8"
install -m 0755 "$binaries/motion-agent" "$binaries/motionctl" "$root/usr/bin/"
install -m 0644 Deploy/debian/agent.json "$root/etc/motion-agent/agent.json"
install -m 0644 Deploy/systemd/motion-agent.service "$root/lib/systemd/system/"
install -m 0644 Deploy/udev/60-motion-agent.rules "$root/lib/udev/rules.d/"
install -m 0755 Deploy/udev/iio-permissions "$root/usr/libexec/motion-agent/"
install -m 0644 Deploy/sysusers/motion-agent.conf "$root/usr/lib/sysusers.d/"
for page in motionctl.1 motion-agent.json.5 motion-agent.8; do
    gzip -9n < "Deploy/man/$page" > "$root/usr/share/man/man${page##*.}/$page.gz"
done
install -m 0644 Deploy/debian/copyright "$doc/copyright"
install -d "$root/usr/share/lintian/overrides"
install -m 0644 Deploy/debian/lintian-overrides "$root/usr/share/lintian/overrides/motion-agent"
gzip -9n < README.md > "$doc/README.md.gz"
gzip -9n < Config/README.md > "$doc/CONFIGURATION.md.gz"
gzip -9n < docs/MQTT-CONTRACT.md > "$doc/MQTT-CONTRACT.md.gz"
gzip -9n < docs/DEPLOYMENT.md > "$doc/DEPLOYMENT.md.gz"
# A native package's changelog (Debian policy 12.7), dated by the last commit so that a rebuild of the
# same tree gives the same bytes.
stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)
{
    echo "motion-agent ($version) unstable; urgency=medium"
    echo
    echo "  * MotionBridge $version$(git rev-parse --short HEAD 2>/dev/null | sed 's/^/ (commit /; s/$/)/')."
    echo
    echo " -- MotionBridge developers <motionbridge@example.org>  $(LC_ALL=C date -u -R -d "@$stamp")"
} | gzip -9n > "$doc/changelog.gz"
for script in postinst prerm postrm; do
    install -m 0755 "Deploy/debian/$script" "$root/DEBIAN/$script"
done
echo /etc/motion-agent/agent.json > "$root/DEBIAN/conffiles"

# Depends: the shared libraries the executables load, as Debian's shlibs files name their packages.
mkdir -p "$stage/debian"
printf 'Source: motion-agent\n\nPackage: motion-agent\nArchitecture: any\n' > "$stage/debian/control"
# For another architecture, dpkg-architecture sets DEB_HOST_* so that the target's libraries are searched.
depends=$(cd "$stage" && dpkg-architecture -a"$arch" -c dpkg-shlibdeps -O -e"root/usr/bin/motion-agent" -e"root/usr/bin/motionctl" 2>/dev/null |
          sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 70; }
installed_size=$(du -k -s --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: motion-agent
Version: $version
Architecture: $arch
Maintainer: MotionBridge developers <motionbridge@example.org>
Installed-Size: $installed_size
Depends: $depends, adduser
Recommends: mosquitto
Suggests: mosquitto-clients
Section: net
Priority: optional
Description: IMU motion telemetry agent for MQTT (Apple CoreMotion's model)
 motion-agent reads a board's accelerometer, gyroscope and magnetometer (Linux
 IIO, its own I2C chip drivers, a simulator or a recording), fuses them into
 attitude, gravity and user acceleration, and publishes each service to an
 MQTT broker at its own rate, with retained availability, a last will, health
 reports and control topics that start, stop and reconfigure each service.
 .
 The package runs it as a systemd service (Type=notify, with a watchdog fed
 from the sample path) under its own user, and brings motionctl, the tool that
 lists, watches, commands and configures a fleet of such devices.
CONTROL
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control" "$root/DEBIAN/conffiles"

deb="$output/motion-agent_${version}_${arch}.deb"
SOURCE_DATE_EPOCH=$stamp dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "$(cd "$output" && pwd)/$(basename "$deb")"
