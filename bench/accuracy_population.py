"""The accuracy benchmark's people: synthetic fingers on a small sensor, enrolled through libfprint.

    Population(seed, sensor, enrolled, strangers, genuine).build(tools) -> self

A population is one seed's fingers (bench/gallery/synth.py's masters, the
impressions of bench/gallery/small_sensor.py):

- enrolled fingers 0..enrolled-1, each enrolled on virtual_image from its
  impressions 1-5 as one print of 5 distinct samples (gallery-enroll plays one
  image a stage), two fingers a person (persons p00000, p00001, ...);
- genuine probes: impressions 6 and 7 of the enrolled fingers named in
  `genuine` (the first and the second touch);
- strangers: fingers numbered from STRANGERS on, never enrolled, impressions 6
  and 7 only.

Each probe image is enrolled alone (virtual_image's one image in all five
samples), so the probe's minutiae are those libfprint finds in that image when
it is scanned. Everything lands in the cache (~/.cache/fpbridge-bench, or
$FPBRIDGE_BENCH_CACHE) keyed by the generator's and the enroller's sources, so a
run computes only what an earlier one did not.
"""
import hashlib
import os
import subprocess
import sys

import gallery

BENCH = os.path.dirname(os.path.abspath(__file__))
STRANGERS = 1_000_000          # the first stranger's finger number: far from every enrolled one
FINGERS_PER_PERSON = 2
PROBE_IMPRESSIONS = (6, 7)     # first touch, second touch
ENROLL_IMPRESSIONS = (1, 2, 3, 4, 5)


def source_key(names):
    digest = hashlib.sha256()
    for name in names:
        with open(os.path.join(BENCH, name), "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:12]


DRAWN_BY = ["gallery/synth.py", "gallery/small_sensor.py"]
ENROLLED_BY = DRAWN_BY + ["c/gallery-enroll.c", "c/gallery.h"]


def person(finger):
    """The name of the person whose finger this is (enrolled fingers only)."""
    return f"p{finger // FINGERS_PER_PERSON:05d}"


class Population:
    """One seed's enrolled fingers, genuine probes and strangers, as files of serialized prints."""

    def __init__(self, seed, sensor, enrolled, strangers, genuine, log=lambda text: print(text, file=sys.stderr)):
        self.seed, self.sensor, self.enrolled, self.log = seed, sensor, enrolled, log
        self.strangers = list(range(STRANGERS, STRANGERS + strangers))
        self.genuine = sorted(set(genuine))
        # Images depend on the generator alone, prints on the enroller too: each is cached under its own key.
        name = f"seed-{seed}-{sensor}"
        self.images = os.path.join(gallery.cache_root(), f"accuracy-images-{source_key(DRAWN_BY)}", name)
        self.directory = os.path.join(gallery.cache_root(), f"accuracy-prints-{source_key(ENROLLED_BY)}", name)
        self.prints = self.directory
        self.refused = set()       # prints libfprint would not enroll (too few minutiae, 5 retries)

    def image(self, finger, impression):
        return os.path.join(self.images, f"f{finger:07d}-{impression}.pgm")

    def gallery_print(self, finger):
        return os.path.join(self.prints, f"g{finger:07d}.fp")

    def probe_print(self, finger, impression):
        return os.path.join(self.prints, f"p{finger:07d}-{impression}.fp")

    def gallery_fingers(self):
        """The enrolled fingers that enrolled, in gallery order."""
        return [f for f in range(self.enrolled) if f not in self.refused]

    def probe_prints(self, finger):
        """The touches of a probe finger that could be scanned, in order."""
        return [p for p in (self.probe_print(finger, i) for i in PROBE_IMPRESSIONS) if os.path.exists(p)]

    def build(self, tools, jobs):
        self.draw(jobs)
        self.enroll(tools)
        return self

    def draw(self, jobs):
        """Every image the population needs that is not drawn yet, in one run of the generator."""
        want = {f: set(ENROLL_IMPRESSIONS) for f in range(self.enrolled)}
        for f in self.genuine + self.strangers:
            want.setdefault(f, set()).update(PROBE_IMPRESSIONS)
        lines = []
        for finger, impressions in sorted(want.items()):
            missing = [i for i in sorted(impressions) if not os.path.exists(self.image(finger, i))]
            if missing:
                lines.append(f"{finger} {missing[0]}-{missing[-1]}\n")
        if not lines:
            return
        self.log(f"accuracy: drawing the impressions of {len(lines)} fingers (seed {self.seed}, {self.sensor})")
        os.makedirs(self.images, exist_ok=True)
        listing = os.path.join(self.images, f"draw-{os.getpid()}.txt")
        with open(listing, "w") as file:
            file.write("".join(lines))
        subprocess.run(["nice", "-n", "19", "/usr/bin/python3", os.path.join(BENCH, "gallery", "small_sensor.py"),
                        "--list", listing, "--seed", str(self.seed), "--sensor", self.sensor, "--out", self.images,
                        "--jobs", str(jobs), "--name-digits", "7"], check=True)
        os.remove(listing)

    def enroll(self, tools):
        """Enrolls the gallery (5 distinct images a print) and each probe image alone, on virtual_image."""
        jobs = [" ".join([self.image(f, i) for i in ENROLL_IMPRESSIONS] + [self.gallery_print(f)])
                for f in range(self.enrolled)]
        jobs += [f"{self.image(f, i)} {self.probe_print(f, i)}" for f in self.genuine + self.strangers for i in PROBE_IMPRESSIONS]
        os.makedirs(self.prints, exist_ok=True)
        marks = os.path.join(self.prints, "refused.txt")
        refused = set(open(marks).read().split()) if os.path.exists(marks) else set()
        todo = [j for j in jobs if not os.path.exists(j.split()[-1]) and j.split()[-1] not in refused]
        if todo:
            self.log(f"accuracy: enrolling {len(todo)} prints on virtual_image")

            def parse(line):
                fields = line.split()
                return fields[1], fields[0] == "ok"
            outcome = gallery.on_every_core(self.directory, todo, lambda part, env: gallery.run_batches(
                [os.path.join(tools, "gallery-enroll")], part, env, gallery.ENROLL_BUDGET, parse))
            refused |= {path for path, ok in outcome.items() if not ok}
            with open(marks, "w") as file:
                file.write("".join(p + "\n" for p in sorted(refused)))
        self.refused = {f for f in range(self.enrolled) if self.gallery_print(f) in refused}
        self.unscannable = sorted(p for p in refused if os.path.basename(p).startswith("p"))
