#!/usr/bin/env python3
"""Prints the robustness battery's table from the JSON files Benchmarks/broad/battery.sh wrote.

Reads variant names from stdin, one a line, and for each NAME the files NAME.ours.json (motion-bench
broad --json) and NAME.vqf.json (vqf_reference.py --json) in the directory given as the argument.
"""
import json
import sys


def main():
    directory = sys.argv[1]
    names = [line.strip() for line in sys.stdin if line.strip()]
    header = (f"{'variant':<22} {'ours 9ax tot/head/incl':>24} {'VQF 9ax tot/head/incl':>24} "
              f"{'ours 6ax incl':>13} {'VQF 6ax incl':>12}  worse trials (9ax tot)")
    print("Robustness battery: mean RMSE over the trials, degrees (MotionBridge defaults vs VQF 2.1.2 defaults, causal)")
    print(header)
    print("-" * len(header))
    offsets = []
    for name in names:
        ours = json.load(open(f"{directory}/{name}.ours.json"))
        vqf = json.load(open(f"{directory}/{name}.vqf.json"))
        o9, o6 = ours["meanNineAxis"], ours["meanSixAxis"]
        v9, v6 = vqf["mean"]["9"], vqf["mean"]["6"]
        theirs = {trial["trial"]: trial["9"]["total"] for trial in vqf["trials"]}
        worse = sum(1 for trial in ours["trials"] if trial["nineAxis"]["total"] > theirs.get(trial["trial"], float("inf")))
        print(f"{name:<22} {o9['total']:>8.2f}{o9['heading']:>8.2f}{o9['inclination']:>8.2f} "
              f"{v9['total']:>8.2f}{v9['heading']:>8.2f}{v9['inclination']:>8.2f} "
              f"{o6['inclination']:>13.2f} {v6['inclination']:>12.2f}  {worse} of {len(ours['trials'])}")
        if name.startswith("mag-offset-"):
            offsets.append((o9["total"], v9["total"]))
    if len(offsets) > 1:
        # A residual's direction is unknown: the directions' mean is the figure for "a 2 µT residual".
        ours_mean = sum(o for o, _ in offsets) / len(offsets)
        vqf_mean = sum(v for _, v in offsets) / len(offsets)
        worse = sum(1 for o, v in offsets if o > v)
        print(f"hard-iron residual, mean over its {len(offsets)} directions: 9-axis total {ours_mean:.2f} (ours) "
              f"against {vqf_mean:.2f} (VQF); ours worse in {worse} of {len(offsets)} directions")

if __name__ == "__main__":
    main()
