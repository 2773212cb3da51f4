#!/usr/bin/python3
"""Reads `perf script -F ip,sym,dso` output (call chains, leaf first) of motion-agent and attributes each
sample to one stage of the agent's work, printing each stage's share of the agent's CPU and, given the CPU
time per second and the samples and messages per second, its cost per sample and per message.

    perf script -i perf.data -F ip,sym,dso | cost-account.py --cpu-percent P --samples-per-second N --messages-per-second M

A sample goes to the stage of the frame nearest the leaf that names one (so the Swift runtime's retains,
releases and allocations, and libc's copies, count for the code that called them); a sample whose leaf is in
the kernel goes to "system calls", whatever called it (on loopback the receiver's half of TCP runs in the
sender's system call too). Stages, first match in the frame:
"""
import argparse
import re
import sys
from collections import Counter

# (stage, pattern on the frame's symbol or library), in the order they are tried on each frame.
RULES = [
    ("MQTT client (the agent's and libmosquitto)", re.compile(r"^\$s4MQTT|libmosquitto")),
    ("encoding (JSON, CBOR, SenML, Sparkplug)", re.compile(r"^\$s14MotionContract.*(JSONWriter|Encoder|CBOR|SenML|Sparkplug)")),
    ("down-sampling and message pipelines", re.compile(r"^\$s11MotionAgent.*(ServicePipeline|TopicSampler|Downsampl)")),
    ("detectors", re.compile(r"^\$s12MotionEngine.*(Detector|Activity)|^\$s12MotionFusion.*Detector|^\$s11MotionAgent.*Detector")),
    ("fusion (attitude filter)", re.compile(r"^\$s12MotionFusion|^\$s12MotionEngine.*ReferenceFrameFusion")),
    ("routing (engine: decimation, batches, deliveries)", re.compile(r"^\$s12MotionEngine")),
    ("agent (publishing decisions, health, supervision)", re.compile(r"^\$s11MotionAgent|^\$s17MotionSupervision")),
    ("device (the simulator's sample generation)", re.compile(r"^\$s9MotionHAL")),
    ("Dispatch (queues, timers)", re.compile(r"libdispatch|libswiftDispatch")),
]
SYSTEM_CALLS = "system calls (kernel: TCP writes, sleeps, wake-ups)"
OTHER = "other (runtime and libc outside any stage)"


def samples(stream):
    """Yields each sample's frames as (symbol, library), leaf first."""
    frames = []
    for line in stream:
        line = line.strip()
        if not line:
            if frames:
                yield frames
            frames = []
            continue
        match = re.match(r"^[0-9a-f]+ (.*) \((.*)\)$", line)
        if match:
            frames.append((match.group(1), match.group(2)))
    if frames:
        yield frames


def stage(frames):
    """The stage a sample's CPU time belongs to."""
    symbol, library = frames[0]
    if "kernel" in library or library.startswith("[k") or symbol.startswith("[k"):
        return SYSTEM_CALLS
    for symbol, library in frames:
        for name, pattern in RULES:
            if pattern.search(symbol) or pattern.search(library):
                return name
    return OTHER


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu-percent", type=float, required=True, help="the agent's CPU, % of one core, without perf")
    parser.add_argument("--samples-per-second", type=float, required=True, help="device samples a second")
    parser.add_argument("--messages-per-second", type=float, required=True, help="messages published a second")
    options = parser.parse_args()
    counts = Counter(stage(frames) for frames in samples(sys.stdin))
    total = sum(counts.values())
    if total == 0:
        sys.exit("cost-account.py: no samples in the profile")
    # CPU time per second of wall time, µs.
    busy = options.cpu_percent / 100 * 1e6
    print(f"{'stage':52} {'share':>7} {'% core':>7} {'µs/sample':>10} {'µs/message':>11}")
    order = [name for name, _ in RULES] + [SYSTEM_CALLS, OTHER]
    for name in sorted(order, key=lambda n: -counts[n]):
        share = counts[name] / total
        if share == 0:
            continue
        print(f"{name:52} {share * 100:6.1f}% {share * options.cpu_percent:6.2f}% "
              f"{share * busy / options.samples_per_second:10.2f} {share * busy / options.messages_per_second:11.2f}")
    print(f"{'total':52} {100:6.1f}% {options.cpu_percent:6.2f}% {busy / options.samples_per_second:10.2f} "
          f"{busy / options.messages_per_second:11.2f}")
    print(f"({total} profile samples)")


if __name__ == "__main__":
    main()
