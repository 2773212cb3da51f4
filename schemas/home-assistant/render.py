#!/usr/bin/env python3
"""Renders Home Assistant value templates as Home Assistant does (Jinja2, with the message's payload as
`value` and, when it is JSON, as `value_json`), to check discovery templates against real payloads.

    schemas/home-assistant/render.py [FILE]

FILE (default: standard input) holds one JSON object per line, {"template": "...", "payload": "..."};
prints one rendered value per line. Exits 1 when a template does not render. Needs Jinja2 (Debian:
python3-jinja2).
"""
import json
import sys

import jinja2


def main(arguments):
    if arguments and arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    source = open(arguments[0], encoding="utf-8") if arguments else sys.stdin
    failed = False
    with source:
        for line in source:
            if not line.strip():
                continue
            case = json.loads(line)
            payload = case["payload"]
            try:
                value_json = json.loads(payload)
            except ValueError:
                value_json = None
            try:
                print(environment.from_string(case["template"]).render(value=payload, value_json=value_json).strip())
            except jinja2.TemplateError as error:
                print(f"error: {error}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
