#!/usr/bin/env bash
# verify.sh: proves Deploy/mosquitto/fleet.conf and motionbridge.acl against a real mosquitto.
#
# What it does, touching nothing but a fresh temp directory and 127.0.0.1 (no root needed):
#   1. generates a throw-away test CA, a server certificate (subjectAltName IP:127.0.0.1), client
#      certificates CN=dev-a, dev-b, operator and dev-c (dev-c has NO password entry), a "rogue" CA
#      with a client certificate CN=operator, a device password file (passwd: dev-a, dev-b) and an
#      operator password file (operators.passwd: operator), with random passwords;
#   2. copies fleet.conf with its /etc/mosquitto/motionbridge/ paths, persistence location, pid
#      and log files pointed into the temp directory, and listeners 8883/8884/8885 moved to free
#      ports on 127.0.0.1 (plus `log_type debug`, and `user root` when run as root, so the broker
#      keeps the right to write its files there); mosquitto 2.0.11 has no config-test flag, so
#      starting the broker with that copy IS the configuration test; checks that the broker
#      listens on those three ports and no other, and that the ACL loads without warnings;
#   3. checks, for BOTH device listeners (certificates on 8883, passwords on 8884), what devices
#      may and may not do (including answering only under their own id in an operator's replies),
#      and what the operator's tools, connected to the operator listener 8885, may do, with
#      mosquitto_pub / mosquitto_sub (MQTT 5, QoS 1);
#   4. checks TLS/authentication failures, and that device and operator credentials work only on
#      their own listeners;
#   5. checks client ids: on both device listeners a device using another device's client id
#      (once, or in a loop) does not disconnect it; on 8885 tools of one operator run at once;
#   6. checks that an acknowledged command queued for an offline device and a retained message
#      survive a broker crash (kill -9) and restart.
#
# A denied PUBLISH is not an error for the publisher's connection (mosquitto drops it; MQTT 5
# QoS 1 gets a PUBACK "Not authorized"), and a SUBSCRIBE is always granted by mosquitto 2.0.11's
# ACL file (the READ check happens per message at delivery). So every "cannot" check is proved
# by absence, made conclusive with a marker: after the forbidden action, an authorised client
# publishes a marker on the SAME topic (or to the same subscriber); once the marker has arrived
# (and a short grace period passed), the forbidden message would have arrived before it.
#
# Output: one PASS/FAIL line per check (INFO lines record observed behaviour without judging);
# exit status 0 only if every check passed. KEEP=1 keeps the temp directory for inspection.
# Usage: Deploy/mosquitto/verify.sh            (CONF=... ACL=... to test other files; with a
# fleet.conf that has no listener 8885, the operator's tools use its certificate on 8883 and
# every check of 8885 fails)

set -u
set -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CONF_SRC=${CONF:-$here/fleet.conf}
ACL_SRC=${ACL:-$here/motionbridge.acl}

for tool in mosquitto mosquitto_pub mosquitto_sub mosquitto_passwd openssl stdbuf; do
    command -v "$tool" >/dev/null || { echo "verify.sh: $tool is not installed" >&2; exit 2; }
done
[[ -r $CONF_SRC && -r $ACL_SRC ]] || { echo "verify.sh: cannot read $CONF_SRC or $ACL_SRC" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/motionbridge-verify.XXXXXX") || exit 2
PKI=$WORK/etc            # stands for /etc/mosquitto/motionbridge/
DATA=$WORK/data          # stands for /var/lib/mosquitto/
LOG=$WORK/broker.log
mkdir -p "$PKI" "$DATA" "$WORK/out"

BROKER_PID=""
declare -A SUBPID=()

cleanup() {
    local pid
    for pid in "${SUBPID[@]}"; do kill "$pid" 2>/dev/null; done
    [[ -n $BROKER_PID ]] && kill "$BROKER_PID" 2>/dev/null && wait "$BROKER_PID" 2>/dev/null
    if [[ ${KEEP:-0} == 1 ]]; then echo "temp directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passes=0
failures=0
pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
info() { echo "INFO $*"; }
# check "description" command...: PASS when the command succeeds.
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
die() { echo "FAIL $*"; failures=$((failures + 1)); exit 1; }

# ----------------------------------------------------------------------------------------------
# 1. Test PKI and password file (all generated now, nothing secret is stored in the repository)
# ----------------------------------------------------------------------------------------------
ossl() { openssl "$@" >>"$WORK/openssl.log" 2>&1 || die "openssl $1 failed (see $WORK/openssl.log)"; }

make_ca() { # make_ca NAME "SUBJECT"
    ossl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "$2" \
        -keyout "$PKI/$1.key" -out "$PKI/$1.crt" \
        -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign,cRLSign
}
make_cert() { # make_cert NAME CA "SUBJECT" EXTENSIONS
    printf '%b\n' "$4" >"$PKI/$1.ext"
    ossl req -newkey rsa:2048 -nodes -sha256 -subj "$3" -keyout "$PKI/$1.key" -out "$PKI/$1.csr"
    ossl x509 -req -sha256 -days 2 -in "$PKI/$1.csr" -CA "$PKI/$2.crt" -CAkey "$PKI/$2.key" \
        -CAcreateserial -extfile "$PKI/$1.ext" -out "$PKI/$1.crt"
}

make_ca ca "/CN=MotionBridge test CA"
make_ca rogue-ca "/CN=Rogue CA"
make_cert server ca "/CN=127.0.0.1" \
    "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment"
for cn in dev-a dev-b operator dev-c; do
    make_cert "$cn" ca "/CN=$cn" "extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment"
done
make_cert rogue-operator rogue-ca "/CN=operator" "extendedKeyUsage=clientAuth"

declare -A PASS=()
: >"$PKI/passwd"
: >"$PKI/operators.passwd"
for user in dev-a dev-b operator; do
    PASS[$user]=$(openssl rand -hex 12)
    file=passwd; [[ $user == operator ]] && file=operators.passwd
    mosquitto_passwd -b "$PKI/$file" "$user" "${PASS[$user]}" || die "mosquitto_passwd failed for $user"
done
chmod 600 "$PKI"/*.key "$PKI/passwd" "$PKI/operators.passwd"
cp "$ACL_SRC" "$PKI/motionbridge.acl"

# ----------------------------------------------------------------------------------------------
# 2. Test copy of fleet.conf, broker start
# ----------------------------------------------------------------------------------------------
port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# pick_port VAR: a port that nobody listens on (and not already picked) into VAR.
pick_port() {
    local port
    for _ in $(seq 100); do
        port=$((20000 + RANDOM % 40000))
        if port_is_free "$port" && [[ " ${TAKEN:-} " != *" $port "* ]]; then
            TAKEN="${TAKEN:-} $port"
            printf -v "$1" '%s' "$port"
            return
        fi
    done
    die "no free port found"
}
pick_port PORT_CERT
pick_port PORT_PW
pick_port PORT_OP

CONF=$WORK/fleet.conf
sed -e "s#/etc/mosquitto/motionbridge/#$PKI/#g" \
    -e "s#^persistence_location .*#persistence_location $DATA/#" \
    -e "s#^pid_file .*#pid_file $WORK/mosquitto.pid#" \
    -e "s#^log_dest .*#log_dest file $LOG#" \
    -e "s#^listener 8883\$#listener $PORT_CERT 127.0.0.1#" \
    -e "s#^listener 8884\$#listener $PORT_PW 127.0.0.1#" \
    -e "s#^listener 8885\$#listener $PORT_OP 127.0.0.1#" \
    "$CONF_SRC" >"$CONF"
{
    echo
    echo "# --- added by verify.sh ---"
    echo "log_type debug"
    [[ $(id -u) == 0 ]] && echo "user root"
} >>"$CONF"
# Guard: the rewrite must have caught every path and the listeners (else fleet.conf changed shape).
outside=$(grep -vE '^\s*#' "$CONF" | grep -oE '(^|[[:space:]])/[^[:space:]]*' | sed 's/^[[:space:]]*//' | grep -v "^$WORK/")
[[ -z $outside ]] || die "the config copy still names paths outside $WORK: $outside"
[[ $(grep -cE "^listener ($PORT_CERT|$PORT_PW) 127\.0\.0\.1\$" "$CONF") == 2 ]] || die "listeners 8883/8884 not found in $CONF_SRC"
[[ $(grep -cE '^listener ' "$CONF") == $(grep -cE "^listener ($PORT_CERT|$PORT_PW|$PORT_OP) 127\.0\.0\.1\$" "$CONF") ]] \
    || die "fleet.conf has other listeners than 8883, 8884 and 8885"
PORTS=("$PORT_CERT" "$PORT_PW")
if grep -qE "^listener $PORT_OP 127\.0\.0\.1\$" "$CONF"; then
    OP_LISTENER=1
    PORTS+=("$PORT_OP")
else
    OP_LISTENER=0
    fail "fleet.conf has no operator listener 8885 (the operator's tools use its certificate on 8883 instead)"
fi

start_broker() {
    mosquitto -c "$CONF" >>"$WORK/broker.stdout" 2>&1 &
    BROKER_PID=$!
    local i
    for i in $(seq 100); do
        if ! kill -0 "$BROKER_PID" 2>/dev/null; then
            BROKER_PID=""
            cat "$WORK/broker.stdout" "$LOG" 2>/dev/null | tail -20
            die "mosquitto exited at start with the test copy of fleet.conf"
        fi
        local p open=1
        for p in "${PORTS[@]}"; do port_is_free "$p" && open=0; done
        [[ $open == 1 ]] && return 0
        sleep 0.1
    done
    die "mosquitto did not open ports ${PORTS[*]}"
}
start_broker
check "broker: mosquitto $(mosquitto -h 2>/dev/null | sed -n '1s/mosquitto version //p') starts with fleet.conf (listeners 127.0.0.1:$PORT_CERT device cert, 127.0.0.1:$PORT_PW device password$( [[ $OP_LISTENER == 1 ]] && echo ", 127.0.0.1:$PORT_OP operator password"))" \
    grep -q "running" "$LOG"

# Nothing listens but the configured ports: with per_listener_settings true, a password_file placed
# before the first listener makes mosquitto 2.0.11 open its default listener too (1883, all
# interfaces, IPv4 and IPv6). Evidence: the broker's "Opening ipv4/ipv6 listen socket on port" lines,
# and what `ss` shows listening for the broker's pid (when ss is installed and shows the pid).
want=$(printf '%s\n' "${PORTS[@]}" | sort -n | tr '\n' ' ')
logged=$(grep -oE 'Opening ipv[46] listen socket on port [0-9]+' "$LOG" | awk '{print $NF}' | sort -n | tr '\n' ' ')
want_ss=$(printf '127.0.0.1:%s\n' "${PORTS[@]}" | sort | tr '\n' ' ')
bound=$(ss -Hltnp 2>/dev/null | grep "pid=$BROKER_PID," | awk '{print $4}' | sort | tr '\n' ' ')
ss_says="ss: '$bound'"
[[ -n $bound ]] || { bound=$want_ss; ss_says="ss: not available, the log decides"; }
check "broker: listens on ${PORTS[*]} only (log: listen sockets on ports '$logged'; $ss_says)" \
    test "$logged" = "$want" -a "$bound" = "$want_ss"
warn=$(grep -ho 'Warning: ACL.*' "$LOG" | sort -u | tr '\n' ' ')
check "broker: the ACL loads without warnings (every pattern contains %u${warn:+; got: $warn})" test -z "$warn"

# ----------------------------------------------------------------------------------------------
# Client helpers
# ----------------------------------------------------------------------------------------------
BASE=(-h 127.0.0.1 -V mqttv5 -q 1)
# cred LISTENER USER: the connection arguments of USER, in the array CRED, on listener
#   cert  8883, client certificate        pw   8884, password (passwd)
#   opl   8885, password (operators.passwd)
#   op    the operator's tools: 8885 (opl); the certificate on 8883 if fleet.conf has no 8885.
cred() {
    case $1 in
        cert) CRED=(-p "$PORT_CERT" --cafile "$PKI/ca.crt" --cert "$PKI/$2.crt" --key "$PKI/$2.key") ;;
        pw)   CRED=(-p "$PORT_PW" --cafile "$PKI/ca.crt" -u "$2" -P "${PASS[$2]}") ;;
        opl)  CRED=(-p "$PORT_OP" --cafile "$PKI/ca.crt" -u "$2" -P "${PASS[$2]}") ;;
        op)   if [[ $OP_LISTENER == 1 ]]; then cred opl "$2"; else cred cert "$2"; fi ;;
    esac
}
# pub LISTENER USER TOPIC PAYLOAD [mosquitto_pub args]: publishes (QoS 1); stderr in $WORK/pub.err.
pub() {
    local l=$1 u=$2 t=$3 m=$4; shift 4
    cred "$l" "$u"
    mosquitto_pub "${BASE[@]}" "${CRED[@]}" -t "$t" -m "$m" "$@" 2>"$WORK/pub.err"
}
# sub_start NAME LISTENER USER [mosquitto_sub args]: a background subscriber, ready (SUBACK) on return.
sub_start() {
    local name=$1 l=$2 u=$3; shift 3
    cred "$l" "$u"
    # stdbuf: line-buffered output, so that the SUBACK and each message are seen as they come.
    : >"$WORK/out/$name"
    stdbuf -oL mosquitto_sub "${BASE[@]}" "${CRED[@]}" -d -F 'MSG|%t|%p|%R|' "$@" >"$WORK/out/$name" 2>&1 &
    SUBPID[$name]=$!
    local i
    for i in $(seq 100); do
        grep -q "received SUBACK" "$WORK/out/$name" && return 0
        kill -0 "${SUBPID[$name]}" 2>/dev/null || break
        sleep 0.05
    done
    fail "subscriber $name ($u on $l) did not get its SUBACK: $(tail -3 "$WORK/out/$name" | tr '\n' ' ')"
    return 1
}
sub_stop() { [[ -n ${SUBPID[$1]:-} ]] || return 0; kill "${SUBPID[$1]}" 2>/dev/null; wait "${SUBPID[$1]}" 2>/dev/null; unset "SUBPID[$1]"; }
# connects NAME: how many times subscriber NAME has sent CONNECT (it reconnects when disconnected).
connects() { grep -c "sending CONNECT" "$WORK/out/$1"; }
# log_from LINE: the broker log after its first LINE lines.
log_from() { tail -n +"$(( $1 + 1 ))" "$LOG"; }
# got NAME PAYLOAD: subscriber NAME has received a message with exactly this payload.
got() { grep -qF "|$2|" "$WORK/out/$1"; }
# wait_for NAME PAYLOAD: waits up to 5 s for it.
wait_for() {
    local i
    for i in $(seq 100); do got "$1" "$2" && return 0; sleep 0.05; done
    return 1
}
# received NAME PAYLOAD: waits for it, then stops the subscriber; true if received.
received() { local r=1; wait_for "$1" "$2" && r=0; sub_stop "$1"; return $r; }
# not_received NAME FORBIDDEN MARKER: the marker arrived (so delivery works) and the forbidden did not.
not_received() {
    local r=1
    if wait_for "$1" "$3"; then
        sleep 0.3
        got "$1" "$2" || r=0
    else
        echo "     (marker $3 never arrived at $1: check inconclusive)"
    fi
    sub_stop "$1"
    return $r
}
denied_ack() { grep -q "Not authorized" "$WORK/pub.err"; }
agent_session() { # agent_session [mosquitto_sub args]: dev-a's agent, persistent session
    cred cert dev-a
    mosquitto_sub "${BASE[@]}" "${CRED[@]}" -i motion-agent-dev-a -c -x 3600 -t 'motion/dev-a/+/set' "$@" 2>/dev/null
}

# ----------------------------------------------------------------------------------------------
# 3. Access control: devices on both device listeners, the operator's tools on 8885
# ----------------------------------------------------------------------------------------------
# The operator's subscribers and publishers run at the same time (as `motionctl watch` and
# `motionctl stop` do), so they use the operator listener; on the device listeners one identity
# has one connection at a time (use_username_as_clientid), so each device step uses one
# connection of a device at a time.
if [[ $OP_LISTENER == 1 ]]; then OPN="the operator (8885)"; else OPN="the operator (8883 cert)"; fi
for L in cert pw; do
    if [[ $L == cert ]]; then P="[8883 cert:$PORT_CERT]"; else P="[8884 password:$PORT_PW]"; fi

    # dev-a publishes its own data; the operator (motion/#) sees it.
    sub_start op1-$L op operator -t 'motion/#'
    pub $L dev-a motion/dev-a/gyro "gyro-a-$L"
    check "$P dev-a publishes motion/dev-a/gyro and $OPN (motion/#) receives it" received op1-$L "gyro-a-$L"

    # dev-a may not write another device's data: QoS 1 (MQTT 5) gets PUBACK "Not authorized", QoS 0 is
    # dropped without a word; neither reaches a subscriber. Marker: the operator on the same topic.
    sub_start op2-$L op operator -t 'motion/dev-b/#'
    pub $L dev-a motion/dev-b/gyro "forged-gyro-q1-$L"
    ack=$(denied_ack && echo yes || echo no)
    pub $L dev-a motion/dev-b/gyro "forged-gyro-q0-$L" -q 0
    q0err=$(cat "$WORK/pub.err")
    pub op operator motion/dev-b/gyro "marker-gyro-b-$L"
    if not_received op2-$L "forged-gyro-q1-$L" "marker-gyro-b-$L" && ! got op2-$L "forged-gyro-q0-$L" 2>/dev/null \
        && [[ $ack == yes && -z $q0err ]]; then
        pass "$P dev-a CANNOT publish motion/dev-b/gyro (QoS1: PUBACK 'Not authorized'; QoS0: silently dropped; operator gets neither)"
    else
        fail "$P dev-a CANNOT publish motion/dev-b/gyro (PUBACK denied: $ack, QoS0 stderr: '${q0err}')"
    fi

    # dev-a may not forge dev-b's retained status.
    sub_start op3-$L op operator -t 'motion/dev-b/status'
    pub $L dev-a motion/dev-b/status "forged-status-$L" -r
    pub op operator motion/dev-b/status "marker-status-b-$L"
    check "$P dev-a CANNOT publish (retained) motion/dev-b/status; the operator does not receive it" \
        not_received op3-$L "forged-status-$L" "marker-status-b-$L"

    # dev-a may not command dev-b; the operator may (the marker).
    sub_start devb1-$L $L dev-b -t 'motion/dev-b/+/set'
    pub $L dev-a motion/dev-b/gyro/set "forged-cmd-$L"
    pub op operator motion/dev-b/gyro/set "op-cmd-b-$L"
    check "$P dev-a CANNOT command dev-b (motion/dev-b/gyro/set not delivered to dev-b's motion/dev-b/+/set)" \
        not_received devb1-$L "forged-cmd-$L" "op-cmd-b-$L"
    # (not_received has stopped the subscriber, so check the operator's command from its output)
    check "$P $OPN commands dev-b: motion/dev-b/gyro/set reaches dev-b's motion/dev-b/+/set" got devb1-$L "op-cmd-b-$L"

    # dev-a may not read dev-b's commands, nor anything else beyond its own commands, whatever filter
    # it subscribes to (mosquitto grants every SUBSCRIBE; the READ check drops the messages).
    sub_start deva1-$L $L dev-a -t 'motion/dev-b/+/set' -t 'motion/#' -t '#' -t 'motion/dev-a/+/set'
    suback=$(grep -m1 '^Subscribed' "$WORK/out/deva1-$L")
    pub op operator motion/dev-b/gyro/set "secret-cmd-b-$L"
    pub $L dev-b motion/dev-b/gyro "secret-gyro-b-$L"
    pub $L dev-b motionctl/operator/replies/dev-b/q "secret-reply-$L"
    pub op operator motion/dev-a/gyro/set "marker-cmd-a-$L"
    if wait_for deva1-$L "marker-cmd-a-$L"; then
        sleep 0.3
        if got deva1-$L "secret-cmd-b-$L" || got deva1-$L "secret-gyro-b-$L" || got deva1-$L "secret-reply-$L"; then
            fail "$P dev-a CANNOT read dev-b's commands (got: $(grep '^MSG' "$WORK/out/deva1-$L" | tr '\n' ' '))"
        else
            pass "$P dev-a CANNOT read dev-b's commands, data or answers in the operator's replies (filters motion/dev-b/+/set, motion/#, #; SUBACK '$suback')"
        fi
    else
        fail "$P dev-a CANNOT read dev-b's commands (inconclusive: its own marker command did not arrive)"
    fi
    sub_stop deva1-$L

    # dev-a receives its own commands, through the agent's filter and through motion/dev-a/config/set
    # (one after the other: two dev-a connections would close each other).
    sub_start deva2-$L $L dev-a -t 'motion/dev-a/+/set'
    pub op operator motion/dev-a/gyro/set "cmd-gyro-a-$L"
    pub op operator motion/dev-a/config/set "cmd-config-a-$L"
    if wait_for deva2-$L "cmd-gyro-a-$L" && wait_for deva2-$L "cmd-config-a-$L"; then
        pass "$P dev-a receives its own commands on motion/dev-a/+/set (gyro/set and config/set)"
    else
        fail "$P dev-a receives its own commands on motion/dev-a/+/set"
    fi
    sub_stop deva2-$L
    sub_start deva3-$L $L dev-a -t 'motion/dev-a/config/set'
    pub op operator motion/dev-a/config/set "cmd-config-a2-$L"
    check "$P dev-a's subscription to the filter motion/dev-a/config/set works with the single +/set line" \
        received deva3-$L "cmd-config-a2-$L"

    # Command with an MQTT 5 response topic, answer on it: operator -> dev-a -> operator. The fleet
    # tool names motionctl/ACCOUNT/replies/DEVICE-ID/ROUND-TOKEN.
    reply_topic="motionctl/operator/replies/dev-a/$L-$$"
    sub_start op4-$L op operator -t 'motionctl/operator/replies/#'
    sub_start deva4-$L $L dev-a -t 'motion/dev-a/+/set'
    pub op operator motion/dev-a/gyro/set "cmd-with-reply-$L" -D publish response-topic "$reply_topic"
    if wait_for deva4-$L "cmd-with-reply-$L" && grep -qF "|cmd-with-reply-$L|$reply_topic|" "$WORK/out/deva4-$L"; then
        sub_stop deva4-$L
        pub $L dev-a "$reply_topic" "answer-a-$L"
        check "$P dev-a publishes its answer to the response topic $reply_topic and $OPN receives it" \
            received op4-$L "answer-a-$L"
    else
        fail "$P dev-a did not receive the command with response topic $reply_topic"
        sub_stop op4-$L
    fi
    sub_stop deva4-$L

    # dev-a may not forge another device's answer (.../replies/dev-b/x) nor write outside a device
    # level (.../replies/x, where the tool puts its own sync message). Markers: dev-b's answer under
    # its own id, the operator's message on .../replies/x.
    sub_start op6-$L op operator -t 'motionctl/operator/replies/#'
    pub $L dev-a motionctl/operator/replies/dev-b/x "forged-answer-b-$L"
    ack_b=$(denied_ack && echo yes || echo no)
    pub $L dev-a motionctl/operator/replies/x "forged-sync-$L"
    ack_x=$(denied_ack && echo yes || echo no)
    pub $L dev-b motionctl/operator/replies/dev-b/x "answer-b-$L"
    pub op operator motionctl/operator/replies/x "sync-$L"
    what="$P dev-a CANNOT forge answers on motionctl/operator/replies/dev-b/x and motionctl/operator/replies/x"
    if wait_for op6-$L "answer-b-$L" && wait_for op6-$L "sync-$L"; then
        sleep 0.3
        if got op6-$L "forged-answer-b-$L" || got op6-$L "forged-sync-$L"; then
            fail "$what (the operator got: $(grep '^MSG' "$WORK/out/op6-$L" | cut -d'|' -f2,3 | tr '\n' ' '))"
        else
            pass "$what (PUBACK 'Not authorized': $ack_b, $ack_x; dev-b's answer on .../dev-b/x and the operator's on .../x arrive)"
        fi
    else
        fail "$what (inconclusive: markers got: $(grep '^MSG' "$WORK/out/op6-$L" | cut -d'|' -f2,3 | tr '\n' ' '))"
    fi
    sub_stop op6-$L

    # Last will: dev-a's own will (retained motion/dev-a/status) is published; a will planted on
    # dev-b's status is dropped (the will is checked against write access when it is sent).
    sub_start op5-$L op operator -t 'motion/+/status'
    for w in will-hijack will-own; do
        if [[ $w == will-hijack ]]; then wt=motion/dev-b/status wp="forged-will-$L"; else wt=motion/dev-a/status wp="offline-$L"; fi
        sub_start $w-$L $L dev-a -t 'motion/dev-a/+/set' --will-topic $wt --will-payload "$wp" --will-retain --will-qos 1
        disown "${SUBPID[$w-$L]}"          # (no "Killed" notice from bash)
        kill -9 "${SUBPID[$w-$L]}"         # no DISCONNECT: the will is due
        sub_stop $w-$L
    done
    if wait_for op5-$L "offline-$L"; then
        pub op operator motion/dev-b/status "marker-will-b-$L"
        check "$P dev-a's last will on motion/dev-b/status is dropped (its own will on motion/dev-a/status is delivered)" \
            not_received op5-$L "forged-will-$L" "marker-will-b-$L"
    else
        fail "$P dev-a's own last will (motion/dev-a/status) was not delivered"
        sub_stop op5-$L
    fi
done

# No forged retained message is stored anywhere under dev-b (retained denied publishes and wills).
retained_b=$(cred op operator; mosquitto_sub "${BASE[@]}" "${CRED[@]}" -t 'motion/dev-b/#' --retained-only -W 1 -F '%t=%p' 2>/dev/null)
check "no forged retained message stored under motion/dev-b/ (found: '${retained_b}')" test -z "$retained_b"

# The operator's tool publishes to its own replies tree (its sync message, one level, no device
# level) and reads it back.
sub_start op7 op operator -t 'motionctl/operator/replies/#'
pub op operator "motionctl/operator/replies/sync-$$" "sync-token-$$"
check "$OPN publishes motionctl/operator/replies/sync-$$ and reads it" received op7 "sync-token-$$"
# ('#' matches its parent level too: dev-a may write the one-level topic .../replies/dev-a.)
sub_start op8 op operator -t 'motionctl/operator/replies/#'
pub cert dev-a motionctl/operator/replies/dev-a "one-level-dev-a"
if wait_for op8 "one-level-dev-a"; then
    info "dev-a may publish the one-level motionctl/operator/replies/dev-a (the pattern's '#' matches its parent): a tool's one-level round token must never equal a device id"
else
    info "dev-a may not publish the one-level motionctl/operator/replies/dev-a"
fi
sub_stop op8

# ----------------------------------------------------------------------------------------------
# 4. Authentication and TLS
# ----------------------------------------------------------------------------------------------
# try_fail "description" EXPECTED_OUTPUT_REGEX mosquitto_pub-args...: the connection must fail with that
# error; the line shows what the client printed.
try_fail() {
    local what=$1 want=$2; shift 2
    local out rc
    out=$(mosquitto_pub -h 127.0.0.1 -V mqttv5 -q 1 -d -t motion/dev-a/gyro -m x "$@" 2>&1); rc=$?
    local msg
    msg=$(printf '%s\n' "$out" | grep -E '^(Error|Connection error|OpenSSL)' | tr '\n' ' ' | sed 's/ $//')
    if [[ $rc != 0 ]] && grep -qE "$want" <<<"$out"; then pass "$what (rc $rc: $msg)"; else fail "$what (rc $rc: $msg)"; fi
}
log_since() { tail -n +"$(( $1 + 1 ))" "$LOG" | grep -E 'OpenSSL Error|failed:|not authorised|disconnected' | grep -v 'disconnected\.$' | sed 's/^[^ ]* //' | tr '\n' ' '; }

n=$(wc -l <"$LOG")
try_fail "[8883] a client trusting the wrong CA fails (server certificate not verified)" "certificate verify failed" \
    -p "$PORT_CERT" --cafile "$PKI/rogue-ca.crt" --cert "$PKI/dev-a.crt" --key "$PKI/dev-a.key"
sleep 0.2; info "[8883] broker log: $(log_since "$n")"

n=$(wc -l <"$LOG")
try_fail "[8884] a client trusting the wrong CA fails" "certificate verify failed" \
    -p "$PORT_PW" --cafile "$PKI/rogue-ca.crt" -u dev-a -P "${PASS[dev-a]}"
sleep 0.2; info "[8884] broker log: $(log_since "$n")"

n=$(wc -l <"$LOG")
try_fail "[8883] a client without a certificate fails" "certificate required|connection was lost|TLS error|Protocol error" \
    -p "$PORT_CERT" --cafile "$PKI/ca.crt"
sleep 0.2; info "[8883] broker log: $(log_since "$n")"

n=$(wc -l <"$LOG")
try_fail "[8883] a client without a certificate fails even with a valid user name and password" "certificate required|connection was lost|TLS error|Protocol error" \
    -p "$PORT_CERT" --cafile "$PKI/ca.crt" -u dev-a -P "${PASS[dev-a]}"
sleep 0.2

n=$(wc -l <"$LOG")
try_fail "[8883] a certificate CN=operator from another CA is refused" "unknown ca|connection was lost|TLS error|Protocol error" \
    -p "$PORT_CERT" --cafile "$PKI/ca.crt" --cert "$PKI/rogue-operator.crt" --key "$PKI/rogue-operator.key"
sleep 0.2; info "[8883] broker log: $(log_since "$n")"

n=$(wc -l <"$LOG")
try_fail "[8884] a wrong password is refused" "Not authorized" -p "$PORT_PW" --cafile "$PKI/ca.crt" -u dev-a -P wrong-password
sleep 0.2; info "[8884] broker log: $(log_since "$n")"
try_fail "[8884] a client without user name (anonymous) is refused" "Not authorized" -p "$PORT_PW" --cafile "$PKI/ca.crt"
try_fail "[8884] plain (non-TLS) MQTT is refused" "connection was lost|protocol error|TLS" -p "$PORT_PW" -u dev-a -P "${PASS[dev-a]}"

# Device and operator credentials work only on their own listeners (passwd: devices on 8884;
# operators.passwd: operators on 8885, which requests no client certificate).
try_fail "[8884] the operator's password is refused on the device listener (operators are not in passwd)" "Not authorized" \
    -p "$PORT_PW" --cafile "$PKI/ca.crt" -u operator -P "${PASS[operator]}"
n=$(wc -l <"$LOG")
try_fail "[8885] dev-a's password (a device) is refused on the operator listener" "Not authorized" \
    -p "$PORT_OP" --cafile "$PKI/ca.crt" -u dev-a -P "${PASS[dev-a]}"
sleep 0.2; info "[8885] broker log: $(log_since "$n")"
try_fail "[8885] dev-a's client certificate is refused on the operator listener (alone, it is an anonymous client)" "Not authorized" \
    -p "$PORT_OP" --cafile "$PKI/ca.crt" --cert "$PKI/dev-a.crt" --key "$PKI/dev-a.key"

# The certificate decides the user name on 8883: a user name sent with dev-a's certificate is ignored.
sub_start op9 op operator -t 'motion/dev-b/gyro'
pub cert dev-a motion/dev-b/gyro "forged-as-operator" -u operator -P "${PASS[operator]}"
pub op operator motion/dev-b/gyro "marker-identity"
check "[8883] dev-a's certificate with '-u operator -P <operator's password>' is still user dev-a (publish to motion/dev-b/gyro denied)" \
    not_received op9 "forged-as-operator" "marker-identity"

# A certificate user needs no passwd entry (the certificate listener has no password file).
sub_start op10 op operator -t 'motion/dev-c/gyro'
pub cert dev-c motion/dev-c/gyro "gyro-c"
check "[8883] dev-c (certificate, no passwd entry) connects and publishes motion/dev-c/gyro" received op10 "gyro-c"

# ----------------------------------------------------------------------------------------------
# 5. Client ids
# ----------------------------------------------------------------------------------------------
# On the device listeners the client id must not let one device disconnect another (issue 29, F15):
# dev-a's agent (client id motion-agent-dev-a, with a last will) is connected; dev-b connects with
# that client id and with "dev-a" (the id the broker gives dev-a under use_username_as_clientid).
# dev-a must stay connected (one CONNECT, and it receives a command sent afterwards), its will must
# not be published (marker: the operator on the same topic), and the broker must log no takeover.

# intrude LISTENER: dev-b connects once with each client id dev-a may have.
intrude() {
    local id
    cred "$1" dev-b
    for id in motion-agent-dev-a dev-a; do
        mosquitto_pub "${BASE[@]}" "${CRED[@]}" -i "$id" -t motion/dev-b/gyro -m intruder 2>/dev/null
    done
}
# victim_ok NAME WATCH N TAG WILL: subscriber NAME (dev-a) got the operator's command TAG, connected
# once, its will (payload WILL) did not reach WATCH, and the log after line N shows no takeover. Sets WHY.
victim_ok() {
    local name=$1 watch=$2 n=$3 tag=$4 will=$5 ok=0 c k
    pub op operator motion/dev-a/gyro/set "cmd-$tag"
    pub op operator motion/dev-a/status "marker-status-$tag"
    wait_for "$name" "cmd-$tag" || ok=1
    wait_for "$watch" "marker-status-$tag" || ok=1
    sleep 0.3
    c=$(connects "$name")
    k=$(log_from "$n" | grep -c 'already connected, closing old connection')
    WHY="dev-a connected $c time(s), command $(got "$name" "cmd-$tag" && echo received || echo LOST),"
    WHY+=" will $(got "$watch" "$will" && echo PUBLISHED || echo 'not published'), $k takeover(s) in the log"
    [[ $ok == 0 && $c == 1 && $k == 0 ]] && ! got "$watch" "$will"
}
for L in cert pw; do
    if [[ $L == cert ]]; then P="[8883 cert:$PORT_CERT]"; else P="[8884 password:$PORT_PW]"; fi
    sub_start watch-$L op operator -t 'motion/dev-a/status'
    sub_start victim-$L $L dev-a -i motion-agent-dev-a -t 'motion/dev-a/+/set' \
        --will-topic motion/dev-a/status --will-payload "offline-victim-$L" --will-qos 1
    n=$(wc -l <"$LOG")
    intrude $L
    as=$(log_from "$n" | grep -oE "New client connected from [0-9.:]+ as [^ ]+ \([^)]*u'dev-b'\)" | sed -E "s/.* as ([^ ]+) .*/\1/" | tr '\n' ' ')
    if victim_ok victim-$L watch-$L "$n" "once-$L" "offline-victim-$L" && [[ $as == "dev-b dev-b " ]]; then
        pass "$P dev-b connecting with client id motion-agent-dev-a, then dev-a, does not disconnect dev-a (broker logs the intruder as: $as; $WHY)"
    else
        fail "$P dev-b connecting with dev-a's client id disconnects dev-a (broker logs the intruder as: $as; $WHY)"
    fi

    n=$(wc -l <"$LOG")
    for _ in 1 2 3 4 5 6; do intrude $L; sleep 0.2; done
    if victim_ok victim-$L watch-$L "$n" "loop-$L" "offline-victim-$L"; then
        pass "$P dev-b looping (12 connections with dev-a's client ids in 2 s) does not make dev-a flap ($WHY)"
    else
        fail "$P dev-b looping with dev-a's client ids makes dev-a flap ($WHY)"
    fi

    # The price of use_username_as_clientid: one connection per identity. An app on the board that
    # uses the device's own credentials (client id app-on-dev-a) closes the agent's connection.
    if [[ $L == cert ]]; then
        n=$(wc -l <"$LOG")
        wills=$(grep -c "|offline-victim-$L|" "$WORK/out/watch-$L")
        pub cert dev-a motion/dev-a/app "app" -i app-on-dev-a
        pub op operator motion/dev-a/status "marker-price-$L"
        wait_for watch-$L "marker-price-$L"
        if log_from "$n" | grep -q 'Client dev-a already connected'; then
            info "$P the price: a second connection with dev-a's own certificate (client id app-on-dev-a) closed the agent's ('Client dev-a already connected, closing old connection.'; the agent's will was $( (( $(grep -c "|offline-victim-$L|" "$WORK/out/watch-$L") > wills )) && echo published || echo 'not published'))"
        else
            info "$P a second connection with dev-a's own certificate (client id app-on-dev-a) did not close the agent's"
        fi
    fi
    sub_stop watch-$L
    sub_stop victim-$L
done

# Nor does the intruder reach dev-a's stored session: a command queued for offline dev-a (persistent
# session) is still delivered after dev-b connected with dev-a's client ids on both device listeners.
agent_session -E >/dev/null
pub op operator motion/dev-a/gyro/set "queued-before-intruder"
intrude cert; intrude pw
kept=$(agent_session -C 1 -W 3)
check "[8883/8884] dev-b connecting with dev-a's client ids (clean start) keeps dev-a's stored session: its queued command is delivered (got '$kept')" \
    test "$kept" = "queued-before-intruder"

# The same price for an operator with a certificate on 8883: one tool at a time.
sub_start opcert cert operator -t 'motion/dev-a/status'
n=$(wc -l <"$LOG")
pub cert operator motion/dev-a/gyro/set "second-tool"
sleep 0.3
if log_from "$n" | grep -q 'Client operator already connected'; then
    info "[8883] the operator's certificate: a second tool closed the first ('Client operator already connected, closing old connection.'); concurrent tools use 8885"
else
    info "[8883] the operator's certificate: two tools coexist"
fi
sub_stop opcert

# On the operator listener client ids are free: tools of one account run at once (`motionctl watch`
# and `motionctl stop`, client ids motionctl-COMMAND-PID), and a third publishes meanwhile.
sub_start tool1 opl operator -i "motionctl-watch-$$" -t 'motion/#'
sub_start tool2 opl operator -i "motionctl-stop-$$" -t 'motion/dev-a/#'
n=$(wc -l <"$LOG")
pub opl operator motion/dev-a/gyro/set "concurrent-cmd" -i "motionctl-set-$$"
if wait_for tool1 "concurrent-cmd" && wait_for tool2 "concurrent-cmd"; then r=0; else r=1; fi
sleep 0.2
c1=$(connects tool1); c2=$(connects tool2); k=$(log_from "$n" | grep -c 'already connected')
check "[8885 operator:$PORT_OP] two concurrent tools of the operator account coexist, a third publishes (both receive it; CONNECTs $c1, $c2; $k takeover(s) in the log)" \
    test "$r" = 0 -a "$c1" = 1 -a "$c2" = 1 -a "$k" = 0
sub_stop tool1
sub_stop tool2

# ----------------------------------------------------------------------------------------------
# 6. Persistence: acknowledged messages survive a broker crash
# ----------------------------------------------------------------------------------------------
# dev-a's agent has a persistent session (MQTT 5 session expiry; stored under the client id dev-a)
# and is offline; the operator's QoS 1 command is acknowledged (PUBACK) and queued; dev-a publishes a
# retained info. Then the broker is killed with SIGKILL (no shutdown save) and restarted.
#
# mosquitto snapshots its database in its main loop right AFTER sending the PUBACK (autosave after
# every change), so the check waits for that snapshot to be complete: the broker is single-threaded,
# so once it logs anything after "Saving in-memory database" the file is written, fsync'ed and
# renamed. A second, informational run kills the broker immediately after the PUBACK.

# snapshot_done CLIENT_ID: a snapshot that began after the broker's last PUBACK to CLIENT_ID is complete.
snapshot_done() {
    local ln sv
    ln=$(grep -n "Sending PUBACK to $1 " "$LOG" | tail -1 | cut -d: -f1)
    [[ -n $ln ]] || return 1
    sv=$(tail -n +"$ln" "$LOG" | grep -n "Saving in-memory database" | head -1 | cut -d: -f1)
    [[ -n $sv ]] || return 1
    (( $(wc -l <"$LOG") > ln + sv - 1 ))
}
wait_snapshot() {
    local i
    for i in $(seq 100); do
        snapshot_done "$1" && return 0
        (exec 3<>"/dev/tcp/127.0.0.1/$PORT_PW") 2>/dev/null   # makes the broker log a line
        sleep 0.05
    done
    return 1
}
crash_and_restart() {
    kill -9 "$BROKER_PID"; wait "$BROKER_PID" 2>/dev/null; BROKER_PID=""
    start_broker
}

# (The retained info first: dev-a's publisher connects with a clean start, and on the device listeners
# its client id is dev-a too, so it would discard the agent's stored session.)
pub cert dev-a motion/dev-a/info "info-before-crash" -r
agent_session -E >/dev/null || fail "persistence: dev-a could not create its persistent session"
pub op operator motion/dev-a/gyro/set "queued-cmd-before-crash" -i verify-operator-1
acked=$?
[[ -s $WORK/pub.err ]] && acked="$acked ($(cat "$WORK/pub.err"))"
wait_snapshot verify-operator-1 || fail "persistence: no snapshot after the PUBACK in the broker log"
saves=$(grep -c 'Saving in-memory database' "$LOG")
crash_and_restart
check "persistence: broker restarted after kill -9 (autosave had written $saves snapshots so far, one per change)" kill -0 "$BROKER_PID"
queued=$(agent_session -C 1 -W 5)
check "persistence: the acknowledged (PUBACK rc $acked) QoS 1 command queued for offline dev-a survives kill -9 (got '$queued')" \
    test "$acked" = 0 -a "$queued" = "queued-cmd-before-crash"
cred op operator
info_after=$(mosquitto_sub "${BASE[@]}" "${CRED[@]}" -t 'motion/dev-a/info' --retained-only -C 1 -W 5 2>/dev/null)
check "persistence: the retained motion/dev-a/info survives kill -9 (got '$info_after')" test "$info_after" = "info-before-crash"

# Informational: kill -9 within a millisecond of the PUBACK, before the snapshot is on disk.
agent_session -E >/dev/null
pub op operator motion/dev-a/gyro/set "cmd-killed-at-puback" -i verify-operator-2
crash_and_restart
early=$(agent_session -C 1 -W 3)
if [[ $early == cmd-killed-at-puback ]]; then
    info "persistence window: kill -9 right after the PUBACK kept the command (the snapshot was already on disk)"
else
    info "persistence window: kill -9 right after the PUBACK LOST the acknowledged command (the snapshot written after the PUBACK was not yet on disk)"
fi

echo
echo "$passes passed, $failures failed"
[[ $failures == 0 ]]
