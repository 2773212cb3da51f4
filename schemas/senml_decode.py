#!/usr/bin/env python3
"""Decodes SenML packs (RFC 8428) in JSON or CBOR with two independent readers and prints what they read.

usage: schemas/senml_decode.py PAYLOAD_FILE...

For each file, one JSON line: {"file", "format" (senml+json or senml+cbor, by the first byte),
"kpn": [[base name, name, value], ...] as the kpn-senml library (PyPI kpn-senml, Apache-2.0) parses the
pack, and "resolved": the records resolved as RFC 8428 section 4.6 says (base name + name, base time +
time, base unit or unit, base value + value), read with Python's json or cbor2 and SenML's integer labels
(section 6). The agent's tests compare both with what it published; an operator can pipe a payload from
mosquitto_sub -N into a file and look at it the same way.
"""
import builtins
import json
import sys

import cbor2

# kpn-senml 1.0.1 checks string values against Python 2's `basestring` (NameError on Python 3 for any
# record with "vs"): give it the Python 3 name before it is used.
builtins.basestring = str
from kpn_senml import SenmlPack  # noqa: E402

LABELS = {-1: "bver", -2: "bn", -3: "bt", -4: "bu", -5: "bv", -6: "bs", 0: "n", 1: "u", 2: "v", 3: "vs", 4: "vb",
          5: "s", 6: "t", 7: "ut", 8: "vd"}


def raw_records(payload):
    if payload[:1] == b"[":
        return "senml+json", json.loads(payload)
    records = cbor2.loads(payload)
    return "senml+cbor", [{LABELS.get(key, key): value for key, value in record.items()} for record in records]


def resolve(records):
    base = {"bn": "", "bt": 0.0, "bu": None, "bv": 0.0}
    resolved = []
    for record in records:
        for field in base:
            if field in record:
                base[field] = record[field]
        entry = {"n": base["bn"] + record.get("n", ""), "t": base["bt"] + record.get("t", 0.0)}
        unit = record.get("u", base["bu"])
        if unit is not None:
            entry["u"] = unit
        if "v" in record:
            entry["v"] = base["bv"] + record["v"]
        for field in ("vs", "vb"):
            if field in record:
                entry[field] = record[field]
        resolved.append(entry)
    return resolved


def kpn_read(payload, kind):
    seen = []

    def collect(record, device=None):
        seen.append([device.name if device is not None else None, record.name, record.value])

    pack = SenmlPack("", collect)
    if kind == "senml+json":
        pack.from_json(payload.decode("utf-8"))
    else:
        pack.from_cbor(payload)
    return seen


def main(paths):
    for path in paths:
        with open(path, "rb") as file:
            payload = file.read()
        kind, records = raw_records(payload)
        print(json.dumps({"file": path, "format": kind, "kpn": kpn_read(payload, kind), "resolved": resolve(records)}))


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    main(sys.argv[1:])
