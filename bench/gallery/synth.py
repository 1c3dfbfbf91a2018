#!/usr/bin/python3
"""Synthetic fingerprints for the identification benchmark (SFinGe-style).

    synth.py --fingers N --impressions K --out DIR [--seed S] [--jobs J]

Writes DIR/fNNNN-I.pgm: K impressions of each of N fingers, 256x256 8-bit
binary PGM at about 500 dpi (ridge period 8-11 px), dark ridges on white, as
libfprint's virtual_image reader takes them and its NBIS matcher expects.

Per finger: a pattern class (arch, tented arch, left or right loop, whorl) in
roughly the proportions people have; its cores and deltas jittered; a
Sherlock-Monro orientation field from them with a smooth random warp; a ridge
period of its own; and ridges grown from random noise by iterated oriented
Gabor filtering. The random start is what makes fingers distinct: where ridges
end and fork (the minutiae NBIS compares) falls differently for every seed.
Per impression: a shift, a rotation, a small elastic distortion, uneven
pressure (patches of faint ridges, ridges thinner or thicker), blur and sensor
noise.

Deterministic: the same arguments give the same images (bench/gallery.py
caches on them). Needs numpy (Debian's python3-numpy).
"""
import argparse
import math
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

SIZE = 256          # the impression, pixels (NIST's test prints are 256x240)
CANVAS = 352        # the master finger, with room for shifts, rotation and filter wrap-around
BINS = 12           # orientations the Gabor bank is quantised to (blended linearly)
WARP = 1.3          # amplitude (radians) of the per-finger warp of the orientation field
TURN = 0.8          # standard deviation (radians) of the per-finger turn of the whole flow
ITERATIONS = 7      # filter passes from noise to ridges


def singularities(rng):
    """The pattern class and its cores and deltas, in canvas coordinates around the centre."""
    kind = rng.choice(["arch", "tented", "left", "right", "whorl"], p=[0.05, 0.05, 0.33, 0.30, 0.27])
    j = lambda s: rng.normal(0, s)
    if kind == "arch":
        # An arch has no singular point in view: a core and a delta far below bend the flow gently.
        cores, deltas = [(j(10), 230 + j(20))], [(j(10), 330 + j(20))]
    elif kind == "tented":
        cores, deltas = [(j(12), j(12))], [(j(10), 70 + j(10))]
    elif kind == "left":
        cores, deltas = [(j(15), j(15) - 10)], [(-85 + j(15), 85 + j(15))]
    elif kind == "right":
        cores, deltas = [(j(15), j(15) - 10)], [(85 + j(15), 85 + j(15))]
    else:
        dx, dy = rng.normal(0, 12), 18 + rng.normal(0, 6)
        cores = [(j(10) - dx / 2, j(10) - dy / 2), (j(10) + dx / 2, j(10) + dy / 2)]
        deltas = [(-95 + j(15), 95 + j(15)), (95 + j(15), 95 + j(15))]
    return kind, cores, deltas


def smooth_noise(rng, shape, scale):
    """A smooth random field in [-1, 1]: white noise low-passed in frequency."""
    h, w = shape
    spectrum = np.fft.rfft2(rng.normal(size=shape))
    fy = np.fft.fftfreq(h)[:, None]
    fx = np.fft.rfftfreq(w)[None, :]
    spectrum *= np.exp(-(fx ** 2 + fy ** 2) * (scale ** 2) * 2 * math.pi ** 2)
    field = np.fft.irfft2(spectrum, s=shape)
    return field / (np.abs(field).max() + 1e-9)


def orientation_field(rng):
    """Ridge orientation (radians, modulo pi) at every canvas pixel: the zero-pole model."""
    kind, cores, deltas = singularities(rng)
    c = CANVAS / 2
    y, x = np.mgrid[0:CANVAS, 0:CANVAS].astype(float)
    z = (x - c) + 1j * (y - c)
    theta = np.zeros_like(x)
    for dx, dy in deltas:
        theta += 0.5 * np.angle(z - complex(dx, dy))
    for dx, dy in cores:
        theta -= 0.5 * np.angle(z - complex(dx, dy))
    # A slow random warp: no two fingers of a class flow quite alike.
    # A strong random warp at two scales and a turn of the whole flow: measured on 90
    # fingers, impostor scores fall as the flows of same-class fingers differ more
    # (warp 0.22: 7 of 7,797 pairs at bozorth3 >= 40; warp 1.3, turn 0.8 rad: none of 8,010).
    theta += WARP * smooth_noise(rng, theta.shape, 60) + 0.5 * WARP * smooth_noise(rng, theta.shape, 25)
    return theta + rng.normal(0, TURN)


def gabor_bank(period, shape):
    """Frequency responses of even Gabor filters across ridges, one per orientation bin."""
    h, w = shape
    sigma = 0.45 * period
    r = int(math.ceil(3 * sigma))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1].astype(float)
    bank = []
    for b in range(BINS):
        phi = math.pi * b / BINS          # the ridge direction
        across = -xx * math.sin(phi) + yy * math.cos(phi)
        kernel = np.exp(-(xx ** 2 + yy ** 2) / (2 * sigma ** 2)) * np.cos(2 * math.pi * across / period)
        kernel -= kernel.mean()
        padded = np.zeros(shape)
        padded[:2 * r + 1, :2 * r + 1] = kernel
        padded = np.roll(padded, (-r, -r), axis=(0, 1))   # centred at the origin: no shift
        bank.append(np.fft.rfft2(padded))
    return bank


def master(finger, seed):
    """The whole finger's ridge pattern in [-1, 1] (positive on ridges)."""
    rng = np.random.default_rng([seed, finger])
    theta = orientation_field(rng) % math.pi
    period = rng.uniform(8.2, 10.8)
    bank = gabor_bank(period, (CANVAS, CANVAS))
    position = theta / math.pi * BINS
    low = np.floor(position).astype(int) % BINS
    weight = position - np.floor(position)
    image = rng.normal(size=(CANVAS, CANVAS))
    for _ in range(ITERATIONS):
        spectrum = np.fft.rfft2(image)
        responses = [np.fft.irfft2(spectrum * g, s=image.shape) for g in bank]
        stack = np.stack(responses)
        a = np.take_along_axis(stack, low[None], 0)[0]
        b = np.take_along_axis(stack, ((low + 1) % BINS)[None], 0)[0]
        image = (1 - weight) * a + weight * b
        image = np.tanh(2.5 * image / (image.std() + 1e-9))
    return image


def sample(image, x, y):
    """Bilinear interpolation of image at float coordinates (clamped to the edge)."""
    h, w = image.shape
    x = np.clip(x, 0, w - 1.001)
    y = np.clip(y, 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def blur(image):
    """A 3x3 binomial blur: the sensor's optics."""
    padded = np.pad(image, 1, mode="edge")
    rows = padded[:-2] + 2 * padded[1:-1] + padded[2:]
    return (rows[:, :-2] + 2 * rows[:, 1:-1] + rows[:, 2:]) / 16


def impression(ridges, finger, index, seed):
    """One touch of the finger on the reader, as 8-bit grey (ridges dark)."""
    rng = np.random.default_rng([seed, finger, index, 1])
    angle = math.radians(rng.uniform(-7, 7))
    shift_x, shift_y = rng.uniform(-12, 12, size=2)
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(float)
    u, v = x - SIZE / 2, y - SIZE / 2
    # Skin stretches: a smooth displacement of a pixel or two.
    warp_x = 1.8 * smooth_noise(rng, (SIZE, SIZE), 50)
    warp_y = 1.8 * smooth_noise(rng, (SIZE, SIZE), 50)
    cx = CANVAS / 2 + shift_x + math.cos(angle) * u - math.sin(angle) * v + warp_x
    cy = CANVAS / 2 + shift_y + math.sin(angle) * u + math.cos(angle) * v + warp_y
    pattern = sample(ridges, cx, cy)

    # The finger covers the sensor, as on a small reader. (An elliptic contact outline
    # was tried: the ridge endings along it sit alike in every image and made
    # impostors match.) Pressure is uneven: ridge contrast 30-100 %, in patches.
    pressure = np.clip(0.85 + 0.35 * smooth_noise(rng, (SIZE, SIZE), 40), 0.3, 1.0)
    # Dry (thin ridges) or wet (thick ones): a bias on the ridge threshold.
    bias = rng.uniform(-0.25, 0.25) + 0.15 * smooth_noise(rng, (SIZE, SIZE), 30)
    ink = 1 / (1 + np.exp(-5 * (pattern + bias)))
    darkness = ink * pressure
    grey = 235 - 190 * darkness
    grey = blur(grey) + rng.normal(0, 7, size=grey.shape)
    return np.clip(grey, 0, 255).astype(np.uint8)


def write_pgm(path, pixels):
    temporary = path + ".tmp"
    with open(temporary, "wb") as file:
        file.write(b"P5\n%d %d\n255\n" % (pixels.shape[1], pixels.shape[0]))
        file.write(pixels.tobytes())
    os.replace(temporary, path)


def make_finger(job):
    finger, impressions, seed, out = job
    paths = [os.path.join(out, f"f{finger:04d}-{i}.pgm") for i in range(1, impressions + 1)]
    if all(os.path.exists(p) for p in paths):
        return finger
    ridges = master(finger, seed)
    for i, path in enumerate(paths, start=1):
        write_pgm(path, impression(ridges, finger, i, seed))
    return finger


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fingers", type=int, required=True)
    parser.add_argument("--impressions", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="number of the first finger")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    jobs = [(f, arguments.impressions, arguments.seed, arguments.out)
            for f in range(arguments.first, arguments.first + arguments.fingers)]
    if arguments.jobs > 1:
        with ProcessPoolExecutor(arguments.jobs) as pool:
            list(pool.map(make_finger, jobs, chunksize=8))
    else:
        for job in jobs:
            make_finger(job)


if __name__ == "__main__":
    main()
