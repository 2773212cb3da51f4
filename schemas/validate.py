#!/usr/bin/env python3
"""Validates MotionBridge payloads against one of the contract's JSON Schemas (2020-12).

    schemas/validate.py [--cbor] SCHEMA [FILE]

SCHEMA is a file of this directory (e.g. schemas/health.schema.json); FILE (default: standard input)
holds one JSON payload per line, or with --cbor one CBOR payload per line in hexadecimal (what
`mosquitto_sub -F %x` prints), read with the cbor2 package (Debian: python3-cbor2). Prints one line per
violation, `LINE: PATH: MESSAGE`, and exits 1 if there was one (or a line cannot be read), 0 if every
payload is valid. Needs the jsonschema package (Debian: python3-jsonschema).
"""
import json
import sys

from jsonschema import Draft202012Validator


def nearest_alternative(error):
    """For "valid under none of" the alternatives (a data topic's single and batch forms), the errors of
    the alternative the payload came nearest to (the fewest errors); otherwise the error itself."""
    if not error.context:
        return [error]
    branches = {}
    for detail in error.context:
        branches.setdefault(detail.relative_schema_path[0], []).append(detail)
    return min(branches.values(), key=len)


def main(arguments):
    cbor = bool(arguments) and arguments[0] == "--cbor"
    if cbor:
        arguments = arguments[1:]
        import cbor2
    if len(arguments) not in (1, 2) or arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if arguments and arguments[0] in ("-h", "--help") else 64
    with open(arguments[0], encoding="utf-8") as file:
        schema = json.load(file)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    source = open(arguments[1], encoding="utf-8") if len(arguments) == 2 else sys.stdin
    problems = 0
    with source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                document = cbor2.loads(bytes.fromhex(line.strip())) if cbor else json.loads(line)
            except Exception as error:  # noqa: BLE001 - any unreadable line is reported, not raised
                print(f"{number}: not {'CBOR' if cbor else 'JSON'}: {error}")
                problems += 1
                continue
            for error in sorted(validator.iter_errors(document), key=lambda error: list(map(str, error.absolute_path))):
                for detail in nearest_alternative(error):
                    path = "/".join(map(str, detail.absolute_path)) or "(root)"
                    print(f"{number}: {path}: {detail.message}")
                    problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
