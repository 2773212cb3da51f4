#!/usr/bin/env bash
# Tests the Debian package on this machine for real: builds it (Deploy/package.sh), runs lintian, installs
# it with dpkg -i, checks what it installed (files, conffile, user, state directory, enabled unit, man
# pages, udev helper), runs the installed agent as its user against a private mosquitto on 127.0.0.1
# (as that user, through setpriv, which execs it: signals reach the agent itself; data, retained status, a remote configuration that the agent keeps in its state directory, a clean
# stop), then purges the package and checks that nothing is left but the system user, which Debian policy
# keeps. Needs root (or sudo). Refuses to touch a machine where motion-agent is already installed.
#
# usage: Deploy/package-test.sh [DEB]     (default: build one with Deploy/package.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "package-test: needs root (or sudo) for dpkg -i" >&2; exit 77; }
    as_root=(sudo)
fi
checks=0
pass() { checks=$((checks + 1)); }
die() { echo "package-test: FAIL: $*" >&2; exit 1; }
check() { local what=$1; shift; "$@" >/dev/null 2>&1 || die "$what"; pass; }

if dpkg-query -W -f='${Status}' motion-agent 2>/dev/null | grep -q "installed"; then
    die "motion-agent is already installed on this machine: not touching it (dpkg --purge motion-agent first)"
fi
deb=${1:-$(Deploy/package.sh)}
[[ -f "$deb" ]] || die "no package $deb"
echo "package-test: $deb ($(du -k "$deb" | cut -f1) kB)"

work=$(mktemp -d)
broker_pid=
agent_pid=
cleanup() {
    [[ -n "$agent_pid" ]] && kill "$agent_pid" 2>/dev/null || true
    [[ -n "$broker_pid" ]] && kill "$broker_pid" 2>/dev/null || true
    # Never leave the package behind, whatever failed.
    if dpkg-query -W -f='${Status}' motion-agent 2>/dev/null | grep -q "installed"; then
        "${as_root[@]}" dpkg --purge motion-agent >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# --- lintian: no errors (warnings and notes are printed) -----------------------------------------
if command -v lintian >/dev/null; then
    lintian_status=0
    lintian --fail-on error --tag-display-limit 0 "$deb" > "$work/lintian.raw" 2>&1 || lintian_status=$?
    grep -v 'running with root privileges' "$work/lintian.raw" > "$work/lintian.txt" || true
    ((lintian_status == 0)) || { cat "$work/lintian.txt"; die "lintian reports errors"; }
    echo "package-test: lintian: no errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings, $(grep -c '^[IP]:' "$work/lintian.txt" || true) notes"
    sed 's/^/  /' "$work/lintian.txt"
    pass
else
    die "lintian is not installed (Deploy/install-deps.sh installs it)"
fi
dpkg-deb --info "$deb" > "$work/info.txt"
grep -q '^ Depends:.*libmosquitto1' "$work/info.txt" || die "Depends lacks libmosquitto1: $(grep Depends "$work/info.txt")"
grep -q '^ Depends:.*libsystemd0' "$work/info.txt" || die "Depends lacks libsystemd0"
pass
echo "package-test: $(grep '^ Depends:' "$work/info.txt" | sed 's/^ //')"

# --- install --------------------------------------------------------------------------------------
"${as_root[@]}" dpkg -i "$deb" > "$work/dpkg-i.txt" 2>&1 || { cat "$work/dpkg-i.txt"; die "dpkg -i failed"; }
pass
dpkg -L motion-agent > "$work/files.txt"
dpkg-deb --contents "$deb" | awk '{print substr($6, 2)}' > "$work/contents.txt"
# Minimal images (Debian's docker "slim") tell dpkg not to install manual pages or documentation: such a
# file must then be in the package, not on the disk.
excluded() {
    local kind pattern verdict=1
    while read -r kind pattern; do
        # shellcheck disable=SC2053  # the pattern is a glob, as dpkg matches it (fnmatch, * crossing /)
        [[ "$1" == $pattern ]] && { [[ $kind == path-exclude ]] && verdict=0 || verdict=1; }
    done < <(cat /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/* 2>/dev/null | sed -n 's/^\(path-exclude\|path-include\)[= ]*/\1 /p')
    return $verdict
}
for path in /usr/bin/motion-agent /usr/bin/motionctl /etc/motion-agent/agent.json \
    /lib/systemd/system/motion-agent.service /lib/udev/rules.d/60-motion-agent.rules \
    /usr/libexec/motion-agent/iio-permissions /usr/lib/sysusers.d/motion-agent.conf \
    /usr/share/man/man8/motion-agent.8.gz /usr/share/man/man1/motionctl.1.gz \
    /usr/share/man/man5/motion-agent.json.5.gz /usr/share/doc/motion-agent/copyright; do
    if excluded "$path"; then
        grep -qx "$path" "$work/contents.txt" || die "$path is not in the package"
    else
        grep -qx "$path" "$work/files.txt" && [[ -e "$path" ]] || die "$path is not installed"
    fi
    pass
done
check "dpkg --verify: an installed file differs from the package" "${as_root[@]}" dpkg --verify motion-agent
dpkg-query -W -f='${Conffiles}\n' motion-agent | grep -q '/etc/motion-agent/agent.json' || die "agent.json is not a conffile"
pass
entry=$(getent passwd motion-agent) || die "no user motion-agent"
[[ "$entry" == *":/var/lib/motion-agent:/usr/sbin/nologin" ]] || die "user motion-agent: $entry"
getent group motion-agent >/dev/null || die "no group motion-agent"
pass
[[ "$(stat -c '%U:%G %a' /var/lib/motion-agent)" == "motion-agent:motion-agent 750" ]] ||
    die "state directory: $(stat -c '%U:%G %a' /var/lib/motion-agent)"
pass
[[ -L /etc/systemd/system/multi-user.target.wants/motion-agent.service ]] || die "the unit is not enabled"
pass
check "systemd-analyze verify of the installed unit" systemd-analyze verify --man=no /lib/systemd/system/motion-agent.service
if command -v man >/dev/null && ! excluded /usr/share/man/man8/x; then
    [[ "$(man -w motion-agent)" == /usr/share/man/man8/motion-agent.8.gz ]] || die "man motion-agent: $(man -w motion-agent 2>&1)"
    [[ "$(man -w 5 motion-agent.json)" == /usr/share/man/man5/motion-agent.json.5.gz ]] || die "man 5 motion-agent.json"
    [[ "$(man -w motionctl)" == /usr/share/man/man1/motionctl.1.gz ]] || die "man motionctl"
    pass
fi
check "motion-agent --help" /usr/bin/motion-agent --help
check "motionctl --help" /usr/bin/motionctl --help
# The executables need no Swift toolchain: only Debian's libraries.
if ldd /usr/bin/motion-agent /usr/bin/motionctl | grep -E 'swift|not found'; then die "an executable needs the Swift toolchain"; fi
pass
# The udev helper on a fake sysfs device: the group gets the attributes the agent writes, nothing else.
device="$work/sys/iio:device0"
mkdir -p "$device/buffer" "$device/scan_elements" "$device/trigger"
touch "$device/sampling_frequency" "$device/in_accel_sampling_frequency" "$device/buffer/enable" \
    "$device/buffer/length" "$device/scan_elements/in_accel_x_en" "$device/scan_elements/in_accel_x_type" \
    "$device/trigger/current_trigger" "$device/name"
chmod 0644 "$device"/* "$device"/*/* 2>/dev/null || true
"${as_root[@]}" /usr/libexec/motion-agent/iio-permissions "$device" motion-agent
for written in sampling_frequency in_accel_sampling_frequency buffer/enable buffer/length scan_elements/in_accel_x_en trigger/current_trigger; do
    [[ "$(stat -c '%G %A' "$device/$written")" == "motion-agent -rw-rw-r--" ]] || die "iio-permissions: $written: $(stat -c '%G %A' "$device/$written")"
done
for untouched in name scan_elements/in_accel_x_type; do
    [[ "$(stat -c '%G' "$device/$untouched")" != motion-agent ]] || die "iio-permissions changed $untouched"
done
pass

# --- the installed agent, as its user, against a private broker ---------------------------------
port=
for _ in $(seq 100); do
    candidate=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
done
[[ -n "$port" ]] || die "no free port"
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" > "$work/mosquitto.conf"
[[ $(id -u) == 0 ]] && echo "user root" >> "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
broker_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
broker="mqtt://127.0.0.1:$port"
check "--check-config of the packaged configuration, as motion-agent" \
    "${as_root[@]}" setpriv --reuid=motion-agent --regid=motion-agent --init-groups -- /usr/bin/motion-agent --config /etc/motion-agent/agent.json --check-config
"${as_root[@]}" setpriv --reuid=motion-agent --regid=motion-agent --init-groups -- /usr/bin/motion-agent --config /etc/motion-agent/agent.json \
    --device sim --id pkgtest --broker "$broker" > "$work/agent.log" 2>&1 &
agent_pid=$!
timeout 15 mosquitto_sub -p "$port" -h 127.0.0.1 -t motion/pkgtest/status -C 1 > "$work/status.txt" ||
    { cat "$work/agent.log"; die "no retained status from the installed agent"; }
grep -q online "$work/status.txt" || die "status: $(cat "$work/status.txt")"
timeout 15 mosquitto_sub -p "$port" -h 127.0.0.1 -t motion/pkgtest/device-motion -C 5 > "$work/data.txt" ||
    die "no device motion from the installed agent"
grep -q '"attitude"' "$work/data.txt" || die "device motion: $(head -1 "$work/data.txt")"
pass
/usr/bin/motionctl config set pkgtest health_interval=5 --broker "$broker" > "$work/config-set.txt" 2>&1 ||
    { cat "$work/config-set.txt" "$work/agent.log"; die "the installed agent did not accept a remote configuration"; }
"${as_root[@]}" test -s /var/lib/motion-agent/remote-config.json || die "the remote configuration was not kept in the state directory"
[[ "$("${as_root[@]}" stat -c '%U' /var/lib/motion-agent/remote-config.json)" == motion-agent ]] || die "state file owner"
pass
kill -TERM "$agent_pid"
status=0
wait "$agent_pid" || status=$?
agent_pid=
[[ $status == 0 ]] || { cat "$work/agent.log"; die "the agent exited with $status on SIGTERM"; }
timeout 5 mosquitto_sub -p "$port" -h 127.0.0.1 -t motion/pkgtest/status -C 1 | grep -q offline || die "no retained offline after the stop"
pass
echo "package-test: the installed agent published as user motion-agent, kept a remote configuration in /var/lib/motion-agent and stopped cleanly"

# --- purge: nothing left but the system user --------------------------------------------------------
"${as_root[@]}" dpkg --purge motion-agent > "$work/purge.txt" 2>&1 || { cat "$work/purge.txt"; die "dpkg --purge failed"; }
pass
left=()
while read -r path; do
    [[ -z "$path" || -d "$path" ]] && continue
    [[ -e "$path" || -L "$path" ]] && left+=("$path")
done < "$work/files.txt"
for path in /etc/motion-agent /var/lib/motion-agent /etc/systemd/system/multi-user.target.wants/motion-agent.service \
    /var/lib/systemd/deb-systemd-helper-enabled/motion-agent.service /usr/libexec/motion-agent /usr/share/doc/motion-agent; do
    [[ -e "$path" || -L "$path" ]] && left+=("$path")
done
((${#left[@]} == 0)) || die "left after purge: ${left[*]}"
dpkg-query -W motion-agent >/dev/null 2>&1 && die "dpkg still knows motion-agent"
pass
getent passwd motion-agent >/dev/null || die "the system user was removed (Debian policy keeps it)"
echo "package-test: purged; left: the system user motion-agent (Debian policy 9.2.1)"
echo "package-test: $checks checks passed"
