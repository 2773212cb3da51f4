#!/usr/bin/python3
"""A Sparkplug B 3.0 host application for the tests, built on pysparkplug (PyPI, Apache-2.0) and paho-mqtt:
an implementation independent of MotionBridge's that decodes what the edge node publishes and drives it.

    sparkplug_host.py PORT HOST_ID ACTION...

Connects to 127.0.0.1:PORT (MQTT 3.1.1, clean session) with STATE {"online":false} as its will, subscribes
to spBv1.0/#, prints {"mark": "subscribed"}, then runs the actions in order, printing every message it receives as one JSON line on stdout
(decoded by pysparkplug, aliases resolved from the births; metric units read from the raw protobuf, since
pysparkplug does not expose properties). Actions:

    online | offline                      publish this host's retained STATE (QoS 1), a newer timestamp each time
    wait:TYPE[:DEVICE][:COUNT]            wait (20 s at most) until COUNT (1) more TYPE messages arrived than
                                          there were when the last action that is not a wait began
    sleep:SECONDS
    waitfile:PATH                         wait (60 s at most) until PATH exists (the test's signal)
    rebirth:GROUP/NODE                    NCMD Node Control/Rebirth = true
    dcmd:GROUP/NODE/DEVICE:NAME:TYPE:VALUE  DCMD writing NAME (TYPE boolean, double or string), by name
    mark:TEXT                             print {"mark": TEXT}

Exits 0 when every action ran, 1 when a wait timed out (after printing {"error": ...}), 2 when it cannot
connect.
"""

import json
import math
import os
import sys
import threading
import time

import paho.mqtt.client as mqtt
import pysparkplug as sp
from pysparkplug import _protobuf as raw_protobuf

lock = threading.Condition()
counts = {}
births = {}


def emit(line):
    with lock:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    return value


def units(raw):
    """Each metric's engUnit property, in order (None where there is none)."""
    found = []
    for metric in raw_protobuf.Payload.FromString(raw).metrics:
        unit = None
        if metric.HasField("properties"):
            for key, value in zip(metric.properties.keys, metric.properties.values):
                if key == "engUnit" and value.WhichOneof("value") == "string_value":
                    unit = value.string_value
        found.append(unit)
    return found


def received(message):
    line = {"topic": message.topic}
    try:
        topic = sp.Topic.from_str(message.topic)
        kind = str(topic.message_type)
        line.update({"type": kind, "group": topic.group_id, "node": topic.edge_node_id, "device": topic.device_id})
        if kind == "STATE":
            state = sp.State.decode(message.payload)
            line.update({"online": state.online, "timestamp": state.timestamp, "retained": bool(message.retain)})
        else:
            key = (topic.group_id, topic.edge_node_id, topic.device_id)
            payload = topic.message_type.payload.decode(message.payload, birth=births.get(key))
            if isinstance(payload, (sp.NBirth, sp.DBirth)):
                births[key] = payload
            line["timestamp"] = getattr(payload, "timestamp", None)
            line["seq"] = getattr(payload, "seq", None)
            if isinstance(payload, sp.NDeath):
                metrics = [payload.bd_seq_metric]
            else:
                metrics = list(getattr(payload, "metrics", ()))
            found = units(message.payload)
            line["metrics"] = [
                {"name": m.name, "alias": m.alias, "datatype": m.datatype.name, "value": plain(m.value),
                 "timestamp": m.timestamp, "historical": bool(m.is_historical), "null": bool(m.is_null),
                 "unit": found[i] if i < len(found) else None}
                for i, m in enumerate(metrics)]
    except Exception as error:  # a payload pysparkplug cannot read is a finding, reported, not a crash
        line["error"] = f"{type(error).__name__}: {error}"
    emit(line)
    with lock:
        for key in [(line.get("type"), None), (line.get("type"), line.get("device"))]:
            counts[key] = counts.get(key, 0) + 1
        lock.notify_all()


def main():
    port, host_id, actions = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    state_topic = f"spBv1.0/STATE/{host_id}"
    stamp = [sp.get_current_timestamp()]
    client = mqtt.Client(client_id=f"host-{host_id}-{os.getpid()}", clean_session=True, protocol=mqtt.MQTTv311)
    client.will_set(state_topic, json.dumps({"online": False, "timestamp": stamp[0]}), qos=1, retain=True)
    subscribed = threading.Event()
    client.on_connect = lambda c, _u, _f, rc: c.subscribe("spBv1.0/#", qos=1) if rc == 0 else None
    client.on_subscribe = lambda *_: subscribed.set()
    client.on_message = lambda _c, _u, message: received(message)
    try:
        client.connect("127.0.0.1", port, keepalive=30)
    except OSError as error:
        print(f"sparkplug_host: cannot connect to 127.0.0.1:{port}: {error}", file=sys.stderr)
        return 2
    client.loop_start()
    if not subscribed.wait(10):
        return 2
    emit({"mark": "subscribed"})

    def publish(topic, payload):
        client.publish(topic, payload, qos=1, retain=topic == state_topic).wait_for_publish(5)

    # A wait counts from the start of the last action before it that was not a wait: what that action
    # caused may arrive before the wait begins.
    baseline = {}
    for action in actions:
        verb, _, rest = action.partition(":")
        if verb != "wait":
            with lock:
                baseline = dict(counts)
        if verb in ("online", "offline"):
            stamp[0] = max(stamp[0] + 1, sp.get_current_timestamp())
            publish(state_topic, json.dumps({"online": verb == "online", "timestamp": stamp[0]}))
        elif verb == "wait":
            parts = rest.split(":")
            kind, device = parts[0], (parts[1] or None) if len(parts) > 1 else None
            wanted = int(parts[2]) if len(parts) > 2 else 1
            with lock:
                target = baseline.get((kind, device), 0) + wanted
                if not lock.wait_for(lambda: counts.get((kind, device), 0) >= target, timeout=20):
                    emit({"error": f"timed out in {action}"})
                    return 1
        elif verb == "sleep":
            time.sleep(float(rest))
        elif verb == "waitfile":
            deadline = time.time() + 60
            while not os.path.exists(rest):
                if time.time() > deadline:
                    emit({"error": f"timed out in {action}"})
                    return 1
                time.sleep(0.05)
        elif verb == "rebirth":
            group, node = rest.split("/")
            now = sp.get_current_timestamp()
            command = sp.NCmd(timestamp=now, metrics=(sp.Metric(
                timestamp=now, name="Node Control/Rebirth", datatype=sp.DataType.BOOLEAN, value=True),))
            publish(f"spBv1.0/{group}/NCMD/{node}", command.encode())
        elif verb == "dcmd":
            path, name, kind, text = rest.split(":", 3)
            group, node, device = path.split("/")
            if kind == "boolean":
                datatype, value = sp.DataType.BOOLEAN, text == "true"
            elif kind == "double":
                datatype, value = sp.DataType.DOUBLE, float(text)
            else:
                datatype, value = sp.DataType.STRING, text
            now = sp.get_current_timestamp()
            command = sp.DCmd(timestamp=now, metrics=(sp.Metric(timestamp=now, name=name, datatype=datatype, value=value),))
            publish(f"spBv1.0/{group}/DCMD/{node}/{device}", command.encode(include_dtypes=True))
        elif verb == "mark":
            emit({"mark": rest})
        else:
            print(f"sparkplug_host: unknown action {action}", file=sys.stderr)
            return 1
    time.sleep(0.2)
    client.disconnect()
    client.loop_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
