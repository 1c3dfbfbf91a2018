"""The accuracy benchmark's pictures: a DET curve per gallery size, both rules on the same probes."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def det(size, old, new, strangers, genuine, path):
    """old: [(threshold, fpir, fnir)], new: [(target, fpir, fnir)]; zero rates drawn at half a count."""
    floor_x, floor_y = 0.5 / max(strangers, 1), 0.5 / max(genuine, 1)
    figure, axes = plt.subplots(figsize=(6.4, 5.2), dpi=110)
    for points, label, style in [(old, "old: first print in gallery order >= t (t = 20..150)", "o-"),
                                 (new, "new: IdentificationRules, target stranger rate 1e-5..0.1", "s-")]:
        xs = [max(p[1], floor_x) for p in points]
        ys = [max(p[2], floor_y) for p in points]
        axes.plot(xs, ys, style, markersize=3, label=label)
    for t, fpir, fnir in old:
        if t in (40, 60, 80):
            axes.annotate(f"t={t}", (max(fpir, floor_x), max(fnir, floor_y)), fontsize=7, xytext=(4, 4),
                          textcoords="offset points")
    for target, fpir, fnir in new:
        if target == 1e-3:
            axes.annotate("target 0.1 %", (max(fpir, floor_x), max(fnir, floor_y)), fontsize=7, xytext=(4, -10),
                          textcoords="offset points")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(f"strangers welcomed as somebody ({strangers} strangers)")
    axes.set_ylabel(f"right person not identified ({genuine} enrolled fingers)")
    axes.set_title(f"{size:,} prints: libfprint's rule against the new one (held-out seed)", fontsize=10)
    axes.axvline(1e-3, color="grey", linewidth=0.6, linestyle=":")
    axes.grid(True, which="both", linewidth=0.3)
    axes.text(0.99, 0.01, "a rate of 0 is drawn at half a count", transform=axes.transAxes, fontsize=6,
              ha="right", va="bottom", color="grey")
    axes.legend(fontsize=7, loc="lower left")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
