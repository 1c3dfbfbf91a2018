"""Counting for the accuracy benchmark: exact binomial intervals and the impostor tail's fit."""
import math


def binomial_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p)."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    total = 0.0
    for i in range(k + 1):
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                          + i * math.log(p) + (n - i) * math.log1p(-p))
    return min(total, 1.0)


def clopper_pearson(k, n, confidence=0.95):
    """The exact (Clopper-Pearson) interval of a rate seen k times in n: (low, high)."""
    if n == 0:
        return 0.0, 1.0
    alpha = 1 - confidence

    def solve(target, k_):
        # The p at which P(X <= k_) = target: the CDF falls as p rises.
        low, high = 0.0, 1.0
        for _ in range(80):
            middle = (low + high) / 2
            if binomial_cdf(k_, n, middle) > target:
                low = middle
            else:
                high = middle
        return (low + high) / 2
    lower = 0.0 if k == 0 else solve(1 - alpha / 2, k - 1)
    upper = 1.0 if k == n else solve(alpha / 2, k)
    return lower, upper


def rate(k, n):
    """A rate with its 95 % interval, as the benchmark's JSON and tables give it."""
    low, high = clopper_pearson(k, n)
    return {"count": k, "of": n, "rate": k / n if n else None, "low": low, "high": high}


def rate_text(r):
    if not r["of"]:
        return "n/a"
    return f"{r['count']}/{r['of']} = {100 * r['rate']:.2f} % [{100 * r['low']:.2f}, {100 * r['high']:.2f}]"


def tail(scores, thresholds):
    """For each t: how many of scores are >= t, and that fraction."""
    n = len(scores)
    ordered = sorted(scores)
    rows = []
    import bisect
    for t in thresholds:
        count = n - bisect.bisect_left(ordered, t)
        rows.append({"t": t, "count": count, "of": n, "fraction": count / n if n else None})
    return rows


def log_linear_fit(rows, minimum_count=3):
    """Least squares of ln P(score >= t) = a + b t over the rows with at least minimum_count
    pairs (the measured range); each point weighted by its count (the variance of a log
    frequency is about 1/count)."""
    points = [(r["t"], math.log(r["fraction"]), r["count"]) for r in rows if r["count"] >= minimum_count]
    if len(points) < 2:
        return None
    w = sum(c for _, _, c in points)
    mt = sum(t * c for t, _, c in points) / w
    my = sum(y * c for _, y, c in points) / w
    stt = sum(c * (t - mt) ** 2 for t, _, c in points)
    sty = sum(c * (t - mt) * (y - my) for t, y, c in points)
    b = sty / stt
    a = my - b * mt
    return {"model": "ln P(score >= t) = a + b*t", "a": a, "b": b,
            "decade_per_points": -math.log(10) / b if b < 0 else None,
            "range": [points[0][0], points[-1][0]], "points": len(points), "minimum_count": minimum_count}
