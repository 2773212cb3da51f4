#!/usr/bin/env bash
# A RabbitMQ cluster on this machine, for the capacity benchmark (run.sh --rabbitmq) and the cluster tests
# (Tests/MotionTestSupport/RabbitMQCluster.swift runs this script): N nodes of Debian's rabbitmq-server
# (3.10, MQTT plugin, MQTT 3.1.1) under DIR, each with its own node name, ports (MQTT, AMQP, Erlang
# distribution) and data directory, everything on 127.0.0.1 (epmd too), clustered with the first node. The
# server scripts of /usr/lib/rabbitmq/bin run as the caller (Debian's /usr/sbin wrappers would switch to
# the system's rabbitmq user).
#
#   rabbitmq-cluster.sh start DIR [NODES]        (default 2; about 20 s) then DIR/nodes has one line a node:
#                                                INDEX NODE_NAME MQTT_PORT BEAM_PID
#   rabbitmq-cluster.sh stop-node DIR INDEX      stops one node (rabbitmqctl stop: its clients are dropped)
#   rabbitmq-cluster.sh start-node DIR INDEX     starts it again (it rejoins the cluster by itself)
#   rabbitmq-cluster.sh stop DIR                 stops every node
# A node's log: DIR/nodeINDEX/log/NODE_NAME.log.
set -euo pipefail
bin=/usr/lib/rabbitmq/bin
command=${1:-}; dir=${2:-}
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
[[ -n $dir ]] || usage
case $command in
    start|stop) ;;
    stop-node|start-node) [[ ${3:-} =~ ^[1-9][0-9]*$ && -d $dir/node${3:-} ]] || usage ;;
    *) usage ;;
esac
[[ -x $bin/rabbitmq-server ]] || { echo "rabbitmq-cluster: rabbitmq-server is not installed" >&2; exit 69; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
    local port
    while :; do port=$((20000 + RANDOM % 12000)); port_in_use "$port" || { echo "$port"; return; }; done
}
# node_env INDEX: the variables of node INDEX (its ports from DIR/nodeINDEX/ports).
node_env() {
    local node=$dir/node$1 amqp mqtt dist
    read -r amqp mqtt dist < "$node/ports"
    echo HOME="$dir" RABBITMQ_CONF_ENV_FILE="$dir/rabbitmq-env.conf" RABBITMQ_NODENAME="$(cat "$node/name")" \
        RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$amqp" RABBITMQ_DIST_PORT="$dist" \
        RABBITMQ_MNESIA_BASE="$node/mnesia" RABBITMQ_LOG_BASE="$node/log" RABBITMQ_CONFIG_FILE="$node/rabbitmq.conf" \
        RABBITMQ_ENABLED_PLUGINS_FILE="$dir/enabled_plugins" RABBITMQ_PLUGINS_EXPAND_DIR="$node/plugins-expand" \
        RABBITMQ_PID_FILE="$node/pid" ERL_EPMD_ADDRESS=127.0.0.1
}
ctl() { local index=$1; shift; env $(node_env "$index") RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" "$bin/rabbitmqctl" -n "$(cat "$dir/node$index/name")" "$@"; }
# assign_ports INDEX: three free ports for node INDEX (AMQP, MQTT, distribution), none given to a node of DIR
# before (a node launched a moment ago has not bound its ports yet, so the probe alone would not see them),
# written to DIR/nodeINDEX/ports and its rabbitmq.conf.
assign_ports() {
    local node=$dir/node$1 taken port ports=()
    taken=" $(cat "$dir"/node*/ports 2>/dev/null | tr '\n' ' ' || true) "
    while (( ${#ports[@]} < 3 )); do
        port=$(free_port)
        [[ $taken == *" $port "* ]] && continue
        taken+="$port "; ports+=("$port")
    done
    echo "${ports[*]}" > "$node/ports"
    cat > "$node/rabbitmq.conf" <<CONF
listeners.tcp.default = 127.0.0.1:${ports[0]}
mqtt.listeners.tcp.default = 127.0.0.1:${ports[1]}
mqtt.allow_anonymous = true
mqtt.tcp_listen_options.nodelay = true
log.console = false
log.file.level = info
CONF
}
# launch INDEX: starts node INDEX in the background; DIR/nodeINDEX/launcher is the pid of Debian's
# rabbitmq-server script, which lives exactly as long as the node's Erlang VM.
launch() {
    env $(node_env "$1") RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
        "$bin/rabbitmq-server" >> "$dir/node$1/server.out" 2>&1 &
    echo $! > "$dir/node$1/launcher"
}
running() { local state; state=$(ps -o stat= -p "$(cat "$dir/node$1/launcher")" 2>/dev/null) && [[ $state != Z* ]]; }
# await INDEX [REASSIGN]: until the node runs (await_startup fails at once while it is not registered with
# epmd). A node that dies while booting is reported at once; with REASSIGN, one that died because another
# program took one of its ports between the probe and its bind (eaddrinuse) gets new ports and is launched
# again, up to three times. Restarts (start-node) keep their ports: the cluster's clients know them.
await() {
    local index=$1 reassign=${2:-} attempts=1 _
    for _ in $(seq 180); do
        ctl "$index" await_startup --timeout 60 >/dev/null 2>&1 && return 0
        if ! running "$index"; then
            if [[ -n $reassign ]] && (( attempts < 3 )) && grep -q eaddrinuse "$dir/node$index/server.out"; then
                mv "$dir/node$index/server.out" "$dir/node$index/server.out.$attempts"
                attempts=$((attempts + 1))
                assign_ports "$index"
                launch "$index"
                continue
            fi
            break
        fi
        sleep 0.5
    done
    echo "rabbitmq-cluster: node $index did not start: $(tail -n 5 "$dir/node$index/server.out")" >&2
    exit 1
}

case $command in
    stop-node) ctl "$3" stop >/dev/null; exit 0 ;;
    start-node) launch "$3"; await "$3"; exit 0 ;;
esac

if [[ $command == stop ]]; then
    for node in "$dir"/node*; do
        [[ -d $node ]] || continue
        ctl "${node##*node}" stop >/dev/null 2>&1 || true
    done
    epmd -kill >/dev/null 2>&1 || true
    exit 0
fi

count=${3:-2}
mkdir -p "$dir"
tag=$RANDOM
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/.erlang.cookie"
chmod 400 "$dir/.erlang.cookie"
echo "[rabbitmq_mqtt]." > "$dir/enabled_plugins"
: > "$dir/rabbitmq-env.conf"
: > "$dir/nodes"
for index in $(seq "$count"); do
    node=$dir/node$index
    mkdir -p "$node"
    echo "mbc$tag-$index@localhost" > "$node/name"
    assign_ports "$index"
    launch "$index"
done
for index in $(seq "$count"); do await "$index" reassign; done
for index in $(seq 2 "$count"); do
    for step in stop_app "join_cluster $(cat "$dir/node1/name")" start_app; do
        # shellcheck disable=SC2086  # the step is a command and its argument
        ctl "$index" $step > "$dir/node$index/join.out" 2>&1 ||
            { echo "rabbitmq-cluster: node $index: $step: $(cat "$dir/node$index/join.out")" >&2; exit 1; }
    done
done
for index in $(seq "$count"); do
    read -r _ mqtt _ < "$dir/node$index/ports"
    echo "$index $(cat "$dir/node$index/name") $mqtt $(cat "$dir/node$index/pid")" >> "$dir/nodes"
done
cat "$dir/nodes"
