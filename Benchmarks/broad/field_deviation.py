#!/usr/bin/env python3
"""How far each magnetometer reading's direction is off, by how far its norm and dip are off.

For every BROAD trial, each reading is turned into the earth frame with the optical reference
orientation, and its norm, dip and heading are compared with the trial's medians. The readings are
classed by the larger of the norm's relative deviation and the dip's deviation (10° counted as 10 %):
within 5 %, 5-10 %, beyond 10 %, the disturbance thresholds of before and of now (docs/FUSION.md).
Prints each class's share of the moving samples and the rms of its readings' heading deviation, degrees,
for the recording as it is and with a hard-iron residual added in the sensor's frame (--offset).

    Benchmarks/broad/field_deviation.py [DATA_DIR] [--offset X,Y,Z]   # µT; default 2,0,0

Needs numpy (the venv of setup-venv.sh has it).
"""
import argparse
import glob
import os

import numpy as np

CLASSES = [(0.0, 0.05), (0.05, 0.10), (0.10, np.inf)]


def rotate(quaternions, vectors):
    """Rotates each vector by its unit quaternion (w, x, y, z)."""
    w = quaternions[:, :1]
    u = quaternions[:, 1:]
    t = 2 * np.cross(u, vectors)
    return vectors + w * t + np.cross(u, t)


def classes(path, offset):
    data = np.genfromtxt(path, delimiter=",", comments="#", skip_header=2)
    field, reference, moving = data[:, 7:10] + offset, data[:, 10:14], data[:, 14] > 0
    keep = ~np.isnan(reference).any(axis=1) & moving
    earth = rotate(reference[keep], field[keep])
    norm = np.linalg.norm(earth, axis=1)
    heading = np.degrees(np.arctan2(earth[:, 1], earth[:, 0]))
    dip = np.degrees(np.arctan2(-earth[:, 2], np.hypot(earth[:, 0], earth[:, 1])))
    deviation = np.maximum(np.abs(norm / np.median(norm) - 1), np.abs(dip - np.median(dip)) / 100)
    turned = np.abs((heading - np.median(heading) + 180) % 360 - 180)
    rows = []
    for low, high in CLASSES:
        selected = (deviation >= low) & (deviation < high)
        rms = np.sqrt(np.mean(turned[selected] ** 2)) if selected.any() else float("nan")
        rows.append((100 * selected.mean(), rms))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default="../shared/data/broad")
    parser.add_argument("--offset", default="2,0,0", help="hard-iron residual added, µT, sensor frame")
    arguments = parser.parse_args()
    offset = np.array([float(value) for value in arguments.offset.split(",")])
    labels = " | ".join(f"{int(low * 100)}-{high * 100:g} %" for low, high in CLASSES)
    print(f"trial                          as recorded: share, rms heading ({labels})   with {arguments.offset} µT")
    for path in sorted(glob.glob(os.path.join(arguments.data, "*.csv"))):
        cells = []
        for added in (np.zeros(3), offset):
            cells.append("  ".join(f"{share:3.0f} % {rms:5.2f}°" for share, rms in classes(path, added)))
        print(f"{os.path.basename(path)[:30]:30s} {cells[0]}   {cells[1]}")


if __name__ == "__main__":
    main()
