"""The identification gallery: synthetic fingers enrolled through libfprint, cached.

    gallery.build(fingers, tools, cache) -> Gallery

1. bench/gallery/synth.py draws two impressions of each finger (plus spares and
   fingers that are never enrolled, for the no-match probe).
2. gallery-enroll (bench/c) enrolls impression 1 of each on virtual_image (the
   fingers split over the cores, each part on its own reader), in
   processes of at most ENROLL_BUDGET seconds each: libfprint's thermal model
   makes an image reader HOT after about 180 s of continuous work, and a new
   process starts with a cold reader.
3. gallery-score measures, through libfprint's matcher, the genuine match rate
   (impression 2 against the print enrolled from impression 1, every finger)
   and the false match rate (every impression 2 against every other finger's
   print, over the first SCORED fingers).
4. The probes the benchmark plays are checked against every print; a print one
   of them would falsely match is left out of the galleries, so that "match
   last" and "no match" mean what they say.
5. For each size, the same prints in the same order two ways: a list of
   serialized prints for the C floor, and a state directory in fpbridge's
   format (prints/USER/virtual_image/0/FINGER.json, ten fingers per user,
   users in name order: the order fpbridge offers them to libfprint).

Everything lands in the cache (~/.cache/fpbridge-bench, or $FPBRIDGE_BENCH_CACHE),
keyed by the generator's and the enroller's sources, so later runs reuse it.
"""
import base64
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ENROLL_BUDGET = 90      # seconds of reader work per process, well clear of the 180 s cut-off
SCORE_BUDGET = 90
CHUNK = 2000            # prints per identify when checking the probes (see score_in_chunks)
SPARES = 20             # enrolled beyond the largest gallery, to replace prints a probe would falsely match
UNENROLLED = 4          # fingers drawn but never enrolled: the no-match probes
FINGERS = ["left-thumb", "left-index", "left-middle", "left-ring", "left-little",
           "right-thumb", "right-index", "right-middle", "right-ring", "right-little"]
SEED = 9


def cache_root():
    explicit = os.environ.get("FPBRIDGE_BENCH_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fpbridge-bench")


def source_key():
    digest = hashlib.sha256()
    for name in ["gallery/synth.py", "c/gallery-enroll.c", "c/gallery.h"]:
        with open(os.path.join(BENCH, name), "rb") as file:
            digest.update(file.read())
    return digest.hexdigest()[:12]


class Gallery:
    """Galleries of several sizes over one pool of enrolled synthetic fingers."""

    def __init__(self, directory, pool, sizes, probes, rates):
        self.directory, self.pool, self.sizes, self.probes, self.rates = directory, pool, sizes, probes, rates

    def prints(self, size):
        return self.pool[:size]

    def list_file(self, size):
        """One serialized print a line, gallery order: what floor-identify reads."""
        return os.path.join(self.directory, f"list-{size}")

    def state_dir(self, size):
        """An fpbridge state directory holding exactly this gallery."""
        return os.path.join(self.directory, f"state-{size}")

    def image(self, finger, impression=2):
        return os.path.join(self.directory, "images", f"f{finger:04d}-{impression}.pgm")

    def probe(self, size, case):
        """The image played for a case: 'first', 'last' or 'none'."""
        return self.image(self.probes[(size, case)])

    def expected(self, size, case):
        """Who a case's probe is in the gallery: (position, user, finger) as write_state stores
        it, or None for 'none' (its finger is not enrolled)."""
        path = os.path.join(os.path.dirname(self.pool[0]), f"f{self.probes[(size, case)]:04d}.fp")
        if path not in self.pool[:size]:
            return None
        position = self.pool.index(path)
        return position, f"g{position // len(FINGERS):03d}", FINGERS[position % len(FINGERS)]


def run_batches(command, jobs, env, budget, parse):
    """Feeds jobs to a gallery program, a fresh process (a cold reader) each time it stops at its budget."""
    results = {}
    remaining = list(jobs)
    while remaining:
        started = time.time()
        process = subprocess.run(command + [str(budget)], input="".join(line + "\n" for line in remaining), env=env,
                                 capture_output=True, text=True)
        if process.returncode != 0:
            raise SystemExit(f"bench: {os.path.basename(command[0])} failed: {process.stderr.strip()[-2000:]}")
        done = [parse(line) for line in process.stdout.splitlines() if line.strip()]
        if not done:
            raise SystemExit(f"bench: {os.path.basename(command[0])} made no progress: {process.stderr.strip()[-2000:]}")
        for key, value in done:
            results[key] = value
        remaining = remaining[len(done):]
        print(f"bench: {os.path.basename(command[0])}: {len(results)}/{len(jobs)} "
              f"({time.time() - started:.0f} s this process)", file=sys.stderr)
    return results


def reader_env(directory, worker=0):
    socket = os.path.join(directory, f"vi-{worker}.sock")
    return dict(os.environ, FP_VIRTUAL_IMAGE=socket, FP_DRIVERS_WHITELIST="virtual_image",
                FP_DRIVERS_ALLOWLIST="virtual_image")


def on_every_core(directory, jobs, work):
    """work(part, env) over contiguous parts of jobs, one process chain per core, each with its
    own virtual_image socket; the parts' result dictionaries merged. NBIS is single-threaded, so
    this divides the first build of a gallery by the number of cores."""
    if not jobs:
        return {}
    workers = min(os.cpu_count() or 1, len(jobs))
    size = -(-len(jobs) // workers)
    parts = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(len(parts)) as pool:
        for part in pool.map(lambda indexed: work(indexed[1], reader_env(directory, indexed[0])), enumerate(parts)):
            results.update(part)
    return results


def score(tools, directory, list_file, probes):
    """gallery-score over probes: [(image, own, genuine_only)] -> {image: (genuine, [false lines])}."""
    jobs = [f"{image} {own}{' g' if only else ''}" for image, own, only in probes]
    return on_every_core(directory, jobs, lambda part, env: score_part(tools, list_file, part, env))


def score_in_chunks(tools, directory, paths, probes):
    """score() over a long gallery in chunks of at most CHUNK prints, the false matches' lines
    numbered in the whole list. One probe's identifies over every print (again after each false
    match) would otherwise run past libfprint's thermal limit in one process: at 10,000 prints
    an identify takes about 50 s, and a process only checks its budget between probes."""
    found = {}
    for start in range(0, len(paths), CHUNK):
        chunk = paths[start:start + CHUNK]
        chunk_list = os.path.join(directory, f"list-chunk-{start}")
        write_list(chunk_list, chunk)
        part = score(tools, directory, chunk_list,
                     [(image, own - start if start < own <= start + len(chunk) else 0, only) for image, own, only in probes])
        for image, (genuine, falses) in part.items():
            known, earlier = found.get(image, ("-", []))
            found[image] = (genuine if genuine != "-" else known, earlier + [start + line for line in falses])
    return found


def score_part(tools, list_file, jobs, env):
    def parse(line):
        fields = line.split()   # probe IMAGE genuine G false N [LINE...]
        return fields[1], (fields[3], [int(x) for x in fields[6:]])
    command = [os.path.join(tools, "gallery-score"), str(SCORE_BUDGET), list_file]
    results = {}
    remaining = jobs
    while remaining:
        process = subprocess.run(command, input="".join(j + "\n" for j in remaining), env=env,
                                 capture_output=True, text=True)
        if process.returncode != 0:
            raise SystemExit(f"bench: gallery-score failed: {process.stderr.strip()[-2000:]}")
        done = [parse(line) for line in process.stdout.splitlines() if line.startswith("probe ")]
        if not done:
            raise SystemExit(f"bench: gallery-score made no progress: {process.stderr.strip()[-2000:]}")
        results.update(done)
        remaining = remaining[len(done):]
    return results


def write_list(path, prints):
    with open(path, "w") as file:
        file.write("".join(p + "\n" for p in prints))


def write_state(state, prints):
    """fpbridge's store: one JSON record per print (PrintRecord, format 1), ten fingers per user."""
    os.makedirs(state, mode=0o700, exist_ok=True)
    os.chmod(state, 0o700)
    # No lockout in the way: the no-match rounds fail identification on purpose, again and again.
    with open(os.path.join(state, "config.json"), "w") as file:
        json.dump({"identificationLockoutThreshold": 1000, "identificationPermanentLockoutThreshold": 10000,
                   "biometricLockoutThreshold": 1000}, file)
    for position, path in enumerate(prints):
        user = f"g{position // len(FINGERS):03d}"
        finger = FINGERS[position % len(FINGERS)]
        folder = os.path.join(state, "prints", user, "virtual_image", "0")
        for level in [os.path.join(state, "prints"), os.path.join(state, "prints", user),
                      os.path.dirname(folder), folder]:
            os.makedirs(level, mode=0o700, exist_ok=True)
        with open(path, "rb") as file:
            data = file.read()
        record = {"enrolledAt": "2026-01-01T00:00:00.000Z", "finger": finger, "format": 1,
                  "print": base64.b64encode(data).decode(), "reader": {"deviceID": "0", "driver": "virtual_image"},
                  "storedOnDevice": False, "user": user}
        target = os.path.join(folder, finger + ".json")
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            json.dump(record, file, sort_keys=True, indent=2)


def build(sizes, tools, scored, log=lambda text: print(text, file=sys.stderr)):
    """Builds (or reuses) the galleries; sizes ascending. scored: fingers in the false-match measurement."""
    largest = max(sizes)
    enrolled = largest + SPARES
    directory = os.path.join(cache_root(), f"gallery-{source_key()}-{enrolled}")
    done = os.path.join(directory, "gallery.json")
    if os.path.exists(done):
        with open(done) as file:
            saved = json.load(file)
        if saved["sizes"] == sizes and saved["scored"] == scored:
            probes = {(int(k.split(":")[0]), k.split(":")[1]): v for k, v in saved["probes"].items()}
            return Gallery(directory, saved["pool"], sizes, probes, saved["rates"])
    started = time.time()
    images = os.path.join(directory, "images")
    os.makedirs(images, exist_ok=True)
    total = enrolled + UNENROLLED
    log(f"bench: drawing {total} synthetic fingers, 2 impressions each, into {images}")
    subprocess.run(["/usr/bin/python3", os.path.join(BENCH, "gallery", "synth.py"), "--fingers", str(total),
                    "--impressions", "2", "--seed", str(SEED), "--out", images], check=True)
    drawn = time.time()

    prints = os.path.join(directory, "prints")
    os.makedirs(prints, exist_ok=True)
    print_path = lambda f: os.path.join(prints, f"f{f:04d}.fp")
    jobs = [f"{os.path.join(images, f'f{f:04d}-1.pgm')} {print_path(f)}" for f in range(enrolled)
            if not os.path.exists(print_path(f))]
    log(f"bench: enrolling {len(jobs)} fingers on virtual_image (processes of at most {ENROLL_BUDGET} s)")

    def parse_enroll(line):
        fields = line.split()
        return fields[1], fields[0] == "ok"
    outcome = on_every_core(directory, jobs, lambda part, env: run_batches(
        [os.path.join(tools, "gallery-enroll")], part, env, ENROLL_BUDGET, parse_enroll))
    refused = [path for path, ok in outcome.items() if not ok]
    usable = [f for f in range(enrolled) if os.path.exists(print_path(f))]
    enrolled_at = time.time()

    # Genuine rate over every finger; false matches over the first `scored` (every ordered pair).
    everyone = os.path.join(directory, "list-all")
    write_list(everyone, [print_path(f) for f in usable])
    line_of = {f: i + 1 for i, f in enumerate(usable)}
    sample = usable[:scored]
    sample_list = os.path.join(directory, "list-scored")
    write_list(sample_list, [print_path(f) for f in sample])
    log(f"bench: scoring the gallery: genuine over {len(usable)} fingers, impostors over {len(sample)}x{len(sample) - 1} pairs")
    impostor = score(tools, directory, sample_list, [(os.path.join(images, f"f{f:04d}-2.pgm"), i + 1, False)
                                                      for i, f in enumerate(sample)])
    genuine = score(tools, directory, everyone, [(os.path.join(images, f"f{f:04d}-2.pgm"), line_of[f], True)
                                                 for f in usable[scored:]])
    genuine.update(impostor)
    matched = sum(1 for g, _ in genuine.values() if g == "1")
    false_pairs = sum(len(falses) for _, falses in impostor.values())
    rates = {"fingers": len(usable), "refused_at_enroll": len(refused), "genuine_matches": matched,
             "genuine_trials": len(genuine), "false_matches": false_pairs,
             "impostor_trials": len(sample) * (len(sample) - 1),
             "probes_with_false_match": sum(1 for _, falses in impostor.values() if falses)}

    # The probes: first and last of each gallery, and unenrolled fingers; no print they falsely match stays.
    pool = [f for f in usable if genuine.get(os.path.join(images, f"f{f:04d}-2.pgm"), ("0",))[0] == "1"]
    unenrolled = list(range(enrolled, total))
    for _ in range(5):
        probes = {}
        for size in sizes:
            probes[(size, "first")], probes[(size, "last")], probes[(size, "none")] = pool[0], pool[size - 1], unenrolled[0]
        checks = sorted(set(probes.values()))
        pool_list = os.path.join(directory, "list-pool")
        write_list(pool_list, [print_path(f) for f in pool])
        found = score_in_chunks(tools, directory, [print_path(f) for f in pool],
                                [(os.path.join(images, f"f{f:04d}-2.pgm"), pool.index(f) + 1 if f in pool else 0, False)
                                 for f in checks])
        offenders = {pool[line - 1] for _, falses in found.values() for line in falses}
        if not offenders:
            break
        log(f"bench: leaving out {len(offenders)} prints a probe falsely matches")
        pool = [f for f in pool if f not in offenders]
    else:
        raise SystemExit("bench: could not make the galleries free of false matches")
    if len(pool) < largest:
        raise SystemExit(f"bench: only {len(pool)} usable prints for a gallery of {largest}")
    pool_paths = [print_path(f) for f in pool]
    for size in sizes:
        write_list(os.path.join(directory, f"list-{size}"), pool_paths[:size])
        write_state(os.path.join(directory, f"state-{size}"), pool_paths[:size])
    rates["seconds"] = {"draw": round(drawn - started), "enroll": round(enrolled_at - drawn),
                        "score": round(time.time() - enrolled_at)}
    with open(done, "w") as file:
        json.dump({"sizes": sizes, "scored": scored, "pool": pool_paths[:largest], "rates": rates,
                   "probes": {f"{k[0]}:{k[1]}": v for k, v in probes.items()}}, file, indent=1)
    return Gallery(directory, pool_paths[:largest], sizes, probes, rates)
