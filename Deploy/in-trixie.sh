#!/usr/bin/env bash
# Deploy/in-trixie.sh: runs a command in the Debian 13 (trixie) chroot that Deploy/cross-sdk.sh makes, with
# the checkout at its own path inside it (the working directory), in a mount namespace of its own: /proc,
# /sys, /dev and the checkout are bind-mounted for the command only, and vanish with it, so nothing stays
# mounted in the cache folder. The network is the host's (loopback brokers work as on the host).
#
# usage: Deploy/in-trixie.sh [--no-checkout] COMMAND [ARGUMENT ...]
#   e.g. Deploy/in-trixie.sh swift --version; Deploy/in-trixie.sh env VAR=value swift build
#   --no-checkout   run in / without mounting the checkout (for setting the chroot up)
# The chroot is $MOTIONBRIDGE_CROSS_CACHE/trixie (default /var/cache/motionbridge/cross/trixie). Needs root.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
root=${MOTIONBRIDGE_CROSS_CACHE:-/var/cache/motionbridge/cross}/trixie
checkout=1
if [ "${1:-}" = "--no-checkout" ]; then checkout=0; shift; fi
(($#)) || { echo "in-trixie.sh: no command (see --help)" >&2; exit 64; }
[ -x "$root/bin/sh" ] || { echo "in-trixie.sh: no chroot at $root: run Deploy/cross-sdk.sh first" >&2; exit 69; }
project=$(cd "$(dirname "$0")/.." && pwd)
exec unshare --mount --propagation private /bin/bash -c '
    set -e
    root=$1 project=$2 checkout=$3
    shift 3
    for d in proc sys dev dev/pts; do mount --bind "/$d" "$root/$d"; done
    directory=/
    if [ "$checkout" = 1 ]; then
        mkdir -p "$root$project"
        mount --bind "$project" "$root$project"
        directory=$project
    fi
    exec chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$directory" "$@"
' in-trixie "$root" "$project" "$checkout" "$@"
