"""How bench/run.py's table and bench/crosscheck.py's table state a command's times."""
import statistics


def milliseconds(values):
    """Median, min and max of run times in seconds, in milliseconds."""
    return statistics.median(values) * 1000, min(values) * 1000, max(values) * 1000


def ratios(subject, anchors):
    """The subject's median over each anchor's, labelled: anchors are (label, run times) pairs."""
    return " ".join(f"{statistics.median(subject) / statistics.median(times):.2f}× {label}" for label, times in anchors)
