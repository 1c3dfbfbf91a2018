"""Accuracy of 1:N identification: how often the kiosk welcomes the wrong person.

    python3 bench/accuracy.py --bin .build/release [--smoke] [--sizes 100,1000,10000] [--jobs 2]

Measures, on synthetic fingers taken by a small sensor (bench/gallery/small_sensor.py)
and enrolled through libfprint (5 distinct samples a print, 2 fingers a person),
every print kept (none pruned):

- at each gallery size (100, 1,000, 10,000 prints), on a HELD-OUT seed the
  tuning never saw: the false positive identification rate (strangers, never
  enrolled, welcomed as someone), the wrong-person rate (enrolled people
  identified as someone else) and the genuine acceptance on the first touch,
  each with its exact 95 % interval (Clopper-Pearson), for the OLD rule
  (libfprint's: the first print in gallery order whose bozorth3 score reaches
  40) and the NEW rule (fpbridge-accuracy's NewRule, the project's 1:N decision;
  a second touch, the probe's next impression, when it asks for one), and how
  often bozorth3's step cap was met;
- a DET curve per size (bench/figures/accuracy-det-N.png): the old rule over
  its threshold, the new rule over its target stranger rate, on the same probes;
- on the TUNING seed (9): the impostor score tail, the fraction of impostor
  pairs scoring >= t for t = 30..120 per sample and per print (best of its
  samples), with a log-linear fit (bench/tuning/impostor-tail.json), and the
  genuine score distribution;
- the real images (../shared/prints, the replays' captures): what libfprint
  finds in them beside the synthetic impressions (see the report's notes).

Scores come from the project's bozorth3 (score-for-score libfprint's) through
fpbridge-accuracy, cached under ~/.cache/fpbridge-bench: a second run computes
only what is new. The figures are printed, never asserted.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

import accuracy_stats as stats
import gallery
from accuracy_population import Population, person

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
SENSOR = "small"
TUNING_SEED, HELD_OUT_SEED = 9, 51
OLD_THRESHOLD = 40
DEFAULT_TARGET = 1e-3
TARGETS = [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1]
TAIL_THRESHOLDS = list(range(20, 121))   # the fit takes t >= FIT_FROM
FIT_FROM = 30
# The full run, and a smoke run of tiny galleries (a minute or two).
# 2,000 strangers: with none welcomed, the 95 % interval's upper end is 0.18 % (1,000 would give 0.37 %).
FULL = {"sizes": [100, 1000, 10000], "strangers": 2000, "tuning": (1000, 300, range(0, 1000, 5)),
        # 10,000 prints are scored on their first 2 distinct samples by default (--samples-10000 5 for all
        # five: 2.5 times the 20 minutes, at about 40,000 impostor comparisons a second on two cores).
        "samples": {100: 5, 1000: 5, 10000: 2}}
SMOKE = {"sizes": [20, 60], "strangers": 40, "tuning": (60, 30, range(0, 60, 3)), "samples": {20: 5, 60: 5}}


def genuine_picks(size):
    """The enrolled fingers probed at a size: every one up to 100, then evenly spread (500)."""
    step = max(1, size // 500) if size > 100 else 1
    return list(range(0, size, step))


def compile_enroller(out):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libfprint-2"], check=True,
                           capture_output=True, text=True).stdout.split()
    os.makedirs(out, exist_ok=True)
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", os.path.join(out, "gallery-enroll"),
                    os.path.join(BENCH, "c", "gallery-enroll.c")] + flags, check=True)
    return out


def write_lines(path, lines):
    with open(path, "w") as file:
        file.write("".join(line + "\n" for line in lines))


def tool(arguments, command, *options):
    """Runs fpbridge-accuracy; its last stdout line is its JSON summary."""
    process = subprocess.run(["nice", "-n", "19", os.path.join(arguments.bin, "fpbridge-accuracy"), command,
                              "--jobs", str(arguments.jobs), "--cache", os.path.join(gallery.cache_root(), "accuracy-scores"),
                              *options], check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(process.stdout.strip().splitlines()[-1])


def print_scores(matrix):
    """(probes, prints) best score of each print's samples; -1 where none has a score."""
    return np.where(matrix >= 0, matrix, -1).max(axis=2)


def tune(arguments, population, work):
    """Impostor tail and genuine distribution on the tuning seed, every print's 5 samples."""
    fingers = population.gallery_fingers()
    gallery_file = os.path.join(work, "tuning-gallery.txt")
    write_lines(gallery_file, [f"{person(f)} {population.gallery_print(f)}" for f in fingers])
    probes = [(f, p[0]) for f in population.strangers + population.genuine if (p := population.probe_prints(f))]
    probe_file = os.path.join(work, "tuning-probes.txt")
    write_lines(probe_file, [path for _, path in probes])
    out = os.path.join(work, "tuning.i16")
    summary = tool(arguments, "scores", "--gallery", gallery_file, "--probes", probe_file, "--samples", "5", "--out", out)
    matrix = np.fromfile(out, dtype="<i2").reshape(len(probes), len(fingers), 5)
    owners = np.array([person(f) for f in fingers])
    per_sample, per_print, per_stranger, mated, mated_samples = [], [], [], [], []
    best = print_scores(matrix)
    for row, (finger, _) in enumerate(probes):
        stranger = finger >= len(fingers) and finger not in fingers
        impostor = np.ones(len(fingers), bool) if stranger else owners != person(finger)
        if stranger:
            per_stranger.append(int(best[row].max()))
        slots = matrix[row][impostor]
        per_sample.extend(slots[slots >= 0].tolist())
        per_print.extend(best[row][impostor][best[row][impostor] >= 0].tolist())
        if not stranger and finger in fingers:
            own = fingers.index(finger)
            mated.append(int(best[row, own]))
            mated_samples.extend(matrix[row, own][matrix[row, own] >= 0].tolist())
    sample_tail, print_tail = stats.tail(per_sample, TAIL_THRESHOLDS), stats.tail(per_print, TAIL_THRESHOLDS)
    result = {
        "about": "Impostor bozorth3 scores on the tuning seed (bench/accuracy.py): pairs of a probe (a stranger's touch, "
                 "or an enrolled finger's against other people's prints) and a print; perSample counts each of the "
                 "print's distinct samples, perPrint the best of them. tail[t] = pairs scoring >= t; the fit is "
                 "least squares of ln(fraction) on t over t >= 30 where at least 3 pairs were counted, weighted by count.",
        "seed": population.seed, "sensor": SENSOR, "prints": len(fingers), "samplesPerPrint": summary["distinctSamples"],
        "impostorProbes": len(probes), "capped": summary["capped"],
        "perSample": {"pairs": len(per_sample), "fit": fit(sample_tail), "tail": sample_tail},
        "perPrint": {"pairs": len(per_print), "fit": fit(print_tail), "tail": print_tail},
        # The best print of the whole gallery for each stranger: what libfprint's and any 1:N rule face.
        "perIdentification": {"strangers": len(per_stranger), "prints": len(fingers),
                              "tail": stats.tail(per_stranger, TAIL_THRESHOLDS)},
        "genuine": distribution(mated, mated_samples),
    }
    return result


def fit(tail):
    return stats.log_linear_fit([row for row in tail if row["t"] >= FIT_FROM])


def distribution(per_print, per_sample):
    """Percentiles of genuine scores and the share under the 1:1 threshold."""
    def describe(values):
        if not values:
            return None
        a = np.array(values)
        return {"count": len(a), "min": int(a.min()), "p10": float(np.percentile(a, 10)), "median": float(np.median(a)),
                "p90": float(np.percentile(a, 90)), "below40": int((a < OLD_THRESHOLD).sum())}
    return {"perPrint": describe(per_print), "perSample": describe(per_sample)}


def tail_option(tuning):
    """The tuning seed's per-sample fit as fpbridge-accuracy's --tail (reference 40, rate, points a decade)."""
    fit = tuning["perSample"]["fit"]
    if not fit or fit["b"] >= 0:
        return []
    rate = math.exp(fit["a"] + fit["b"] * OLD_THRESHOLD)
    return ["--tail", f"{OLD_THRESHOLD},{rate:.6g},{fit['decade_per_points']:.4f}"]


def measure(arguments, population, size, samples, work, tail):
    """Both rules at one gallery size, on the held-out seed."""
    fingers = population.gallery_fingers()[:size]
    if len(fingers) < size:
        raise SystemExit(f"accuracy: only {len(fingers)} prints enrolled for a gallery of {size}")
    index_of = {f: i for i, f in enumerate(fingers)}
    gallery_file = os.path.join(work, f"gallery-{size}.txt")
    write_lines(gallery_file, [f"{person(f)} {population.gallery_print(f)}" for f in fingers])
    genuine = [f for f in genuine_picks(size) if f in index_of]
    trials, unscannable = [], {"genuine": 0, "strangers": 0}
    for kind, group in [("g", genuine), ("s", population.strangers)]:
        for f in group:
            touches = population.probe_prints(f)
            if not touches or touches[0] != population.probe_print(f, 6):
                unscannable["genuine" if kind == "g" else "strangers"] += 1     # the first touch was refused
                continue
            trials.append((kind, f, touches))
    trial_file = os.path.join(work, f"trials-{size}.txt")
    write_lines(trial_file, [f"{k}{f} {' '.join(t)}" for k, f, t in trials])
    matrix_file, decision_file = os.path.join(work, f"first-{size}.i16"), os.path.join(work, f"decisions-{size}.jsonl")
    started = time.time()
    summary = tool(arguments, "decide", "--gallery", gallery_file, "--trials", trial_file, "--samples", str(samples),
                   "--targets", ",".join(str(t) for t in TARGETS), "--matrix", matrix_file, "--out", decision_file, *tail)
    seconds = time.time() - started
    matrix = np.fromfile(matrix_file, dtype="<i2").reshape(len(trials), size, 5)
    best = print_scores(matrix)
    owners = np.array([person(f) for f in fingers])
    is_genuine = np.array([k == "g" for k, _, _ in trials])
    truth = np.array([person(f) if k == "g" else "" for k, f, _ in trials])

    def old_rule(threshold):
        hit = best >= threshold
        found = hit.any(axis=1)
        first = hit.argmax(axis=1)
        correct = found & (owners[first] == truth)
        return found, correct

    def counts(found, correct, touches=None):
        g, s = is_genuine, ~is_genuine
        row = {"strangersWelcomed": stats.rate(int((found & s).sum()), int(s.sum())),
               "wrongPerson": stats.rate(int((found & ~correct & g).sum()), int(g.sum())),
               "rightPersonFirstTouch": stats.rate(int((correct & g & (touches == 1 if touches is not None else True)).sum()),
                                                   int(g.sum()))}
        if touches is not None:
            row["rightPersonAfterSecondTouch"] = stats.rate(int((correct & g).sum()), int(g.sum()))
            row["secondTouchAsked"] = stats.rate(int((touches > 1).sum()), len(touches))
        return row

    found, correct = old_rule(OLD_THRESHOLD)
    old = counts(found, correct)
    old_det = []
    for t in range(20, 151, 2):
        f_, c_ = old_rule(t)
        old_det.append((t, float((f_ & ~is_genuine).mean() / max((~is_genuine).mean(), 1e-12)),
                        float(1 - (c_ & is_genuine).sum() / max(is_genuine.sum(), 1))))
    decisions = {}
    with open(decision_file) as file:
        for line in file:
            d = json.loads(line)
            decisions.setdefault(d["target"], {})[d["trial"]] = d
    new_by_target, new_det = {}, []
    for target in TARGETS:
        chosen = [decisions[target][f"{k}{f}"] for k, f, _ in trials]
        found_n = np.array([d["decision"] == "identified" for d in chosen])
        picked = np.array([d["index"] if d["index"] is not None else 0 for d in chosen])
        correct_n = found_n & (owners[picked] == truth)
        touches = np.array([d["touches"] for d in chosen])
        new_by_target[target] = counts(found_n, correct_n, touches)
        new_det.append((target, new_by_target[target]["strangersWelcomed"]["rate"] or 0.0,
                        1 - (new_by_target[target]["rightPersonAfterSecondTouch"]["rate"] or 0.0)))
    badge = measure_badge(arguments, trials, fingers, gallery_file, samples, work, tail, counts, owners, truth, is_genuine)
    mated = [int(best[r, index_of[f]]) for r, (k, f, _) in enumerate(trials) if k == "g"]
    mated_samples = [int(v) for r, (k, f, _) in enumerate(trials) if k == "g" for v in matrix[r, index_of[f]] if v >= 0]
    capped_probes = int((matrix == -1).any(axis=(1, 2)).sum())
    return {"size": size, "samplesScored": samples, "genuineTrials": int(is_genuine.sum()),
            "strangerTrials": int((~is_genuine).sum()), "firstTouchUnscannable": unscannable,
            "enrollRefused": len(population.refused), "old": old, "new": new_by_target[DEFAULT_TARGET], "badge": badge,
            "newByTarget": {str(k): v for k, v in new_by_target.items()}, "rule": summary.get("rule"),
            "threshold": summary.get("thresholdAtDefaultTarget"), "comparisonsPerTouch": summary.get("comparisons"),
            "tail": tail[1] if tail else "FPMatching's ImpostorTail.bozorth3",
            "decidedBy": rules_count(decisions[DEFAULT_TARGET], trials),
            # Over every first touch's comparisons (cached or not); later touches are counted by the tool as it scores them.
            "stepCap": {"firstTouchComparisonsMeetingIt": int((matrix == -1).sum()),
                        "firstTouchComparisons": int((matrix[:, :, :samples] >= -1).sum()),
                        "probesMeetingIt": capped_probes, "metThisRun": summary["capped"], "computedThisRun": summary["computed"],
                        "laterTouches": summary.get("laterTouches"), "laterTouchComparisonsMeetingIt": summary.get("laterTouchesCapped")},
            "genuine": distribution(mated, mated_samples), "seconds": round(seconds), "det": {"old": old_det, "new": new_det}}


def measure_badge(arguments, trials, fingers, gallery_file, samples, work, tail, counts, owners, truth, is_genuine):
    """Badge and finger on the same probes: each touch compared with one named person's prints
    alone (fpbridged's claimedUser), at that small gallery's threshold. An enrolled finger names
    its own person; a stranger names an enrolled person picked by a fixed rule (a guesser with
    somebody's badge number). The same NewRule decides; only the candidates and comparisons differ."""
    size = len(fingers)
    claims = [person(f) if k == "g" else person(fingers[(f * 7919) % size]) for k, f, _ in trials]
    trial_file = os.path.join(work, f"badge-trials-{size}.txt")
    write_lines(trial_file, [f"b{k}{f} claim={c} {' '.join(t)}" for (k, f, t), c in zip(trials, claims)])
    matrix_file, decision_file = os.path.join(work, f"badge-first-{size}.i16"), os.path.join(work, f"badge-decisions-{size}.jsonl")
    tool(arguments, "decide", "--gallery", gallery_file, "--trials", trial_file, "--samples", str(samples),
         "--targets", str(DEFAULT_TARGET), "--matrix", matrix_file, "--out", decision_file, *tail)
    with open(decision_file) as file:
        decided = {d["trial"]: d for d in map(json.loads, file)}
    chosen = [decided[f"b{k}{f}"] for k, f, _ in trials]
    found = np.array([d["decision"] == "identified" for d in chosen])
    picked = np.array([d["index"] if d["index"] is not None else 0 for d in chosen])
    correct = found & (owners[picked] == truth)
    row = counts(found, correct, np.array([d["touches"] for d in chosen]))
    row["decidedBy"] = rules_count({trial[1:]: d for trial, d in decided.items()}, trials)
    return row


def rules_count(decided, trials):
    """How often each of IdentificationRules' rules decided, strangers and enrolled apart."""
    counts = {}
    for k, f, _ in trials:
        d = decided[f"{k}{f}"]
        key = ("genuine" if k == "g" else "strangers") + ":" + d["decision"] + "/" + d["rule"]
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def real_images(arguments, tools, work):
    """What libfprint finds in the real images, beside the synthetic ones: minutiae counts and
    the real images scored against each other (all different fingers: impostor pairs only)."""
    import matplotlib.image
    images = os.path.join(work, "real")
    os.makedirs(images, exist_ok=True)
    sources = {f"nist-{os.path.splitext(n)[0]}": os.path.join(ROOT, "..", "shared", "prints", n)
               for n in ["arch.pgm", "loop-right.pgm", "tented_arch.pgm", "whorl.pgm"]}
    sources.update({f"replay-{r}": os.path.join(ROOT, "..", "shared", "replays", r, "capture.png") for r in ["aes3500", "elan"]})
    jobs, prints = [], {}
    for name, source in sources.items():
        if not os.path.exists(source):
            continue
        pgm = os.path.join(images, name + ".pgm")
        if source.endswith(".png"):
            pixels = matplotlib.image.imread(source)
            grey = pixels[..., 0] if pixels.ndim == 3 else pixels
            grey = (grey * 255).round().astype(np.uint8) if grey.dtype != np.uint8 else grey
            with open(pgm, "wb") as file:
                file.write(b"P5\n%d %d\n255\n" % (grey.shape[1], grey.shape[0]) + grey.tobytes())
        else:
            with open(source, "rb") as inp, open(pgm, "wb") as file:
                file.write(inp.read())
        prints[name] = os.path.join(images, name + ".fp")
        jobs.append(f"{pgm} {prints[name]}")
    outcome = gallery.run_batches([os.path.join(tools, "gallery-enroll")], jobs, gallery.reader_env(work, 9), 60,
                                  lambda line: (line.split()[1], line.split()[0] == "ok"))
    enrolled = [n for n, p in prints.items() if outcome.get(p)]
    listing = os.path.join(work, "real-prints.txt")
    write_lines(listing, [prints[n] for n in enrolled])
    described = subprocess.run([os.path.join(arguments.bin, "fpbridge-accuracy"), "describe", "--prints", listing],
                               check=True, capture_output=True, text=True).stdout.splitlines()
    minutiae = {n: json.loads(line)["minutiae"][0] for n, line in zip(enrolled, described)}
    gallery_file = os.path.join(work, "real-gallery.txt")
    write_lines(gallery_file, [f"{n} {prints[n]}" for n in enrolled])
    out = os.path.join(work, "real.i16")
    tool(arguments, "scores", "--gallery", gallery_file, "--probes", listing, "--samples", "1", "--out", out)
    matrix = np.fromfile(out, dtype="<i2").reshape(len(enrolled), len(enrolled), 5)[:, :, 0]
    cross = {f"{a} vs {b}": int(matrix[i, j]) for i, a in enumerate(enrolled) for j, b in enumerate(enrolled) if i != j}
    own = {n: int(matrix[i, i]) for i, n in enumerate(enrolled)}
    return {"refused": sorted(set(sources) - set(enrolled)), "minutiae": minutiae, "impostorScores": cross,
            "sameImageScores": own}


def synthetic_minutiae(arguments, population, work, count=200):
    fingers = population.gallery_fingers()[:count]
    listing = os.path.join(work, "synthetic-prints.txt")
    write_lines(listing, [population.gallery_print(f) for f in fingers])
    lines = subprocess.run([os.path.join(arguments.bin, "fpbridge-accuracy"), "describe", "--prints", listing],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    counts = np.array([m for line in lines for m in json.loads(line)["minutiae"]])
    return {"samples": len(counts), "median": float(np.median(counts)), "p10": float(np.percentile(counts, 10)),
            "p90": float(np.percentile(counts, 90))}


def report(results):
    lines = []
    for r in results["sizes"]:
        lines.append(f"\n{r['size']:,} prints ({r['samplesScored']} samples a print scored; {r['strangerTrials']} strangers, "
                     f"{r['genuineTrials']} enrolled fingers; {r['seconds']} s)")
        lines.append(f"  old rule (first >= {OLD_THRESHOLD}): strangers welcomed {stats.rate_text(r['old']['strangersWelcomed'])}; "
                     f"wrong person {stats.rate_text(r['old']['wrongPerson'])}; "
                     f"right person, first touch {stats.rate_text(r['old']['rightPersonFirstTouch'])}")
        n = r["new"]
        lines.append(f"  new rule: threshold {r['threshold']} at target {DEFAULT_TARGET} ({r['comparisonsPerTouch']:,} comparisons a touch, tail {r['tail']}); decided by {r['decidedBy']}")
        lines.append(f"  new rule ({r['rule']}, target {DEFAULT_TARGET}): strangers welcomed {stats.rate_text(n['strangersWelcomed'])}; "
                     f"wrong person {stats.rate_text(n['wrongPerson'])}; right person, first touch {stats.rate_text(n['rightPersonFirstTouch'])}; "
                     f"after a second touch {stats.rate_text(n['rightPersonAfterSecondTouch'])}; second touch asked {stats.rate_text(n['secondTouchAsked'])}")
        b = r["badge"]
        lines.append(f"  badge and finger (the named person's prints alone; strangers name somebody enrolled): strangers welcomed "
                     f"{stats.rate_text(b['strangersWelcomed'])}; right person, first touch {stats.rate_text(b['rightPersonFirstTouch'])}; "
                     f"after a second touch {stats.rate_text(b['rightPersonAfterSecondTouch'])}; second touch asked "
                     f"{stats.rate_text(b['secondTouchAsked'])}; decided by {b['decidedBy']}")
        cap = r["stepCap"]
        lines.append(f"  step cap met by {cap['firstTouchComparisonsMeetingIt']} of {cap['firstTouchComparisons']:,} first-touch "
                     f"comparisons ({cap['probesMeetingIt']} probes), and by {cap['laterTouchComparisonsMeetingIt']} comparisons of the "
                     f"{cap['laterTouches']} later touches any target asked for; genuine per print: {r['genuine']['perPrint']}")
    t = results["tuning"]
    for kind in ["perSample", "perPrint"]:
        fit = t[kind]["fit"]
        lines.append(f"\ntuning seed {t['seed']}, impostor tail {kind} ({t[kind]['pairs']:,} pairs): "
                     + (f"ln P(>=t) = {fit['a']:.3f} {fit['b']:+.4f} t over t = {fit['range'][0]}..{fit['range'][1]}" if fit else "no fit"))
        lines.append("  " + ", ".join(f"t={row['t']}: {row['count']}" for row in t[kind]["tail"] if row["t"] % 10 == 0))
    lines.append(f"tuning genuine: {t['genuine']}")
    return "\n".join(lines)


def markdown(results):
    """The figures as BENCHMARKS.md's table: one row per size and rule."""
    def cell(r):
        return f"{r['count']}/{r['of']} ({100 * r['rate']:.1f} %, {100 * r['low']:.2f}-{100 * r['high']:.2f} %)" if r["of"] else "n/a"
    rows = ["| prints | rule | strangers welcomed | wrong person | right person, first touch | after a second touch | second touch asked |",
            "|---|---|---|---|---|---|---|"]
    for r in results["sizes"]:
        rows.append(f"| {r['size']:,} | old: first >= {OLD_THRESHOLD} | {cell(r['old']['strangersWelcomed'])} | "
                    f"{cell(r['old']['wrongPerson'])} | {cell(r['old']['rightPersonFirstTouch'])} | - | - |")
        n = r["new"]
        rows.append(f"| {r['size']:,} | new: threshold {r['threshold']} | {cell(n['strangersWelcomed'])} | {cell(n['wrongPerson'])} | "
                    f"{cell(n['rightPersonFirstTouch'])} | {cell(n['rightPersonAfterSecondTouch'])} | {cell(n['secondTouchAsked'])} |")
        b = r["badge"]
        rows.append(f"| {r['size']:,} | badge and finger | {cell(b['strangersWelcomed'])} (a badge not theirs) | - | "
                    f"{cell(b['rightPersonFirstTouch'])} | {cell(b['rightPersonAfterSecondTouch'])} | {cell(b['secondTouchAsked'])} |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the folder holding fpbridge-accuracy (a release build)")
    parser.add_argument("--smoke", action="store_true", help="tiny galleries: proves every step runs")
    parser.add_argument("--sizes", help="comma-separated gallery sizes (default 100,1000,10000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--samples-10000", type=int, choices=range(1, 6), help="samples a print scored at 10,000 prints")
    parser.add_argument("--figures", default=os.path.join(BENCH, "figures"))
    parser.add_argument("--tail-out", default=os.path.join(BENCH, "tuning", "impostor-tail.json"))
    arguments = parser.parse_args()
    plan = SMOKE if arguments.smoke else FULL
    if arguments.samples_10000:
        plan["samples"][10000] = arguments.samples_10000
    sizes = [int(s) for s in arguments.sizes.split(",")] if arguments.sizes else plan["sizes"]
    work = os.path.join(gallery.cache_root(), "accuracy-runs", "smoke" if arguments.smoke else "full")
    os.makedirs(work, exist_ok=True)
    tools = compile_enroller(os.path.join(work, "tools"))
    started = time.time()
    enrolled, strangers, genuine = plan["tuning"]
    tuning = Population(TUNING_SEED, SENSOR, enrolled, strangers, genuine).build(tools, arguments.jobs)
    picks = sorted({f for size in sizes for f in genuine_picks(size)})
    held_out = Population(HELD_OUT_SEED, SENSOR, max(sizes), plan["strangers"], picks).build(tools, arguments.jobs)
    results = {"sensor": SENSOR, "heldOutSeed": HELD_OUT_SEED, "tuning": tune(arguments, tuning, work), "sizes": []}
    if not arguments.smoke:
        os.makedirs(os.path.dirname(arguments.tail_out), exist_ok=True)
        with open(arguments.tail_out, "w") as file:
            json.dump(results["tuning"], file, indent=1)
    tail = tail_option(results["tuning"])
    for size in sizes:
        results["sizes"].append(measure(arguments, held_out, size, plan["samples"].get(size, 5), work, tail))
    results["realImages"] = real_images(arguments, tools, work)
    results["syntheticMinutiae"] = synthetic_minutiae(arguments, held_out, work)
    results["seconds"] = round(time.time() - started)
    import accuracy_plots
    os.makedirs(arguments.figures, exist_ok=True)
    for r in results["sizes"]:
        name = f"accuracy-det-{r['size']}{'-smoke' if arguments.smoke else ''}.png"
        accuracy_plots.det(r["size"], r["det"]["old"], r["det"]["new"], r["strangerTrials"], r["genuineTrials"],
                           os.path.join(arguments.figures if not arguments.smoke else work, name))
    with open(os.path.join(work, "results.json"), "w") as file:
        json.dump(results, file, indent=1)
    print(report(results))
    print("\n" + markdown(results))
    print(f"\naccuracy: results in {os.path.join(work, 'results.json')}; {results['seconds']} s in all")


if __name__ == "__main__":
    main()
