#!/usr/bin/python3
"""Impressions of synthetic fingers as a small USB or laptop sensor takes them.

    small_sensor.py --fingers N --impressions 1-7 --out DIR [--first F] [--seed S] [--sensor small]
    small_sensor.py --list FILE --out DIR ...     # FILE: 'FINGER A-B' a line

Writes DIR/fNNNNN-I.pgm for impressions I of fingers F..F+N-1 (or those the
list names), 8-bit binary PGM, dark ridges on white, as libfprint's
virtual_image reader takes them. The fingers
are synth.py's (the same master ridge pattern for the same seed and finger); the
impressions are much harder than synth.py's second one, which every genuine pair
matched with a bozorth3 score of 226 or more:

- the sensor's area only: a window of the sensor's size on the finger (SENSORS),
  enlarged as the driver enlarges it (libfprint's aes3500 doubles its 128x128);
- the window placed off centre (people aim, they do not centre), turned by up
  to +-20 degrees;
- elastic skin: a smooth displacement of several pixels, larger away from
  where the finger presses hardest;
- pressure: a normal, dry (thin, broken ridges) or wet (thick, merged ridges)
  touch, uneven across the window; blur and sensor noise.

Deterministic: the same arguments give the same images (the impressions draw
from their own random stream, not synth.py's). Needs numpy.
"""
import argparse
import math
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import synth

# Sensor presets: skin width and height in pixels at 500 dpi, and the driver's enlargement.
SENSORS = {
    "small": (160, 160, 1),     # 8 mm square: a laptop or USB press sensor (FPC1025-class, 160x160)
    "aes3500": (128, 128, 2),   # AuthenTec AES3500: 128x128, enlarged to 256x256 (the replay's capture size)
    "elan": (216, 235, 1),      # the elan replay's capture size, taken as 500 dpi skin
}
ROTATION = 20          # degrees, either way
CONDITIONS = ["normal", "dry", "wet"]
CONDITION_ODDS = [0.6, 0.2, 0.2]


def placement(rng, width, height):
    """Where the window's centre sits on the finger (canvas pixels from its centre), and its turn."""
    room = synth.CANVAS / 2 - math.hypot(width, height) / 2 - 8   # the turned window stays on the master
    spread = min(0.18 * min(width, height), room / 2)
    shift = np.clip(rng.normal(0, spread, size=2), -room, room) if room > 0 else np.zeros(2)
    return shift, math.radians(rng.uniform(-ROTATION, ROTATION))


def skin(rng, shape, width):
    """The elastic displacement (x, y), in skin pixels: smooth, growing away from a pressure centre."""
    amplitude = rng.uniform(2.5, 5.5)
    centre = rng.uniform(0.3, 0.7, size=2) * np.array(shape[::-1])
    y, x = np.mgrid[0:shape[0], 0:shape[1]].astype(float)
    growth = 0.5 + np.hypot(x - centre[0], y - centre[1]) / width
    return [amplitude * growth * synth.smooth_noise(rng, shape, 45) for _ in range(2)]


def ink(rng, pattern, shape):
    """Darkness in [0, 1] of a pattern in [-1, 1] under this touch's pressure and moisture."""
    condition = rng.choice(CONDITIONS, p=CONDITION_ODDS)
    bias = {"normal": rng.uniform(-0.2, 0.2), "dry": rng.uniform(-0.6, -0.3), "wet": rng.uniform(0.3, 0.6)}[condition]
    bias = bias + 0.2 * synth.smooth_noise(rng, shape, 25)
    darkness = 1 / (1 + np.exp(-5 * (pattern + bias)))
    pressure = np.clip(0.8 + 0.45 * synth.smooth_noise(rng, shape, 35), 0.25, 1.0)
    if condition == "dry":
        # Dry skin touches in spots: ridges break up.
        breaks = synth.smooth_noise(rng, shape, 3)
        pressure = pressure * np.clip(1.6 + 2.5 * breaks, 0, 1)
    darkness = darkness * pressure
    if condition == "wet":
        darkness = np.clip(synth.blur(synth.blur(darkness)) * 1.15, 0, 1)
    return darkness


def impression(ridges, finger, index, seed, sensor):
    """One touch on the sensor, as 8-bit grey (ridges dark), at the driver's output size."""
    width, height, enlarge = SENSORS[sensor]
    rng = np.random.default_rng([seed, finger, index, 2])
    shift, angle = placement(rng, width, height)
    shape = (height * enlarge, width * enlarge)
    y, x = np.mgrid[0:shape[0], 0:shape[1]].astype(float)
    u, v = (x + 0.5) / enlarge - width / 2, (y + 0.5) / enlarge - height / 2
    warp_x, warp_y = skin(rng, shape, width * enlarge)
    c = synth.CANVAS / 2
    cx = c + shift[0] + math.cos(angle) * u - math.sin(angle) * v + warp_x
    cy = c + shift[1] + math.sin(angle) * u + math.cos(angle) * v + warp_y
    darkness = ink(rng, synth.sample(ridges, cx, cy), shape)
    grey = 235 - 190 * darkness
    grey = synth.blur(grey) + rng.normal(0, rng.uniform(6, 12), size=shape)
    return np.clip(grey, 0, 255).astype(np.uint8)


def image_path(out, finger, index, digits):
    return os.path.join(out, f"f{finger:0{digits}d}-{index}.pgm")


def make_finger(job):
    finger, impressions, seed, sensor, out, digits = job
    paths = {i: image_path(out, finger, i, digits) for i in impressions}
    missing = [i for i, p in paths.items() if not os.path.exists(p)]
    if missing:
        ridges = synth.master(finger, seed)
        for i in missing:
            synth.write_pgm(paths[i], impression(ridges, finger, i, seed, sensor))
    return finger


def impression_range(text):
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fingers", type=int, default=0)
    parser.add_argument("--list", help="a file of 'FINGER A-B' lines: those fingers' impressions A to B")
    parser.add_argument("--first", type=int, default=0, help="number of the first finger")
    parser.add_argument("--impressions", type=impression_range, default=impression_range("1-7"),
                        help="which impressions, as A-B (default 1-7)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--sensor", choices=sorted(SENSORS), default="small")
    parser.add_argument("--out", required=True)
    parser.add_argument("--name-digits", type=int, default=5, help="digits of the finger's number in file names")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    wanted = [(f, arguments.impressions) for f in range(arguments.first, arguments.first + arguments.fingers)]
    if arguments.list:
        with open(arguments.list) as file:
            wanted += [(int(finger), impression_range(span)) for finger, span in (line.split() for line in file if line.strip())]
    jobs = [(f, impressions, arguments.seed, arguments.sensor, arguments.out, arguments.name_digits)
            for f, impressions in wanted]
    if arguments.jobs > 1:
        with ProcessPoolExecutor(arguments.jobs) as pool:
            list(pool.map(make_finger, jobs, chunksize=4))
    else:
        for job in jobs:
            make_finger(job)


if __name__ == "__main__":
    main()
