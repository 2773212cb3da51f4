#!/usr/bin/python3
"""Attributes the guest instructions counted by insn-count.c (qemu plugin) to functions and stages.

    account.py --counts FILE --executable AGENT --symbols AGENT.debug --seconds S
               --samples-per-second N --messages M [--top K]

Each translated block is counted in the function its first instruction lies in: the executable's from
the symbol table of AGENT.debug (the shipped agent is stripped; it is not position-independent, so its
addresses are the symbols' own), a library's from its symbol tables, placed where the maps show it was
loaded. Functions go to stages with Benchmarks/cost-account.py's rules, tried on the function alone
(there are no call chains here); what those rules leave is split into the Swift runtime and standard
library, Dispatch, and each library. Prints each stage's instructions per device sample and per
message, then the K functions with the most instructions.
"""
import argparse
import bisect
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict

_rules_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cost-account.py")
_spec = importlib.util.spec_from_file_location("cost_account", _rules_path)
cost_account = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cost_account)

# Stages for what the agent's rules leave, by the function's name or its library (first match).
LEAF_RULES = [
    ("calls into shared libraries (PLT stubs)", re.compile(r"^\[\.plt")),
    ("Dispatch (queues, timers)", re.compile(r"^_?dispatch_|^\$s8Dispatch|^_dispatch|libdispatch")),
    ("Swift runtime (retain/release, allocation, metadata, casts)", re.compile(r"^_?swift_|^swift::|^__swift|^_swift")),
    ("Swift standard library (arrays, strings, number formatting, hashing)", re.compile(r"^\$ss|^\$sS")),
    ("Foundation", re.compile(r"^\$s20FoundationEssentials|^\$s10Foundation")),
    ("libmosquitto", re.compile(r"libmosquitto")),
    ("libm (sin, cos, atan2, log, ...)", re.compile(r"/libm[.-]")),
    ("libc (malloc, memcpy, locks, system-call wrappers)", re.compile(r"/libc[.-]|ld-linux")),
]
OTHER = "other"


class SymbolTable:
    """Function symbols of one ELF file by address, and its sections (readelf works for any architecture)."""

    def __init__(self, path):
        output = subprocess.run(["readelf", "-Ws", "--wide", path], capture_output=True, text=True).stdout
        entries = set()
        for line in output.splitlines():
            fields = line.split()
            if len(fields) < 8 or not fields[0].endswith(":") or fields[3] not in ("FUNC", "IFUNC"):
                continue
            value, size = int(fields[1], 16), int(fields[2], 0)
            if value:
                entries.add((value, size, fields[7].split("@")[0]))
        self.symbols = sorted(entries)
        self.starts = [value for value, _, _ in self.symbols]
        # Allocated sections with an address: (start, end, name).
        self.sections = []
        output = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
        for line in output.splitlines():
            match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
            if match and "A" in match.group(4) and int(match.group(2), 16):
                start = int(match.group(2), 16)
                self.sections.append((start, start + int(match.group(3), 16), match.group(1)))

    def section(self, address):
        return next((name for start, end, name in self.sections if start <= address < end), None)

    def lookup(self, address):
        """The function `address` lies in; code outside every function symbol is named by its section
        (`[.plt]`: the stubs through which calls into shared libraries go) or, in a stripped library, as
        unnamed code after the nearest function before it (libc's internal string and memory functions)."""
        section = self.section(address)
        if section and section not in (".text",):
            return f"[{section}]"
        index = bisect.bisect_right(self.starts, address) - 1
        if index < 0:
            return None
        start, size, name = self.symbols[index]
        return name if size == 0 or address < start + size else f"(unnamed code after {name})"


def read_counts(path):
    """Blocks (address, instructions × executions) and mappings (start, end, offset, file)."""
    blocks, maps = [], []
    with open(path) as counts:
        for line in counts:
            if line.startswith("block "):
                _, address, instructions, executions = line.split()
                blocks.append((int(address, 16), int(instructions) * int(executions)))
            elif line.startswith("map "):
                fields = line[4:].split(None, 5)
                if len(fields) == 6 and fields[5].strip().startswith("/"):
                    start, end = (int(x, 16) for x in fields[0].split("-"))
                    maps.append((start, end, int(fields[2], 16), fields[5].strip()))
    return blocks, sorted(maps)


def stage_of(function, library):
    """The agent's stages first (cost-account.py's rules), then the runtime's and the libraries'."""
    for name, pattern in cost_account.RULES + LEAF_RULES:
        if pattern.search(function) or pattern.search(library):
            return name
    return OTHER


def demangled(names):
    """Readable names for Swift symbols (swift demangle --simplified), others as they are."""
    tool = shutil.which("swift-demangle")
    command = [tool, "--simplified"] if tool else (["swift", "demangle", "--simplified"] if shutil.which("swift") else None)
    if not command:
        return dict(zip(names, names))
    result = subprocess.run(command, input="\n".join(names) + "\n", capture_output=True, text=True)
    lines = result.stdout.splitlines()
    return dict(zip(names, lines)) if result.returncode == 0 and len(lines) == len(names) else dict(zip(names, names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", required=True)
    parser.add_argument("--executable", required=True, help="the agent as it ran")
    parser.add_argument("--symbols", required=True, help="the agent's symbols (motion-agent.debug)")
    parser.add_argument("--seconds", type=float, required=True, help="the counting window, s")
    parser.add_argument("--samples-per-second", type=float, required=True)
    parser.add_argument("--messages", type=int, required=True, help="messages published in the window")
    parser.add_argument("--top", type=int, default=15)
    options = parser.parse_args()

    blocks, maps = read_counts(options.counts)
    executable = os.path.realpath(options.executable)
    tables = {executable: SymbolTable(options.symbols)}
    bases = {}
    for start, _, offset, path in maps:
        if offset == 0 and path not in bases:
            bases[path] = start
    map_starts = [m[0] for m in maps]
    # Resolved once per mapped file, not once per block.
    executable_paths = {path for _, _, _, path in maps if os.path.realpath(path) == executable}
    by_function = Counter()
    for address, instructions in blocks:
        index = bisect.bisect_right(map_starts, address) - 1
        path = maps[index][3] if index >= 0 and address < maps[index][1] else "?"
        if path in executable_paths:
            table, relative = tables[executable], address
        elif path in bases:
            if path not in tables:
                tables[path] = SymbolTable(path)
            table, relative = tables[path], address - bases[path]
        else:
            table, relative = None, address
        function = (table.lookup(relative) if table else None) or f"?{relative:#x}"
        by_function[(function, os.path.basename(path))] += instructions

    total = sum(by_function.values())
    if total == 0:
        sys.exit("account.py: no instructions counted")
    samples = options.samples_per_second * options.seconds
    messages = max(options.messages, 1)
    by_stage = Counter()
    for (function, library), instructions in by_function.items():
        by_stage[stage_of(function, "/" + library)] += instructions
    print(f"{'stage (emulated arm64 instructions)':68} {'share':>7} {'instr/sample':>13} {'instr/message':>14}")
    for name, instructions in by_stage.most_common():
        print(f"{name:68} {instructions / total * 100:6.1f}% {instructions / samples:13.0f} {instructions / messages:14.0f}")
    print(f"{'total':68} {100:6.1f}% {total / samples:13.0f} {total / messages:14.0f}")
    print(f"({total / 1e6:.1f} million instructions in {options.seconds:g} s: {samples:.0f} samples, {options.messages} messages)")
    print()
    top = by_function.most_common(options.top)
    readable = demangled([function for (function, _), _ in top])
    print(f"the {len(top)} functions with the most instructions")
    for (function, library), instructions in top:
        name = readable.get(function, function)
        print(f"{instructions / total * 100:6.1f}% {instructions / samples:8.0f}/sample  {library:18.18} {name[:110]}")


if __name__ == "__main__":
    main()
