"""Score-for-score fixtures for FPMatching's bozorth3: minutiae pairs and libfprint's own scores.

    python3 bench/bz3-fixture.py small   # -> Tests/FPMatchingTests/Fixtures/bozorth3-pairs.txt (CI)
    python3 bench/bz3-fixture.py large [PAIRS] [OUT]
        # -> $FPBRIDGE_BENCH_CACHE/bozorth3-large.txt by default, 100,000 pairs;
        #    then: FPMATCHING_FIXTURE=OUT swift test --filter FPMatchingTests
    python3 bench/bz3-fixture.py logcheck [PROBES]
        # checks the oracle itself: libfprint's verify and identify on virtual_image log
        # every score (G_MESSAGES_DEBUG); they must equal bz3-oracle's for the same pairs

What goes in (docs/bozorth3.md §11.4 lists what the test has to cover):
  - bench: the cached bench gallery (bench/gallery.py; ~/.cache/fpbridge-bench/gallery-*),
    its enrolled prints' samples, and each finger's second impression enrolled here on
    virtual_image the same way (a verify's probe is that scan's minutiae, made by the same
    code path), so genuine pairs and impostor pairs of real libfprint minutiae;
  - cuts: those sets cut to 9, 10 and 11 minutiae on either side (fewer than 10 scores 0);
  - 200-minutia sets, sparse and dense, and grids that fill the correspondence list;
  - random sets, and genuine-like variants of them and of bench sets (moved, turned,
    jittered, minutiae dropped and added), stored sorted by x then y as libfprint stores;
  - odd ones: only the four axis angles, repeated points, unsorted arrays, angles outside
    (-180, 180]; crafted values up to the whole int32 range; adversarial sets (repeated
    minutiae) scored each under a time limit.
The scores come from bench/c/bz3-oracle (libfprint's compiled bozorth3, called in place,
correspondence list cleared before each pair). The file format is in
Tests/FPMatchingTests/Fixtures/README.md.
"""
import glob
import os
import random
import subprocess
import sys

from gallery import cache_root

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
SMALL = os.path.join(ROOT, "Tests", "FPMatchingTests", "Fixtures", "bozorth3-pairs.txt")


def tools(out):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libfprint-2"], check=True,
                           capture_output=True, text=True).stdout.split()
    for name in ["bz3-oracle", "gallery-enroll", "gallery-score"]:
        subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", os.path.join(out, name),
                        os.path.join(BENCH, "c", name + ".c")] + flags + ["-ldl"], check=True)


def parse_sets(text):
    sets = {}
    for line in text.splitlines():
        fields = line.split()
        if fields and fields[0] == "set":
            n = int(fields[2])
            v = [int(x) for x in fields[3:3 + 3 * n]]
            sets[fields[1]] = [tuple(v[3 * i:3 * i + 3]) for i in range(n)]
    return sets


def bench_sets(work):
    """{name: points}: sample 0 of each enrolled print (g...) and of each second impression (p...)."""
    galleries = sorted(glob.glob(os.path.join(cache_root(), "gallery-*")))
    if not galleries:
        raise SystemExit("bz3-fixture: no bench gallery cached; run bench/run.py once (it builds one)")
    gallery = galleries[-1]
    probes = os.path.join(gallery, "probe-prints")
    os.makedirs(probes, exist_ok=True)
    images = sorted(glob.glob(os.path.join(gallery, "images", "f*-2.pgm")))
    jobs = []
    for image in images:
        out = os.path.join(probes, os.path.basename(image)[:5] + ".fp")
        if not os.path.exists(out):
            jobs.append(f"{image} {out}\n")
    if jobs:
        socket = os.path.join(work, "vi.sock")
        env = dict(os.environ, FP_VIRTUAL_IMAGE=socket, FP_DRIVERS_WHITELIST="virtual_image",
                   FP_DRIVERS_ALLOWLIST="virtual_image")
        subprocess.run([os.path.join(work, "gallery-enroll"), "150"], input="".join(jobs), env=env,
                       check=True, capture_output=True, text=True)
    dump = lambda prefix, paths: subprocess.run([os.path.join(work, "bz3-oracle"), "dump", prefix] + paths,
                                                check=True, capture_output=True, text=True).stdout
    enrolled = sorted(glob.glob(os.path.join(gallery, "prints", "*.fp")))
    scanned = sorted(glob.glob(os.path.join(probes, "*.fp")))
    every = parse_sets(dump("g", enrolled) + dump("p", scanned))
    # virtual_image enrolls the same image five times: keep a sample only when it differs.
    kept = {}
    for name, points in every.items():
        base, sample = name.rsplit(".", 1)
        if sample == "s0" or points != every[base + ".s0"]:
            kept[name.replace(".s0", "")] = points
    return kept


def nist_angle(code):
    """A mindtct direction code (0..31) in libfprint's stored convention."""
    t = (270 - (code * 1125) // 100) % 360
    return t - 360 if t > 180 else t


def wrap(t):
    t %= 360
    return t - 360 if t > 180 else t


def store(points):
    """Sorted by x then y, as libfprint stores a sample."""
    return sorted(points, key=lambda p: (p[0], p[1]))


def random_set(rng, n, width=256, height=360):
    return store([(rng.randrange(width), rng.randrange(height), nist_angle(rng.randrange(32))) for _ in range(n)])


def variant(rng, points, move=20, turn=15, jitter=3, drop=0.15, add=0.15):
    """An impression-like copy: moved, turned about the centre, jittered, some points lost and some new."""
    import math
    dx, dy, a = rng.randint(-move, move), rng.randint(-move, move), rng.randint(-turn, turn)
    cx = sum(p[0] for p in points) / max(1, len(points))
    cy = sum(p[1] for p in points) / max(1, len(points))
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    out = []
    for x, y, t in points:
        if rng.random() < drop:
            continue
        u, v = x - cx, y - cy
        out.append((round(cx + c * u - s * v) + dx + rng.randint(-jitter, jitter),
                    round(cy + s * u + c * v) + dy + rng.randint(-jitter, jitter),
                    wrap(t + a + rng.choice([0, 0, 0, 11, -11, 12, -12]))))
    for _ in range(int(len(points) * add)):
        out.append((rng.randrange(256), rng.randrange(360), nist_angle(rng.randrange(32))))
    return store(out[:200])


def odd_sets(rng):
    sets = {}
    sets["grid"] = [(10 + 12 * (i // 10), 10 + 12 * (i % 10), 0) for i in range(200)]
    sets["dense200"] = random_set(rng, 200, 90, 90)
    sets["axes60"] = store([(rng.randrange(120), rng.randrange(120), rng.choice([0, 90, 180, -90])) for _ in range(60)])
    base = random_set(rng, 8)
    sets["repeats"] = store([p for p in base for _ in range(2)])
    sets["unsorted50"] = random_set(rng, 50)[::-1]
    sets["shuffled70"] = rng.sample(random_set(rng, 70), 70)
    sets["wideangles40"] = store([(x, y, rng.choice([t, t + 360, t - 360, -180, 181, 359, -359]))
                                  for x, y, t in random_set(rng, 40)])
    return sets


def build(kind, pairs_wanted, out):
    work = os.path.join(cache_root(), "bz3-oracle")
    os.makedirs(work, exist_ok=True)
    tools(work)
    rng = random.Random(26)
    sets = {}
    pairs = []
    bench = bench_sets(work)
    sets.update(bench)
    gallery = sorted(n for n in bench if n.startswith("gf"))
    probes = sorted(n for n in bench if n.startswith("pf"))
    genuine = [(p, "g" + p[1:]) for p in probes if "g" + p[1:] in bench]
    impostors = [(p, g) for p in probes for g in gallery if g[1:] != p[1:]]
    if kind == "small":
        # Kept light for CI's debug build: genuine bench pairs are the slowest realistic ones.
        pairs += genuine[:12] + rng.sample(impostors, 150) + [(g, g) for g in gallery[:3]]
    else:
        pairs += genuine + impostors + [(g, g) for g in gallery] + [(p, p) for p in probes]
    # Cuts to 9, 10 and 11 minutiae, on either side and both.
    for p, g in (genuine[:6] if kind == "small" else genuine):
        for m in (9, 10, 11):
            pairs += [(f"{p}:{m}", g), (p, f"{g}:{m}"), (f"{p}:{m}", f"{g}:{m}")]
    # 200-minutia sets and the dense ones.
    for i in range(2 if kind == "small" else 12):
        a, b = random_set(rng, 200), random_set(rng, 200)
        sets[f"r200a{i}"], sets[f"r200b{i}"] = a, b
        sets[f"r200v{i}"] = variant(rng, a)
        pairs += [(f"r200a{i}", f"r200a{i}"), (f"r200a{i}", f"r200b{i}"), (f"r200a{i}", f"r200v{i}"),
                  (f"r200v{i}", f"r200a{i}")]
    odd = odd_sets(rng)
    sets.update(odd)
    pairs += [("grid", "grid"), ("dense200", "dense200"), ("dense200", "grid"), ("axes60", "axes60"),
              ("repeats", "repeats"), ("unsorted50", "unsorted50"), ("shuffled70", "shuffled70"),
              ("wideangles40", "wideangles40"), ("grid", "dense200")]
    # Crafted stored prints: any int32 is a value a stored print can hold (32-bit wrapping in
    # the library), huge coordinates, angles far outside (-180, 180].
    for i in range(30 if kind == "small" else 300):
        mode = i % 3
        low, high, turn = [(-2**31, 2**31 - 1, 2**31 - 1), (-70000, 70000, 1000), (0, 100, 400)][mode]
        for side in "ab":
            n = rng.randint(10, 40 if kind == "small" else 80)
            sets[f"crafted{side}{i}"] = store([(rng.randint(low, high), rng.randint(low, high), rng.randint(-turn, turn))
                                               for _ in range(n)])
        pairs += [(f"crafteda{i}", f"crafteda{i}"), (f"crafteda{i}", f"craftedb{i}")]
    # Genuine-like variants of bench sets and random sets, plus their impostors.
    count = 0
    while len(pairs) < pairs_wanted:
        source = rng.choice([None, None] + gallery + probes)
        # Mostly the sizes libfprint's scans have (40-90 minutiae), some small, some full.
        n = rng.choice([rng.randint(5, 40), rng.randint(10, 120), rng.randint(40, 90), rng.randint(40, 90),
                        rng.randint(150, 200) if kind == "large" else rng.randint(90, 130)])
        base = f"b{count}"
        sets[base] = random_set(rng, n) if source is None else sets[source]
        if source is not None:
            base = source
        kinds = rng.randrange(4)
        v = f"v{count}"
        sets[v] = variant(rng, sets[base], move=rng.choice([5, 20, 60]), turn=rng.choice([0, 10, 40]),
                          jitter=rng.choice([0, 2, 5]), drop=rng.choice([0, 0.1, 0.4]), add=rng.choice([0, 0.1, 0.4]))
        if kinds == 0:
            pairs += [(base, v), (v, base)]
        elif kinds == 1:
            pairs += [(v, rng.choice(gallery))]
        elif kinds == 2:
            m = rng.choice([9, 10, 11, 12, 15])
            pairs += [(f"{v}:{m}", base), (base, f"{v}:{m}")]
        else:
            pairs += [(base, v)]
        count += 1
    used = set()
    for p, g in pairs:
        used.add(p.split(":")[0])
        used.add(g.split(":")[0])
    lines = ["# bozorth3 score-for-score fixture (bench/bz3-fixture.py %s): libfprint 1.94.5's scores, fresh semantics\n" % kind]
    for name in sorted(used):
        points = sets[name]
        lines.append(f"set {name} {len(points)} " + " ".join(f"{x} {y} {t}" for x, y, t in points) + "\n")
    lines += [f"pair {p} {g}\n" for p, g in pairs]
    scored = subprocess.run([os.path.join(work, "bz3-oracle"), "score"], input="".join(lines), check=True,
                            capture_output=True, text=True)
    sys.stderr.write(scored.stderr)
    text = scored.stdout
    text += adversarial(work, rng, light=kind == "small")
    with open(out, "w") as file:
        file.write(text)
    print(f"bz3-fixture: {text.count(chr(10) + 'pair ')} pairs -> {out}", file=sys.stderr)


def adversarial(work, rng, seconds=10, light=False):
    """Sets made to push bozorth3 to its limits (repeated minutiae: many conflict groups,
    long candidate lists, thousands of clusters), each scored by its own oracle process
    with a time limit: bozorth3's work is unbounded (docs/bozorth3.md §6.7), and a pair
    libfprint does not finish in `seconds` is left out (and counted)."""
    made = {}
    # light: few and small, for CI's debug build (dozens of milliseconds each in release).
    reps = 6 if light else 12
    for i in range(reps):
        distinct = rng.choice([2, 3, 4] if light else [2, 3, 4, 6, 10, 20])
        repeat = rng.choice([2, 3] if light else [2, 3, 5, 6])
        base = random_set(rng, distinct, 100, 100)
        points = store([p for p in base for _ in range(repeat)])
        made[f"rep{i}"] = points[:200]
        made[f"repv{i}"] = store([(x + rng.randint(-1, 1), y + rng.randint(-1, 1), t) for x, y, t in points[:200]])
    if not light:
        made["twopoints"] = store([(40, 40, 45)] * 5 + [(60, 70, -90)] * 6)
    for i in range(3 if light else 6):
        made[f"cluster{i}"] = store([(rng.randrange(60), rng.randrange(60), rng.choice([0, 90, 180, -90, 45]))
                                     for _ in range(rng.choice([30] if light else [30, 60, 120, 200]))])
    pairs = [(n, n) for n in made] + [(f"rep{i}", f"repv{i}") for i in range(reps)]
    text, skipped = "", 0
    for p, g in pairs:
        body = "".join(f"set {n} {len(made[n])} " + " ".join(f"{x} {y} {t}" for x, y, t in made[n]) + "\n"
                       for n in sorted({p, g}))
        try:
            scored = subprocess.run([os.path.join(work, "bz3-oracle"), "score"], input=body + f"pair {p} {g}\n",
                                    check=True, capture_output=True, text=True, timeout=seconds)
        except subprocess.TimeoutExpired:
            skipped += 1
            continue
        # A set of two pairs is written twice, the same both times.
        text += scored.stdout
    print(f"bz3-fixture: adversarial: {len(pairs) - skipped} pairs scored, {skipped} left out after {seconds} s",
          file=sys.stderr)
    return text


def logcheck(probes_wanted):
    """The oracle against libfprint's real path: each bench probe image verified against its own
    print (one score: the first sample matches) and identified over the others (five scores a
    print, none matches), scores read from libfprint's debug log."""
    import re
    work = os.path.join(cache_root(), "bz3-oracle")
    os.makedirs(work, exist_ok=True)
    tools(work)
    sets = bench_sets(work)
    gallery = sorted(glob.glob(os.path.join(cache_root(), "gallery-*")))[-1]
    listed = [line.strip() for line in open(os.path.join(gallery, "list-scored")) if line.strip()]
    order = [os.path.basename(path)[:5] for path in listed]
    jobs = "".join(f"{os.path.join(gallery, 'images', f + '-2.pgm')} {i + 1}\n" for i, f in enumerate(order[:probes_wanted]))
    env = dict(os.environ, G_MESSAGES_DEBUG="libfprint-print", FP_VIRTUAL_IMAGE=os.path.join(work, "vi.sock"),
               FP_DRIVERS_WHITELIST="virtual_image", FP_DRIVERS_ALLOWLIST="virtual_image")
    log = subprocess.run([os.path.join(work, "gallery-score"), "150", os.path.join(gallery, "list-scored")],
                         input=jobs, env=env, capture_output=True, text=True, check=True)
    expected, logged, scores = [], [], []
    for line in (log.stdout + log.stderr).splitlines():
        found = re.search(r"score (-?\d+)/\d+", line)
        if found:
            scores.append(int(found.group(1)))
        elif line.startswith("probe "):
            own = os.path.basename(line.split()[1])[:5]
            pairs = [("p" + own, "g" + own)] + [("p" + own, "g" + f) for f in order if f != own for _ in range(5)]
            if len(pairs) != len(scores):
                raise SystemExit(f"bz3-fixture: {own}: {len(scores)} scores logged, {len(pairs)} expected")
            expected += pairs
            logged += scores
            scores = []
    lines = [f"set {n} {len(sets[n])} " + " ".join(f"{x} {y} {t}" for x, y, t in sets[n]) + "\n"
             for n in sorted({name for pair in expected for name in pair})]
    lines += [f"pair {p} {g}\n" for p, g in expected]
    scored = subprocess.run([os.path.join(work, "bz3-oracle"), "score"], input="".join(lines), check=True,
                            capture_output=True, text=True).stdout
    oracle = [int(line.split()[3]) for line in scored.splitlines() if line.startswith("pair ")]
    differing = sum(1 for a, b in zip(logged, oracle) if a != b)
    print(f"bz3-fixture: {len(logged)} scores from libfprint's log, {differing} differ from bz3-oracle's")
    if differing:
        raise SystemExit(1)


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "small"
    if kind == "small":
        build("small", 400, SMALL)
    elif kind == "large":
        wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
        out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(cache_root(), "bozorth3-large.txt")
        build("large", wanted, out)
    elif kind == "logcheck":
        logcheck(int(sys.argv[2]) if len(sys.argv) > 2 else 30)
    else:
        raise SystemExit("usage: bz3-fixture.py small | large [PAIRS] [OUT] | logcheck [PROBES]")
